"""The Decathlon at the terminal: dice as faces, counters, score sheet, keyboard input.

Keys are parsed in :mod:`.decathlon_keys`; the ``?`` hint renders the game's
:func:`~gamenight.games.decathlon.advisor.advise` with :mod:`gamenight.terminal.advice`.
Player names and typed text are always printed as text, never as Rich markup.

Thrown dice are yellow with their positions above them (the numbers a player
types to freeze); frozen dice are cyan on a dark background and labelled
"frozen"; dice that may not be frozen (odd in the Discus, even in the Javelin)
are dimmed. The counters of D12 (rethrows left, attempt n of 3, the bar and the
jumps used at it) are always on screen while they apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import msgspec
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core import registry
from gamenight.core.advice import Advice
from gamenight.core.game import Results
from gamenight.core.odds import Odds
from gamenight.games.decathlon.actions import Action, Freeze, Retire
from gamenight.games.decathlon.disciplines import (
    JUMPS_PER_HEIGHT,
    NAMES,
    RETHROWS,
    RUN_UP_LIMIT,
    SHOT_PUT_DICE,
    sprint_score,
)
from gamenight.games.decathlon.events import (
    AttemptResult,
    Bar,
    Cleared,
    DecathlonEvent,
    DisciplineEnd,
    DisciplineStart,
    Froze,
    GameOver,
    Invalid,
    Jumped,
    Missed,
    Out,
    Retired,
    Rolled,
    Skipped,
    StartingOrder,
    Turn,
)
from gamenight.games.decathlon.scoring import honours
from gamenight.games.decathlon.view import DecathlonView
from gamenight.terminal import odds as odds_text
from gamenight.terminal.advice import advice_table
from gamenight.terminal.decathlon_keys import describe, help_text, parse_command, prompt
from gamenight.terminal.ui import HELP_WORDS, Prompter, Seating, ask_until_parsed, die_key
from gamenight.terminal.words import plural

if TYPE_CHECKING:  # the advisor pulls in the solver (numpy): imported on the first hint
    from gamenight.games.decathlon.advisor import Recommendation

FACES = "⚀⚁⚂⚃⚄⚅"
THROWN, FROZEN, BARRED = "bold yellow", "bold cyan on grey23", "dim"


def face(value: int) -> str:
    """A die as its face and digit, e.g. ``⚂3``."""
    return f"{FACES[value - 1]}{value}"


def dice_text(values: Sequence[int], style: str, label: str = "") -> Text:
    text = Text(f"{label:<8}" if label else "")
    for i, value in enumerate(values):
        if i:
            text.append("  ")
        text.append(f" {face(value)} ", style=style)
    return text


def thrown_text(values: Sequence[int], freezable: Sequence[int] | None) -> Group:
    """The dice just thrown, with their positions (from 1) above them."""
    positions = Text(" " * 8 + "  ".join(f" {i + 1:<2} " for i in range(len(values))), style="dim")
    row = Text(f"{'thrown':<8}")
    for i, value in enumerate(values):
        if i:
            row.append("  ")
        barred = freezable is not None and i not in freezable
        start = len(row)
        row.append(f" {face(value)} ", style=BARRED if barred else THROWN)
        row.stylize(die_key(i + 1), start, len(row))  # a click types i+1 (full screen)
    return Group(positions, row)


def result_text(value: int | None) -> str:
    return "—" if value is None else str(value)


def score_sheet(
    events: Sequence[str], rows: Sequence[Sequence[int | None]], names: Sequence[str], variant: str
) -> RichTable:
    """Rows = events, columns = players; points totals and, in the Championship, honours."""
    champ = variant == "championship"
    sheet = RichTable(title="Score sheet", show_footer=True, title_justify="left")
    sheet.add_column("Event", footer="Points" if not champ else "Points / honours")
    points = [0] * len(names)
    medals = [0] * len(names)
    for row in rows:
        for seat, value in enumerate(row):
            points[seat] += value or 0
        for seat, h in enumerate(honours(tuple(row))):
            medals[seat] += h
    for seat, name in enumerate(names):
        footer = str(points[seat]) + (f" / {medals[seat]}" if champ else "")
        sheet.add_column(Text(name), justify="right", footer=footer)
    for event, row in zip(events, rows, strict=False):
        cells = [result_text(v) for v in row]
        if champ:
            cells = [
                c + (f" ({h})" if h else "")
                for c, h in zip(cells, honours(tuple(row)), strict=True)
            ]
        sheet.add_row(NAMES[event], *cells)
    return sheet


def live_odds(view: DecathlonView) -> Odds | None:
    """The game's ``odds`` capability (through the registry), or None solo or once over."""
    if not view.contested:
        return None  # solo or over: numpy and the solver are imported only when odds are shown
    return odds_text.live_odds(registry.get("decathlon"), view)


def win_odds(view: DecathlonView) -> tuple[float, ...] | None:
    """Each player's chance of winning (in the Championship: of the most honours), or None
    solo or once over."""
    odds = live_odds(view)
    return None if odds is None else odds.win


def odds_line(seq: int, view: DecathlonView, names: Sequence[str]) -> str | None:
    """One line of the ``replay --odds`` track (:func:`gamenight.terminal.odds.odds_line`)."""
    odds = live_odds(view)
    if odds is None:
        return None
    where = NAMES[view.discipline] if view.discipline else None
    return odds_text.odds_line(seq, odds, names, where)


class UI:
    """The Decathlon's :class:`gamenight.terminal.ui.TerminalUI`."""

    parse_command = staticmethod(parse_command)  # the keys, read (TerminalUI)

    # ----- rendering the table ----------------------------------------------------
    def show(self, console: Console, view: DecathlonView, seat: int | None, table: Seating) -> None:
        if view.discipline is None:
            console.print(Text("The decathlon is over.", style="bold"))
            return
        title = (
            f"{NAMES[view.discipline]} · event {view.discipline_no + 1} of {len(view.disciplines)}"
            f" · {'Championship' if view.variant == 'championship' else 'points game'}"
        )
        parts: list[RenderableType] = [self._counters(view, table)]
        parts.extend(self._dice(view))
        parts.append(self._field(view, table))
        ranked = live_odds(view) if view.variant == "championship" else None
        if ranked is not None:
            how = (
                "exact"
                if ranked.exact or not ranked.se
                else f"from simulated finishes (standard error at most {max(ranked.se):.1%})"
            )
            parts.append(
                Text(f"win: the chance of the most honours (alone or tied), {how}", style="dim")
            )
        if view.contested:  # the odds model no bot's strength: say so where they show
            parts.append(Text(f"win: {odds_text.ASSUMPTION}", style="dim"))
        score = view.honour_totals if view.variant == "championship" else view.totals
        totals = " · ".join(f"{table.names[s]} {score[s]}" for s in view.order)
        if view.sheet:
            unit = "honours" if view.variant == "championship" else "points"
            parts.append(Text(f"Standing ({unit}): {totals}", style="dim"))
        console.print(Panel(Group(*parts), title=title, title_align="left"))

    def _counters(self, view: DecathlonView, table: Seating) -> Text:
        """Who acts and the D12 counters for this event."""
        who = table.names[view.to_act] if view.to_act is not None else "—"
        text = Text.assemble((who, "bold"), " to act")
        counters: list[str] = []
        if view.attempts > 1:
            counters.append(f"attempt {view.attempt} of {view.attempts}")
        if view.rethrows_left is not None:
            counters.append(f"rethrows left {view.rethrows_left} of {RETHROWS}")
            if (view.sets or 1) > 1:
                counters.append(f"set {view.set_no} of {view.sets}")
            if view.frozen_sets:  # the sprint score of the sets already frozen (D4)
                counters.append(f"score so far {sprint_score(view.frozen)}")
        if view.height is not None:
            counters.append(f"bar {view.height}")
            counters.append(f"jumps used {view.jumps_at_height or 0} of {JUMPS_PER_HEIGHT}")
        if view.discipline == "long-jump":
            if view.phase == "jump-freeze":
                counters.append(f"jump with {plural(len(view.run_up), 'die', 'dice')}")
                if view.frozen:
                    counters.append(f"jump so far {sum(view.frozen)}")
            else:
                counters.append(f"run-up total {sum(view.frozen)} of at most {RUN_UP_LIMIT}")
        if view.discipline in ("discus", "javelin") and view.frozen:
            counters.append(f"frozen total {sum(view.frozen)}")
        if view.shot:
            counters.append(f"die {len(view.shot)} of {SHOT_PUT_DICE}, total {sum(view.shot)}")
        if counters:
            text.append(" · " + " · ".join(counters), style="bold magenta")
        return text

    def _dice(self, view: DecathlonView) -> list[RenderableType]:
        parts: list[RenderableType] = []
        if view.frozen_sets:
            sets = Text(f"{'frozen':<8}")
            for i, values in enumerate(view.frozen_sets):
                if i:
                    sets.append(" │ ", style="dim")
                sets.append_text(dice_text(values, FROZEN))
            parts.append(sets)
        elif view.frozen:
            parts.append(dice_text(view.frozen, FROZEN, "frozen"))
        if view.shot:
            parts.append(dice_text(view.shot, FROZEN, "shot"))
        if view.thrown:
            barred = view.freezable if view.discipline in ("discus", "javelin") else None
            parts.append(thrown_text(view.thrown, barred))
        if view.last_jump:
            parts.append(dice_text(view.last_jump, "dim", "last"))
        return parts

    def _field(self, view: DecathlonView, table: Seating) -> RichTable:
        """This event so far, one line per player in acting order."""
        field = RichTable(box=None, pad_edge=False, show_header=True, header_style="dim")
        field.add_column("")
        field.add_column("player")
        heights = view.height is not None
        field.add_column("heights" if heights else "attempts")
        field.add_column("best", justify="right")
        odds = live_odds(view)
        chances = None if odds is None else odds.win
        also = None if odds is None else odds.also
        if chances is not None:
            # with a second series, say which is which: points play, win play
            field.add_column("win" if also is None else "win (points play)", justify="right")
        if also is not None:
            field.add_column("win (win play)", justify="right")
        for seat in view.order:
            marker = "▶" if seat == view.to_act else ""
            if heights:
                status = view.status[seat] if view.status else "in"
                done = " ".join(f"{h}:{m}" for h, m in view.marks[seat]) if view.marks else ""
                detail = f"{done} [{status}]" if status != "in" else done
            else:
                tries = view.tries[seat] if view.tries else ()
                detail = "  ".join("✗" if t is None else str(t) for t in tries)
            best = view.best[seat] if view.best else None
            cells: list[RenderableType] = [marker, Text(table.names[seat]), Text(detail)]
            cells.append(result_text(best))
            if chances is not None:
                cells.append(f"{chances[seat]:.0%}")
            if also is not None:
                cells.append(f"{also[seat]:.0%}")
            field.add_row(*cells)
        return field

    # ----- narrating what happened ------------------------------------------------
    def show_events(
        self, console: Console, events: Sequence[DecathlonEvent], table: Seating
    ) -> None:
        final = any(isinstance(e, GameOver) for e in events)
        for event in events:
            if final and isinstance(event, DisciplineEnd):
                continue  # the final standings show the whole sheet right after
            line = self._narrate(event, table)
            if line is not None:
                console.print(line)

    def _narrate(self, event: DecathlonEvent, table: Seating) -> RenderableType | None:
        names = table.names
        match event:
            case StartingOrder(order=order):
                return Text("Starting order (drawn): " + ", ".join(names[s] for s in order))
            case DisciplineStart(discipline=discipline, order=order):
                title = f"{NAMES[discipline]} — order: {', '.join(names[s] for s in order)}"
                return Rule(Text(title))
            case Turn(player=p, attempt=attempt, attempts=attempts):
                if attempts > 1:
                    return Text(f"{names[p]} — attempt {attempt} of {attempts}", style="bold")
                return Text(f"{names[p]} is up", style="bold")
            case Rolled():
                return self._roll(names[event.player], event)
            case Froze(player=p, what=what, dice=dice, frozen=frozen, auto=auto):
                text = Text(f"  {names[p]} freezes ")
                text.append_text(dice_text(dice, FROZEN))
                if what != "set":
                    text.append(f"  (frozen {sum(frozen)})")
                if auto:
                    text.append("  automatically", style="dim")
                return text
            case Jumped(player=p, dice=dice, height=height, auto=auto):
                if height is not None:
                    return Text(f"  {names[p]} goes for {height}")
                why = " (all five frozen)" if auto else ""
                count = plural(dice or 0, "die", "dice")
                return Text(f"  {names[p]} jumps with {count}{why}")
            case Invalid(player=p, reason=reason):
                return Text(f"  ✗ {names[p]}: invalid attempt — {reason}", style="red")
            case AttemptResult(player=p, result=result, best=best):
                shown = "no valid result" if result is None else f"{result}"
                return Text(f"  {names[p]}: {shown} (best {result_text(best)})", style="green")
            case Bar(height=height):
                return Text(f"The bar is at {height}", style="bold magenta")
            case Skipped(player=p, height=height):
                return Text(f"  {names[p]} skips {height}")
            case Retired(player=p):
                return Text(f"  {names[p]} retires")
            case Cleared(player=p, height=height, jump=jump):
                return Text(f"  ✓ {names[p]} clears {height} (jump {jump})", style="green")
            case Missed(player=p, height=height, reason=reason):
                return Text(f"  ✗ {names[p]} misses {height}: {reason}", style="red")
            case Out(player=p, height=height):
                return Text(f"  {names[p]} is out at {height}", style="red")
            case DisciplineEnd(sheet=sheet, honours=medals):
                variant = "championship" if medals is not None else "points"
                return score_sheet(list(sheet), list(sheet.values()), names, variant)
            case GameOver():
                return Rule("The decathlon is over")
        return None

    def _roll(self, who: str, event: Rolled) -> Text:
        what = event.what
        if what == "set":
            note = f"set {event.set_no}" + (
                f", rethrow — {event.rethrows_left} left" if event.rethrow else ""
            )
        elif what == "height":
            note = f"jump {event.jump} at {event.height}, total {sum(event.dice)}"
        elif what == "shot":
            note = f"die {event.die}"
        else:
            note = what + (", rethrow" if event.rethrow else "")
        text = Text(f"  {who} throws ")
        text.append_text(dice_text(event.dice, THROWN))
        text.append(f"  ({note})", style="dim")
        return text

    # ----- asking a human -----------------------------------------------------------
    def ask(
        self,
        prompter: Prompter,
        view: DecathlonView,
        legal: Sequence[Action],
        seat: int,
        table: Seating,
    ) -> Action:
        def parse(text: str) -> Action | str:
            return parse_command(text, view, legal)

        def on_help(word: str) -> bool:
            if word not in HELP_WORDS:
                return False
            prompter.console.print(Text(help_text(view)))
            self._print_hint(prompter.console, view, legal, table)
            return True

        question = f"{table.names[seat]}: {prompt(view)} (? help) > "
        while True:
            # mypy joins the union of action types to Struct when solving the TypeVar
            action = cast(Action, ask_until_parsed(prompter, question, parse, on_help))
            warning = confirmation(action, view)
            if warning is None or _confirmed(prompter, warning):
                return action

    def hint(self, view: DecathlonView, legal: Sequence[Action]) -> str | None:
        """The optimal action in one sentence (the exact solver's; see the advisor)."""
        from gamenight.games.decathlon.advisor import recommend

        found = recommend(view, legal)
        return None if found is None else hint_line(found, view)

    def _print_hint(
        self, console: Console, view: DecathlonView, legal: Sequence[Action], table: Seating
    ) -> None:
        """Every option's value as a small table, then the recommendation."""
        from gamenight.games.decathlon.advisor import recommend

        found = recommend(view, legal, table.names)
        if found is None:
            return
        advice = hint_advice(found, view)
        console.print(Text("Hint: value of each option (exact solver)", style="bold"))
        console.print(advice_table(advice, title=""))
        console.print(Text("★ optimal (expected result) · ☆ best for that column", style="dim"))
        for objective in advice.objectives:
            if objective.note:
                console.print(Text(f"{objective.name}: {objective.note}", style="dim"))
        console.print(Text(hint_line(found, view), style="italic"))

    # ----- the end ---------------------------------------------------------------------
    def show_results(
        self, console: Console, results: Results, view: DecathlonView, table: Seating
    ) -> None:
        champ = view.variant == "championship"
        standings = RichTable(title="Final standings", title_justify="left")
        standings.add_column("Rank", justify="right")
        standings.add_column("Player")
        standings.add_column("Honours" if champ else "Points", justify="right")
        if champ:
            standings.add_column("Points", justify="right")
        by_rank = sorted(range(len(results.scores)), key=lambda s: (results.ranks[s], s))
        for seat in by_rank:
            score = f"{results.scores[seat]:g}"
            trophy = " 🏆" if seat in results.winners else ""
            cells: list[str | Text] = [str(results.ranks[seat]), Text(table.names[seat] + trophy)]
            cells.append(score)
            if champ:
                cells.append(str(view.totals[seat]))
            standings.add_row(*cells)
        console.print(score_sheet(view.disciplines, view.sheet, table.names, view.variant))
        console.print(standings)


# ----- hints and confirmations ---------------------------------------------------------
def hint_advice(found: Recommendation, view: DecathlonView) -> Advice:
    """The advice with each option labelled as a player types it (e.g. "rethrow (r)")."""
    options = tuple(
        msgspec.structs.replace(option, label=describe(action, view))
        for option, action in zip(found.advice.options, found.actions, strict=True)
    )
    return msgspec.structs.replace(found.advice, options=options)


def hint_line(found: Recommendation, view: DecathlonView) -> str:
    """One sentence: the optimal action, and the competitive one where it differs."""
    best = found.advice.options[found.optimal]
    label = describe(found.actions[found.optimal], view)
    text = f"Hint: the optimal play is to {label}: expected result {best.values[0]:.2f}."
    if found.goal:
        text += f" To play for {found.goal}: {describe(found.actions[found.competitive], view)}."
    return text


def confirmation(action: Action, view: DecathlonView) -> str | None:
    """The question to ask before an action that cannot be taken back, if any.

    Retiring leaves the height discipline for good; a Long Jump run-up freeze over
    the limit makes the attempt invalid at once.
    """
    name = NAMES.get(view.discipline or "", "")
    if isinstance(action, Retire):
        kept = view.best[view.to_act] if view.best and view.to_act is not None else None
        keeps = f"you keep {kept}" if kept is not None else "you have cleared no height yet"
        return f"Retire from the {name} for good ({keeps})? y/n"
    if isinstance(action, Freeze) and view.phase == "run-up-freeze":
        total = sum(view.frozen) + sum(view.thrown[i] for i in action.dice)
        if total > RUN_UP_LIMIT:
            return (
                f"That takes the run-up to {total}, more than {RUN_UP_LIMIT}: you step over "
                "and the attempt is invalid. Freeze anyway? y/n"
            )
    return None


def _confirmed(prompter: Prompter, question: str) -> bool:
    answer = prompter.ask(f"{question} > ").strip().lower()
    return answer in ("y", "yes")
