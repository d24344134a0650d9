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

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

import msgspec
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core import registry
from gamenight.core.advice import Advice
from gamenight.core.game import Results
from gamenight.core.i18n import _, format_chance, format_decimal, ngettext
from gamenight.core.odds import Odds
from gamenight.games.decathlon.actions import Action, Freeze, Retire
from gamenight.games.decathlon.disciplines import (
    JUMPS_PER_HEIGHT,
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
from gamenight.terminal.decathlon_keys import (
    WORD_PHASES,
    WORDS,
    describe,
    event_name,
    help_text,
    parse_command,
    prompt,
    verb,
)
from gamenight.terminal.ui import (
    HELP_WORDS,
    HintBlock,
    Prompter,
    Seating,
    ask_until_parsed,
    die_key,
    heading,
    legal_choices,
)

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
    label = _("thrown")
    row = Text(f"{label:<8}")
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
    sheet = RichTable(title=_("Score sheet"), show_footer=True, title_justify="left")
    # a narrow log folds a word too long for its column ("100-m-Lauf" has no space to wrap
    # at): Rich's default would cut it with an ellipsis
    total = _("Points") if not champ else _("Points / honours")
    sheet.add_column(_("Event"), footer=total, overflow="fold")
    points = [0] * len(names)
    medals = [0] * len(names)
    for row in rows:
        for seat, value in enumerate(row):
            points[seat] += value or 0
        for seat, h in enumerate(honours(tuple(row))):
            medals[seat] += h
    for seat, name in enumerate(names):
        footer = str(points[seat]) + (f" / {medals[seat]}" if champ else "")
        sheet.add_column(Text(name), justify="right", footer=footer, overflow="fold")
    for event, row in zip(events, rows, strict=False):
        cells = [result_text(v) for v in row]
        if champ:
            cells = [
                c + (f" ({h})" if h else "")
                for c, h in zip(cells, honours(tuple(row)), strict=True)
            ]
        sheet.add_row(event_name(event), *cells)
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
    where = event_name(view.discipline) if view.discipline else None
    return odds_text.odds_line(seq, odds, names, where)


class UI:
    """The Decathlon's :class:`gamenight.terminal.ui.TerminalUI`."""

    parse_command = staticmethod(parse_command)  # the keys, read (TerminalUI)

    # ----- rendering the table ----------------------------------------------------
    def show(self, console: Console, view: DecathlonView, seat: int | None, table: Seating) -> None:
        if view.discipline is None:
            console.print(Text(_("The decathlon is over."), style="bold"))
            return
        title = _("{event} · event {n} of {of} · {variant}").format(
            event=event_name(view.discipline),
            n=view.discipline_no + 1,
            of=len(view.disciplines),
            variant=_("Championship") if view.variant == "championship" else _("points game"),
        )
        parts: list[RenderableType] = [self._counters(view, table)]
        parts.extend(self._dice(view))
        parts.append(self._field(view, table))
        ranked = live_odds(view) if view.variant == "championship" else None
        if ranked is not None:
            how = (
                _("exact")
                if ranked.exact or not ranked.se
                else _("from simulated finishes (standard error at most {se})").format(
                    se=format_chance(max(ranked.se), places=1)
                )
            )
            # one footnote: what "win" counts here and what the odds assume (two lines,
            # "most honours" and "most points", read as contradicting each other)
            said = _(
                "win: the chance of the most honours (alone or tied), {how}, if every player, "
                "bots included, plays each event for the most points (a weak bot wins less "
                "often than shown)"
            )
            parts.append(Text(said.format(how=how), style="dim"))
        elif view.contested:  # the odds model no bot's strength: say so where they show
            parts.append(Text(_("win: {why}").format(why=odds_text.assumption()), style="dim"))
        score = view.honour_totals if view.variant == "championship" else view.totals
        totals = " · ".join(f"{table.names[s]} {score[s]}" for s in view.order)
        if view.sheet:
            line = (
                _("Standing (honours): {totals}")
                if view.variant == "championship"
                else _("Standing (points): {totals}")
            )
            parts.append(Text(line.format(totals=totals), style="dim"))
        if cell_len(title) + 6 > console.width:  # a title too wide is cropped: say it inside
            parts.insert(0, Text(title, style="bold"))
            title = ""
        console.print(Panel(Group(*parts), title=title or None, title_align="left"))

    def _counters(self, view: DecathlonView, table: Seating) -> Text:
        """Who acts and the D12 counters for this event."""
        who = table.names[view.to_act] if view.to_act is not None else "—"
        text = Text.assemble((who, "bold"), " ", _("to act"))
        counters: list[str] = []
        if view.attempts > 1:
            counters.append(_("attempt {n} of {of}").format(n=view.attempt, of=view.attempts))
        if view.rethrows_left is not None:
            counters.append(
                _("rethrows left {n} of {of}").format(n=view.rethrows_left, of=RETHROWS)
            )
            if (view.sets or 1) > 1:
                counters.append(_("set {n} of {of}").format(n=view.set_no, of=view.sets))
            if view.frozen_sets:  # the sprint score of the sets already frozen (D4)
                counters.append(_("score so far {n}").format(n=sprint_score(view.frozen)))
        if view.height is not None:
            counters.append(_("bar {n}").format(n=view.height))
            counters.append(
                _("jumps used {n} of {of}").format(n=view.jumps_at_height or 0, of=JUMPS_PER_HEIGHT)
            )
        if view.discipline == "long-jump":
            if view.phase == "jump-freeze":
                n = len(view.run_up)
                counters.append(ngettext("jump with {n} die", "jump with {n} dice", n).format(n=n))
                if view.frozen:
                    counters.append(_("jump so far {n}").format(n=sum(view.frozen)))
            else:
                counters.append(
                    _("run-up total {n} of at most {of}").format(
                        n=sum(view.frozen), of=RUN_UP_LIMIT
                    )
                )
        if view.discipline in ("discus", "javelin") and view.frozen:
            counters.append(_("frozen total {n}").format(n=sum(view.frozen)))
        if view.shot:
            counters.append(
                _("die {n} of {of}, total {total}").format(
                    n=len(view.shot), of=SHOT_PUT_DICE, total=sum(view.shot)
                )
            )
        if counters:
            text.append(" · " + " · ".join(counters), style="bold magenta")
        return text

    def _dice(self, view: DecathlonView) -> list[RenderableType]:
        parts: list[RenderableType] = []
        if view.frozen_sets:
            label = _("frozen")
            sets = Text(f"{label:<8}")
            for i, values in enumerate(view.frozen_sets):
                if i:
                    sets.append(" │ ", style="dim")
                sets.append_text(dice_text(values, FROZEN))
            parts.append(sets)
        elif view.frozen:
            parts.append(dice_text(view.frozen, FROZEN, _("frozen")))
        if view.shot:
            parts.append(dice_text(view.shot, FROZEN, _("shot")))
        if view.thrown:
            barred = view.freezable if view.discipline in ("discus", "javelin") else None
            parts.append(thrown_text(view.thrown, barred))
        if view.last_jump:
            parts.append(dice_text(view.last_jump, "dim", _("last")))
        return parts

    def _field(self, view: DecathlonView, table: Seating) -> RichTable:
        """This event so far, one line per player in acting order."""
        field = RichTable(box=None, pad_edge=False, show_header=True, header_style="dim")
        field.add_column("")
        field.add_column(_("player"))
        heights = view.height is not None
        field.add_column(_("heights") if heights else _("attempts"))
        field.add_column(_("best"), justify="right")
        odds = live_odds(view)
        chances = None if odds is None else odds.win
        also = None if odds is None else odds.also
        if chances is not None:
            # with a second series, say which is which: points play, win play
            field.add_column(_("win") if also is None else _("win (points play)"), justify="right")
        if also is not None:
            field.add_column(_("win (win play)"), justify="right")
        for seat in view.order:
            marker = "▶" if seat == view.to_act else ""
            if heights:
                status = view.status[seat] if view.status else "in"
                done = " ".join(f"{h}:{m}" for h, m in view.marks[seat]) if view.marks else ""
                detail = f"{done} [{STATUS.get(status, str)()}]" if status != "in" else done
            else:
                tries = view.tries[seat] if view.tries else ()
                detail = "  ".join("✗" if t is None else str(t) for t in tries)
            best = view.best[seat] if view.best else None
            cells: list[RenderableType] = [marker, Text(table.names[seat]), Text(detail)]
            cells.append(result_text(best))
            if chances is not None:
                cells.append(format_chance(chances[seat]))
            if also is not None:
                cells.append(format_chance(also[seat]))
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
            if isinstance(line, Rule):  # a rule crops a long title: wrap it
                line = heading(line.title, console.width)
            if line is not None:
                console.print(line)

    def _narrate(self, event: DecathlonEvent, table: Seating) -> RenderableType | None:
        names = table.names
        match event:
            case StartingOrder(order=order):
                return Text(
                    _("Starting order (drawn): {names}").format(
                        names=", ".join(names[s] for s in order)
                    )
                )
            case DisciplineStart(discipline=discipline, order=order):
                title = _("{event} — order: {names}").format(
                    event=event_name(discipline), names=", ".join(names[s] for s in order)
                )
                return Rule(Text(title))
            case Turn(player=p, attempt=attempt, attempts=attempts):
                if attempts > 1:
                    return Text(
                        _("{name} — attempt {n} of {of}").format(
                            name=names[p], n=attempt, of=attempts
                        ),
                        style="bold",
                    )
                return Text(_("{name} is up").format(name=names[p]), style="bold")
            case Rolled():
                return self._roll(names[event.player], event)
            case Froze(player=p, what=what, dice=dice, frozen=frozen, auto=auto):
                text = Text("  " + _("{name} freezes").format(name=names[p]) + " ")
                text.append_text(dice_text(dice, FROZEN))
                if what != "set":
                    text.append("  " + _("(frozen {n})").format(n=sum(frozen)))
                if auto:
                    text.append("  " + _("automatically"), style="dim")
                return text
            case Jumped(player=p, dice=dice, height=height, auto=auto):
                if height is not None:
                    return Text(
                        "  " + _("{name} goes for {height}").format(name=names[p], height=height)
                    )
                n = dice or 0
                line = (
                    ngettext(
                        "{name} jumps with {n} die (all five frozen)",
                        "{name} jumps with {n} dice (all five frozen)",
                        n,
                    )
                    if auto
                    else ngettext("{name} jumps with {n} die", "{name} jumps with {n} dice", n)
                )
                return Text("  " + line.format(name=names[p], n=n))
            case Invalid(player=p, reason=reason):
                return Text(
                    "  ✗ "
                    + _("{name}: invalid attempt — {reason}").format(
                        name=names[p], reason=reason_text(reason)
                    ),
                    style="red",
                )
            case AttemptResult(player=p, result=result, best=best):
                shown = _("no valid result") if result is None else f"{result}"
                return Text(
                    "  "
                    + _("{name}: {result} (best {best})").format(
                        name=names[p], result=shown, best=result_text(best)
                    ),
                    style="green",
                )
            case Bar(height=height):
                return Text(_("The bar is at {height}").format(height=height), style="bold magenta")
            case Skipped(player=p, height=height):
                return Text("  " + _("{name} skips {height}").format(name=names[p], height=height))
            case Retired(player=p):
                return Text("  " + _("{name} retires").format(name=names[p]))
            case Cleared(player=p, height=height, jump=jump):
                return Text(
                    "  ✓ "
                    + _("{name} clears {height} (jump {jump})").format(
                        name=names[p], height=height, jump=jump
                    ),
                    style="green",
                )
            case Missed(player=p, height=height, reason=reason):
                return Text(
                    "  ✗ "
                    + _("{name} misses {height}: {reason}").format(
                        name=names[p], height=height, reason=reason_text(reason)
                    ),
                    style="red",
                )
            case Out(player=p, height=height):
                return Text(
                    "  " + _("{name} is out at {height}").format(name=names[p], height=height),
                    style="red",
                )
            case DisciplineEnd(sheet=sheet, honours=medals):
                variant = "championship" if medals is not None else "points"
                return score_sheet(list(sheet), list(sheet.values()), names, variant)
            case GameOver():
                return Rule(_("The decathlon is over"))
        return None

    def _roll(self, who: str, event: Rolled) -> Text:
        what = event.what
        if what == "set":
            note = (_("set {n}, rethrow — {left} left") if event.rethrow else _("set {n}")).format(
                n=event.set_no, left=event.rethrows_left
            )
        elif what == "height":
            note = _("jump {n} at {height}, total {total}").format(
                n=event.jump, height=event.height, total=sum(event.dice)
            )
        elif what == "shot":
            note = _("die {n}").format(n=event.die)
        else:
            word = THROW_WHAT.get(what, str)()
            note = _("{what}, rethrow").format(what=word) if event.rethrow else word
        text = Text("  " + _("{name} throws").format(name=who) + " ")
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

        question = _("{name}: {keys} (? help) > ").format(name=table.names[seat], keys=prompt(view))
        offered = [("f", verb(Freeze)), *((w, verb(k)) for w, k in WORDS.items() if len(w) == 1)]
        choices = legal_choices(parse, legal, offered)
        # a word alone answers where words are all there is (not while dice are picked)
        quick = view.phase in WORD_PHASES
        while True:
            # mypy joins the union of action types to Struct when solving the TypeVar
            action = cast(
                Action,
                ask_until_parsed(prompter, question, parse, on_help, choices=choices, quick=quick),
            )
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
        # the sentence first: the full screen shows the block at the top of its panel
        parts: list[RenderableType] = [
            Text(hint_line(found, view), style="italic"),
            Text(_("Hint: value of each option (exact solver)"), style="bold"),
            advice_table(advice, title=""),
            Text(_("★ optimal (expected result) · ☆ best for that column"), style="dim"),
        ]
        for objective in advice.objectives:
            if objective.note:
                parts.append(Text(f"{_(objective.name)}: {_(objective.note)}", style="dim"))
        console.print(HintBlock(*parts))

    # ----- the end ---------------------------------------------------------------------
    def show_results(
        self, console: Console, results: Results, view: DecathlonView, table: Seating
    ) -> None:
        champ = view.variant == "championship"
        standings = RichTable(title=_("Final standings"), title_justify="left")
        standings.add_column(_("Rank"), justify="right")
        standings.add_column(_("Player"))
        standings.add_column(_("Honours") if champ else _("Points"), justify="right")
        if champ:
            standings.add_column(_("Points"), justify="right")
        by_rank = sorted(range(len(results.scores)), key=lambda s: (results.ranks[s], s))
        for seat in by_rank:
            score = format_decimal(results.scores[seat])
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
    objectives = tuple(
        msgspec.structs.replace(o, name=advice_text(o.name), note=advice_text(o.note or "") or None)
        for o in found.advice.objectives
    )
    return msgspec.structs.replace(found.advice, options=options, objectives=objectives)


def hint_line(found: Recommendation, view: DecathlonView) -> str:
    """One sentence: the optimal action, and the competitive one where it differs."""
    best = found.advice.options[found.optimal]
    label = describe(found.actions[found.optimal], view)
    text = _("Hint: the optimal play is to {action}: expected result {value}.").format(
        action=label, value=format_decimal(cast(float, best.values[0]), places=2)
    )
    if found.goal:
        text += " " + _("To play for {goal}: {action}.").format(
            goal=advice_text(found.goal), action=describe(found.actions[found.competitive], view)
        )
    return text


def confirmation(action: Action, view: DecathlonView) -> str | None:
    """The question to ask before an action that cannot be taken back, if any.

    Retiring leaves the height discipline for good; a Long Jump run-up freeze over
    the limit makes the attempt invalid at once.
    """
    name = event_name(view.discipline)
    if isinstance(action, Retire):
        kept = view.best[view.to_act] if view.best and view.to_act is not None else None
        if kept is not None:
            return _("Retire from the {event} for good (you keep {n})? y/n").format(
                event=name, n=kept
            )
        return _("Retire from the {event} for good (you have cleared no height yet)? y/n").format(
            event=name
        )
    if isinstance(action, Freeze) and view.phase == "run-up-freeze":
        total = sum(view.frozen) + sum(view.thrown[i] for i in action.dice)
        if total > RUN_UP_LIMIT:
            return _(
                "That takes the run-up to {total}, more than {limit}: you step over "
                "and the attempt is invalid. Freeze anyway? y/n"
            ).format(total=total, limit=RUN_UP_LIMIT)
    return None


def _confirmed(prompter: Prompter, question: str) -> bool:
    answer = prompter.ask(f"{question} > ").strip().lower()
    return answer in ("y", "yes", _("y"), _("yes"))


# The games' reasons (Invalid, Missed) are English in the events, which stay neutral:
# each known form is said again in the player's language; an unknown one stays as it is.
_REASONS: list[tuple[re.Pattern[str], Callable[[], str]]] = [
    (re.compile(r"total (?P<total>\d+) < (?P<height>\d+)"), lambda: _("total {total} < {height}")),
    (re.compile(r"a 1 shows \(total (?P<total>\d+)\)"), lambda: _("a 1 shows (total {total})")),
    (re.compile(r"a 1 shows"), lambda: _("a 1 shows")),
    (re.compile(r"die (?P<n>\d+) shows a 1"), lambda: _("die {n} shows a 1")),
    (
        re.compile(
            r"stepped over: the frozen run-up dice total (?P<total>\d+), more than (?P<limit>\d+)"
        ),
        lambda: _("stepped over: the frozen run-up dice total {total}, more than {limit}"),
    ),
    (
        re.compile(
            r"stepped over: even the lowest die just thrown takes the run-up to (?P<total>\d+), "
            r"more than (?P<limit>\d+)"
        ),
        lambda: _(
            "stepped over: even the lowest die just thrown takes the run-up to {total}, "
            "more than {limit}"
        ),
    ),
    (
        re.compile(r"no even die among (?P<dice>[\d, ]+): nothing may be frozen"),
        lambda: _("no even die among {dice}: nothing may be frozen"),
    ),
    (
        re.compile(r"no odd die among (?P<dice>[\d, ]+): nothing may be frozen"),
        lambda: _("no odd die among {dice}: nothing may be frozen"),
    ),
]


# The advisor's words (its columns, notes and goals) are English in the advice, which the
# browser gets too: the terminal says each known form again in the player's language.
_ADVICE: list[tuple[re.Pattern[str], Callable[[], str]]] = [
    (re.compile(r"expected result"), lambda: _("expected result")),
    (re.compile(r"P\(result ≥ (?P<n>\d+)\)"), lambda: _("P(result ≥ {n})")),
    (re.compile(r"E\[honours\]"), lambda: _("E[honours]")),
    (re.compile(r"medals"), lambda: _("medals")),
    (
        re.compile(r"against the results posted so far"),
        lambda: _("against the results posted so far"),
    ),
    (re.compile(r"a result of at least (?P<n>\d+)"), lambda: _("a result of at least {n}")),
    (
        re.compile(r"the result that ties (?P<name>.+)'s total"),
        lambda: _("the result that ties {name}'s total"),
    ),
    (re.compile(r"(?P<name>.+)'s best result so far"), lambda: _("{name}'s best result so far")),
]


def advice_text(text: str) -> str:
    """An advisor's English words in the player's language (unknown ones as they are).

    >>> advice_text("P(result ≥ 14)")
    'P(result ≥ 14)'
    """
    for pattern, message in _ADVICE:
        found = pattern.fullmatch(text)
        if found is not None:
            return message().format(**found.groupdict())
    return text


def reason_text(reason: str) -> str:
    """A rule's reason (an event's English ``reason``) in the player's language.

    >>> reason_text("total 12 < 14 and a 1 shows")
    'total 12 < 14 and a 1 shows'
    """
    parts = []
    for part in reason.split(" and "):
        for pattern, message in _REASONS:
            found = pattern.fullmatch(part)
            if found is not None:
                parts.append(message().format(**found.groupdict()))
                break
        else:
            parts.append(part)
    return _(" and ").join(parts)


# Words of the events' own values (views and events hold neutral ids), shown to players.
STATUS = {"in": lambda: _("in"), "out": lambda: _("out"), "retired": lambda: _("retired")}
THROW_WHAT = {
    "run-up": lambda: _("run-up"),
    "jump": lambda: _("jump"),
    "hurdles": lambda: _("hurdles"),
    "attempt": lambda: _("attempt"),
    "throw": lambda: _("throw"),
}
