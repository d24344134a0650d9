"""Kniffel Dice Duel in the terminal: Rich rendering and short keyboard commands.

Commands (dice are numbered 1–5 on screen):

* ``134`` or ``k 1 3 4`` — keep dice 1, 3 and 4 and roll the others;
  ``r`` rolls all five, ``r 2 5`` rolls just dice 2 and 5;
* ``fh`` (a combination key) — take that chip and end the turn; after a Kniffel
  ``a fh`` takes it from the set-aside pile;
* ``s`` — end the turn (with the only chip the dice earn, or with none);
* ``n`` — end the turn taking no chip, even one the dice earn (K4: a chip may be
  declined, e.g. the plate's last chip while behind);
* ``?`` or ``h`` — help and the advisor's value of each option.

Player names and typed text are always printed as text, never read as Rich
markup. The hint's values come from :mod:`gamenight.games.dice_duel.advisor`,
which needs numpy: it is imported on the first ``?``, not with this module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from msgspec.structs import replace
from rich import box
from rich.console import Console, Group, JustifyMethod, RenderableType
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core.advice import Advice
from gamenight.core.game import Results
from gamenight.core.i18n import N_, Rephrasing, _, ngettext, rephrase, term
from gamenight.games.dice_duel.combinations import (
    CHIP_VALUE,
    COMBINATIONS,
    LABEL,
    VALUES,
    Combination,
    colour,
)
from gamenight.games.dice_duel.events import (
    ChipTaken,
    DiceDuelEvent,
    GameOver,
    NoChip,
    Rolled,
    SetAside,
    StartPlayer,
    TurnBegan,
)
from gamenight.games.dice_duel.game import GAME, DiceDuelView
from gamenight.games.dice_duel.rules import Action, Roll, Stop, Take
from gamenight.games.dice_duel.scoring import SOLO_MAXIMUM
from gamenight.terminal.advice import advice_table
from gamenight.terminal.ui import (
    HELP_WORDS,
    Choice,
    HintBlock,
    Prompter,
    Seating,
    ask_until_parsed,
    die_key,
    is_number,
    legal_choices,
    no_color,
)


def combo(combination: Combination) -> str:
    """A combination's name in the player's language (the shared vocabulary's term)."""
    return term(f"dd.combo.{combination}", LABEL[combination])


KEY: dict[Combination, str] = {
    "two-pairs": "2p",
    "three-of-a-kind": "3k",
    "small-straight": "ss",
    "flush": "fl",
    "full-house": "fh",
    "four-of-a-kind": "4k",
    "large-straight": "ls",
}
_BY_NAME: dict[str, Combination] = {
    **{k: c for c, k in KEY.items()},
    **{c: c for c in COMBINATIONS},
    **{LABEL[c].lower().replace(" ", ""): c for c in COMBINATIONS},
}
_SET_ASIDE_WORDS = {"a", "aside", "set-aside", "sa"}
_DECLINE_WORDS = {"n", "no", "none", "nochip", "decline"}
DIE_STYLE = {"red": "bold white on red3", "black": "bold white on grey23"}  # K1
HINT_TITLE = N_("Expected chip value this turn (turn-optimal)")
HINT_ROWS = 6

HELP_ROWS = (
    (N_("134 or k 1 3 4"), N_("keep dice 1, 3, 4 and roll the others")),
    ("r", N_("roll all five; r 2 5 rolls only dice 2 and 5")),
    ("2p 3k ss fl fh 4k ls", N_("take that chip and end the turn")),
    ("a fh", N_("after a Kniffel: take the chip from the set-aside pile")),
    ("s", N_("end the turn (taking the only chip the dice earn, if any)")),
    ("n", N_("end the turn taking no chip, even one the dice earn")),
    ("? / h", N_("this help, with the turn-optimal value of each option")),
)
NARROW = 60  # below this width the hint's value column gets a short name


def help_table() -> RichTable:
    """The commands, keys on the left; descriptions wrap in their own column."""
    grid = RichTable(
        title=Text.assemble((_("Commands"), "bold"), " ", _("(dice are numbered 1–5)")),
        title_justify="left",
        box=None,
        show_header=False,
        pad_edge=False,
    )
    grid.add_column(style="cyan", max_width=14)  # "134 or k 1 3 4"; the chip keys wrap
    grid.add_column()
    for keys, text in HELP_ROWS:
        grid.add_row(_(keys), _(text))
    return grid


# ----- input ---------------------------------------------------------------------


def parse_command(text: str, view: DiceDuelView, legal: Sequence[Action]) -> Action | str:
    """Turn one line of input into one of ``legal``, or an error message to show."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        return _("type a command (? for help)")
    joined = "".join(words)
    if joined in _BY_NAME:
        return _take(view, legal, _BY_NAME[joined], None)
    if words[0] in _SET_ASIDE_WORDS and "".join(words[1:]) in _BY_NAME:
        return _take(view, legal, _BY_NAME["".join(words[1:])], "set-aside")
    if words[-1] in _SET_ASIDE_WORDS and "".join(words[:-1]) in _BY_NAME:
        return _take(view, legal, _BY_NAME["".join(words[:-1])], "set-aside")
    if joined in {"s", "stop"}:
        return _stop(legal)
    if joined in _DECLINE_WORDS:
        return _decline(view, legal)
    for verb in ("keep", "roll", "k", "r"):
        if joined.startswith(verb):
            dice = _dice(joined[len(verb) :])
            if isinstance(dice, str):
                return dice
            if verb[0] == "k":
                return _roll(view, legal, dice)
            # ``r`` names the dice to roll; no dice named rolls all five.
            return _roll(view, legal, tuple(i for i in range(5) if dice and i not in dice))
    if is_number(joined):
        dice = _dice(joined)
        return dice if isinstance(dice, str) else _roll(view, legal, dice)
    return _("unknown command {typed} (? for help)").format(typed=repr(text.strip()))


def _dice(digits: str) -> tuple[int, ...] | str:
    """Dice numbers 1–5 typed on screen -> positions 0–4."""
    wrong = [d for d in digits if d not in "12345"]
    if wrong:
        return _("dice are numbered 1 to 5: there is no die {die} in {typed}").format(
            die=repr(wrong[0]), typed=repr(digits)
        )
    if len(set(digits)) != len(digits):
        return _("name each die once, got {typed}").format(typed=repr(digits))
    return tuple(sorted(int(d) - 1 for d in digits))


def _roll(view: DiceDuelView, legal: Sequence[Action], keep: tuple[int, ...]) -> Action | str:
    action = Roll(keep=keep)
    if action in legal:
        return action
    if not any(isinstance(a, Roll) for a in legal):
        return _("no rolls left this turn: take a chip ({keys})").format(keys=_take_keys(legal))
    return _("keeping all five dice rolls nothing: take a chip or stop (s)")


def _stop(legal: Sequence[Action]) -> Action | str:
    """``s``: the only chip the dice earn, or none when they earn none (declining a chip
    is ``n``, never a slip of ``s``)."""
    takes = [a for a in legal if isinstance(a, Take)]
    if len(takes) == 1:
        return takes[0]
    if not takes and Stop() in legal:
        return Stop()
    if not takes:
        return _("no chip the dice earn is left: roll on")
    if Stop() in legal:
        return _("the dice earn several chips: take one ({keys}) or none (n)").format(
            keys=_take_keys(legal)
        )
    return _("the dice earn several chips: take one ({keys})").format(keys=_take_keys(legal))


def _decline(view: DiceDuelView, legal: Sequence[Action]) -> Action | str:
    """``n``: end the turn without a chip."""
    if Stop() in legal:
        return Stop()
    if view.picks:
        return _("a solo Kniffel takes two chips: take the second one ({keys})").format(
            keys=_take_keys(legal)
        )
    return _("the dice earn a chip, so take one: {keys}").format(keys=_take_keys(legal))


def _take(
    view: DiceDuelView, legal: Sequence[Action], combination: Combination, source: str | None
) -> Action | str:
    sources = [source] if source else ["plate", "set-aside"]
    for where in sources:
        for action in legal:
            if (
                isinstance(action, Take)
                and action.combination == combination
                and action.source == where
            ):
                return action
    label = combo(combination)
    if source == "set-aside" and not view.kniffel:
        return _("set-aside chips can only be taken with a Kniffel")
    if not view.kniffel and combination not in view.satisfied:
        made = ", ".join(KEY[c] for c in view.satisfied) or _("nothing")
        return _("the dice do not make a {combination} (they make: {made})").format(
            combination=label, made=made
        )
    if source == "set-aside":
        return _("no {combination} chip is left on the set-aside pile").format(combination=label)
    return _("no {combination} chip is left on the plate").format(combination=label)


def _take_keys(legal: Sequence[Action]) -> str:
    keys = [
        ("a " if a.source == "set-aside" else "") + KEY[a.combination]
        for a in legal
        if isinstance(a, Take)
    ]
    return ", ".join(keys) or _("none")


# ----- describing options ------------------------------------------------------------


def describe(action: Action, view: DiceDuelView) -> str:
    """A short phrase for an action, with the keys that type it."""
    if isinstance(action, Roll):
        if not action.keep:
            return _("roll all five")
        kept = " ".join(str(view.faces[i]) for i in action.keep)
        dice = "".join(str(i + 1) for i in action.keep)
        return _("keep {faces} ({dice}) and roll").format(faces=kept, dice=dice)
    if isinstance(action, Take):
        name, key = combo(action.combination), KEY[action.combination]
        if action.source == "set-aside":
            return _("take {combination} ({key}) from the set-aside pile").format(
                combination=name, key=key
            )
        return _("take {combination} ({key})").format(combination=name, key=key)
    if view.kniffel or view.satisfied:
        return _("take no chip (n)")
    return _("stop without a chip (s)")


def hint_advice(view: DiceDuelView, legal: Sequence[Action]) -> Advice | None:
    """The advisor's values for every option, labelled with the keys that type them."""
    from gamenight.games.dice_duel.advisor import advise  # numpy tables: load on demand

    advice = advise(view, view.seat, legal)
    if advice is None:
        return None
    options = tuple(
        replace(o, label=describe(GAME.decode_action(o.action), view)) for o in advice.options
    )
    return replace(advice, options=options)


def hint_renderable(advice: Advice, width: int = 120, rows: int = HINT_ROWS) -> RenderableType:
    """The best ``rows`` options as a table, with the objective's note below it.

    On a narrow terminal the value column is just called "value" (the title says
    which value), which leaves the options room.
    """
    if width < NARROW:
        objectives = tuple(replace(o, name=_("value")) for o in advice.objectives)
        advice = replace(advice, objectives=objectives)
    parts: list[RenderableType] = [advice_table(advice, title=_(HINT_TITLE), limit=rows)]
    parts += [Text(_(o.note), style="dim") for o in advice.objectives if o.note]
    return HintBlock(*parts)


# ----- rendering ------------------------------------------------------------------


def dice_text(view: DiceDuelView) -> Text:
    """The five dice in their colours (K1), numbered, with the kept ones marked."""
    text = Text()
    marked = no_color()  # the colour told red from black: a mark tells it then (K1)
    for i, face in enumerate(view.faces, 1):
        red = colour(face) == "red"
        shown = (f"*{face}*" if red else f" {face} ") if marked else f" {face} "
        style = ("bold reverse" if red else "bold") if marked else DIE_STYLE[colour(face)]
        text.append(shown, style=Style.parse(style) + die_key(i))
        text.append("  ")
    text.append("\n")
    for i, kept in enumerate(view.kept or (False,) * len(view.faces)):
        text.append(f" {i + 1}", style="dim")
        text.append("▲ " if kept else "  ", style="bold yellow")
        text.append(" ")
    return text


def _plate_cell(count: int) -> str:
    return "●" * count + "·" * (4 - count) if count else "—"


def _makes(view: DiceDuelView, combination: Combination) -> Text | str:
    makes = view.kniffel or combination in view.satisfied
    return Text("✓", style="bold green") if makes and view.faces else ""


def wide_fits(names: Sequence[str], width: int) -> bool:
    """Whether one sheet with a column per player, names in full, fits in ``width``."""
    return 52 + sum(max(len(n), 4) + 3 for n in names) <= width


def chips_table(view: DiceDuelView, table: Seating, width: int = 120) -> RenderableType:
    """The plate, the set-aside pile and every player's chips, per combination.

    When a column per player (names in full) would not fit in ``width``, the sheet
    is split in two (:func:`compact_tables`), so narrow terminals lose nothing.
    """
    names = [_name(table, p) for p in range(view.players)]
    if not wide_fits(names, width):
        return compact_tables(view, names)
    grid = RichTable(show_edge=False, pad_edge=False, header_style="bold", box=box.SIMPLE_HEAD)
    for title in ("key", "combination", "pts", "dice", "plate", "aside"):
        justify: JustifyMethod = "right" if title in ("pts", "plate", "aside") else "left"
        grid.add_column(COLUMNS[title](), justify=justify, no_wrap=True)
    for p, name in enumerate(names):
        style = "bold cyan" if p == view.current and view.phase != "over" else ""
        grid.add_column(
            Text(name, style=style),
            justify="right",
            no_wrap=True,
        )
    for i, combination in enumerate(COMBINATIONS):
        grid.add_row(
            KEY[combination],
            combo(combination),
            str(VALUES[i]),
            _makes(view, combination),
            _plate_cell(view.plate[i]),
            str(view.set_aside[i]) if view.set_aside[i] else "",
            *(str(chips[i]) if chips[i] else "" for chips in view.chips),
        )
    grid.add_section()
    grid.add_row("", _("total + bonuses"), "", "", "", "", *(str(s.total) for s in view.scores))
    return grid


def compact_tables(view: DiceDuelView, names: Sequence[str]) -> RenderableType:
    """The sheet for narrow terminals: the combinations with the plate, then one row
    per player (chips by key, total). Fits 40 columns for up to six players."""
    plate = RichTable(box=None, pad_edge=False, collapse_padding=True, header_style="bold")
    for title in ("chip", "pts", "dice", "plate", "aside"):
        justify: JustifyMethod = "left" if title in ("chip", "dice") else "right"
        # folded, never cut: a long name in another language wraps in its cell
        plate.add_column(COLUMNS[title](), justify=justify, overflow="fold")
    for i, combination in enumerate(COMBINATIONS):
        plate.add_row(
            f"{KEY[combination]} {combo(combination)}",
            str(VALUES[i]),
            _makes(view, combination),
            _plate_cell(view.plate[i]),
            str(view.set_aside[i]) if view.set_aside[i] else "",
        )
    players = RichTable(box=None, pad_edge=False, collapse_padding=True, header_style="bold")
    players.add_column(_("player"), overflow="fold")
    for combination in COMBINATIONS:
        players.add_column(KEY[combination], justify="right", no_wrap=True)
    players.add_column(_("total"), justify="right", overflow="fold")
    for p, name in enumerate(names):
        current = p == view.current and view.phase != "over"
        players.add_row(
            Text(("▸ " if current else "  ") + name, style="bold cyan" if current else ""),
            *(str(n) if n else "·" for n in view.chips[p]),
            str(view.scores[p].total),
        )
    return Group(plate, Text(""), players)


def _name(table: Seating, seat: int | None) -> str:
    if seat is None:
        return _("nobody")
    if seat < len(table.names):
        return table.names[seat]
    return _("player {n}").format(n=seat + 1)


# Why the game ended: the rules' English (in the state and the event, which stay
# neutral), said again in the player's language.
ENDS: list[Rephrasing] = [
    (re.compile(r"the plate is empty"), lambda: _("the plate is empty")),
    (
        re.compile(r"the last chip on the plate was set aside"),
        lambda: _("the last chip on the plate was set aside"),
    ),
]


def end_text(reason: str | None) -> str:
    """Why the game ended, in the player's language."""
    return rephrase(reason or "", ENDS)


# The sheet's column headings, in the player's language (read when drawn).
COLUMNS = {
    "key": lambda: _("key"),
    "combination": lambda: _("combination"),
    "pts": lambda: _("pts"),
    "dice": lambda: _("dice"),
    "plate": lambda: _("plate"),
    "aside": lambda: _("aside"),
    "chip": lambda: _("chip"),
}


class UI:
    """The Dice Duel presentation for the terminal front end."""

    parse_command = staticmethod(parse_command)  # the keys, read (TerminalUI)

    def show(self, console: Console, view: DiceDuelView, seat: int | None, table: Seating) -> None:
        if view.phase == "over":
            console.print(Text.assemble((_("Game over"), "bold"), f" — {end_text(view.end)}"))
        else:
            label = _("Turn {n}") if view.mode == "solo" else _("Round {n}")
            rolls = _("roll {n} of 3").format(n=view.rolls_used)
            n = view.rolls_left
            left = ngettext("{n} roll left", "{n} rolls left", n).format(n=n)
            # The pick phase follows a Kniffel or a third roll that earns a chip.
            extra = ""
            if view.phase == "pick":
                if Stop() in view.legal():
                    chip = (
                        _("choose your Kniffel chip or none (n)")
                        if view.kniffel
                        else _("choose your chip or none (n)")
                    )
                else:
                    chip = _("choose your Kniffel chip") if view.kniffel else _("choose your chip")
                extra = " · " + chip
            who = _name(table, view.current)
            best = ""
            if view.mode == "solo":
                best = " · " + _("best possible {n}").format(n=SOLO_MAXIMUM)
            turn = _("{name}'s turn").format(name=who)
            line = f" · {turn} · {rolls} · {left}{extra}{best}"
            console.print(Text.assemble((label.format(n=view.round), "bold"), line))
        if view.faces:
            console.print(dice_text(view))
            if view.kniffel:
                picks = (2 if view.mode == "solo" else 1) - view.picks
                console.print(
                    Text.assemble(
                        ("KNIFFEL!", "bold magenta"),
                        " ",
                        ngettext(
                            "take any {n} chip, from the plate or the set-aside pile, "
                            "and play again",
                            "take any {n} chips, from the plate or the set-aside pile, "
                            "and play again",
                            picks,
                        ).format(n=picks),
                    )
                )
            else:
                made = ", ".join(f"{combo(c)} ({KEY[c]})" for c in view.satisfied) or _("nothing")
                console.print(Text(_("The dice make: {made}").format(made=made)))
        console.print(chips_table(view, table, console.width))

    def show_events(
        self, console: Console, events: Sequence[DiceDuelEvent], table: Seating
    ) -> None:
        for event in events:
            line = narrate(event, table)
            if line is not None:
                console.print(line)

    def ask(
        self,
        prompter: Prompter,
        view: DiceDuelView,
        legal: Sequence[Any],
        seat: int,
        table: Seating,
    ) -> Action:
        def parse(text: str) -> Action | str:
            return parse_command(text, view, legal)

        def on_help(word: str) -> bool:
            if word not in HELP_WORDS:
                return False
            console = prompter.console
            console.print(help_table())
            advice = self.hint(view, legal)
            if advice is not None:
                console.print(hint_renderable(advice, console.width))
            return True

        # the keys in the prompt (a bare "Ann>" left them to the help); plain text
        question = _("{name}: 134 keep, r roll, chip key, s stop (? help) > ").format(
            name=_name(table, seat)
        )
        offered: list[Choice] = [
            ("r", _("roll all five")),
            *((key, combo(c)) for c, key in KEY.items()),
            *((f"a {key}", _("{chip} from the set-aside pile").format(chip=combo(c)))
              for c, key in KEY.items()),
            ("s", _("end the turn")),
            ("n", _("end the turn taking no chip")),
        ]  # fmt: skip
        choices = legal_choices(parse, legal, offered)
        # mypy joins the union of action types to Struct when solving the TypeVar
        return cast(Action, ask_until_parsed(prompter, question, parse, on_help, choices=choices))

    def hint(self, view: DiceDuelView, legal: Sequence[Any]) -> Advice | None:
        """Every option's expected chip value this turn (``None``: nothing to choose)."""
        return hint_advice(view, legal)

    def show_results(
        self, console: Console, results: Results, view: DiceDuelView, table: Seating
    ) -> None:
        order = sorted(range(view.players), key=lambda p: (results.ranks[p], p))
        grid = results_table(results, view, table, order)
        unbounded = console.options.update_width(10_000)
        if Measurement.get(console, unbounded, grid).minimum > console.width:
            console.print(results_lines(results, view, table, order, console.width))
        else:
            console.print(grid)
        names = _(" and ").join(_name(table, w) for w in results.winners)
        won = _("{names} share the win!") if len(results.winners) > 1 else _("{names} wins!")
        if view.players > 1:
            console.print(Text(won.format(names=names), style="bold green"))
        else:  # solo: the score against the best possible (rules.md)
            n = view.scores[0].total
            console.print(
                Text(
                    ngettext(
                        "{n} point of the {best} possible.", "{n} points of the {best} possible.", n
                    ).format(n=n, best=SOLO_MAXIMUM)
                )
            )


RESULT_COLUMNS = (N_("gold"), N_("silver"), N_("full stacks"), N_("last chip"))


def _bonuses(view: DiceDuelView, p: int) -> tuple[int, ...]:
    s = view.scores[p]
    return (s.gold, s.silver, s.full_stacks, s.last_chip)


def results_table(
    results: Results, view: DiceDuelView, table: Seating, order: Sequence[int]
) -> RichTable:
    """The final scores, a row per player, best first."""
    grid = RichTable(title=_("Final scores"), header_style="bold")
    for title in ("#", N_("player"), N_("chips"), *RESULT_COLUMNS):
        grid.add_column(
            _(title) if title != "#" else title,
            justify="left" if title == "player" else "right",
            no_wrap=title == "player",
        )
    grid.add_column(_("total"), justify="right", style="bold")
    for p in order:
        s = view.scores[p]
        grid.add_row(
            str(results.ranks[p]),
            Text(_name(table, p)),
            f"{s.chip_points} ({sum(s.chips)})",
            *(str(v) if v else "–" for v in _bonuses(view, p)),
            str(s.total),
        )
    return grid


def results_lines(
    results: Results, view: DiceDuelView, table: Seating, order: Sequence[int], width: int = 40
) -> Text:
    """The final scores for a narrow terminal: the same figures, a few lines per player
    (each figure stays whole on its line)."""
    text = Text.assemble((_("Final scores"), "bold"))
    for p in order:
        s = view.scores[p]
        text.append(f"\n{results.ranks[p]}. ")
        text.append(_name(table, p), style="bold")
        text.append(" · " + _("total {n}").format(n=s.total), style="bold")
        parts = [_("chips {points} ({count})").format(points=s.chip_points, count=sum(s.chips))]
        parts += [
            f"{_(t)} {v if v else '–'}"
            for t, v in zip(RESULT_COLUMNS, _bonuses(view, p), strict=True)
        ]
        lines = [parts[0]]
        for part in parts[1:]:
            if len(lines[-1]) + 3 + len(part) <= width - 3:
                lines[-1] += " · " + part
            else:
                lines.append(part)
        text.append("".join("\n   " + line for line in lines))
    return text


def narrate(event: DiceDuelEvent, table: Seating) -> Text | None:
    """One line per event (always plain text plus styles), or None for events the
    board already shows."""
    if isinstance(event, StartPlayer):
        who = _name(table, event.player)
        return Text(
            _("{name} draws the start (die {n} of {of}).").format(
                name=who, n=event.draw, of=event.players
            )
        )
    if isinstance(event, TurnBegan):
        if not event.extra:
            return None
        return Text.assemble((_name(table, event.player), "bold"), " ", _("plays an extra turn."))
    if isinstance(event, Rolled):
        return Text(roll_line(event, _name(table, event.player)))
    if isinstance(event, ChipTaken):
        kniffel = "Kniffel! " if event.kniffel else ""
        label, value = combo(event.combination), CHIP_VALUE[event.combination]
        taken = (
            _("{name} takes a {combination} chip ({value}) from the set-aside pile.")
            if event.source == "set-aside"
            else _("{name} takes a {combination} chip ({value}).")
        )
        return Text(
            kniffel + taken.format(name=_name(table, event.player), combination=label, value=value)
        )
    if isinstance(event, NoChip):
        if event.reason == "declined":
            return Text(
                _("{name} takes no chip and ends the turn.").format(name=_name(table, event.player))
            )
        return Text(
            _("{name} ends the turn without a chip.").format(name=_name(table, event.player))
        )
    if isinstance(event, SetAside):
        aside = (
            _("After no chip this round, a {combination} chip ({value}) is set aside.")
            if event.chipless == "round"
            else _("After a turn without a chip, a {combination} chip ({value}) is set aside.")
        )
        return Text(aside.format(combination=combo(event.combination), value=event.value))
    if isinstance(event, GameOver):
        last = event.last_chip
        bonus = ""
        if last is not None:
            bonus = " " + _("{name} took the last chip (+20).").format(name=_name(table, last))
        return Text.assemble((_("Game over:"), "bold"), f" {end_text(event.reason)}.{bonus}")
    return None


def roll_line(event: Rolled, who: str) -> str:
    """A roll, saying which dice were kept (by their number on screen) and their faces.

    >>> e = Rolled(player=0, roll=2, kept=(1, 2, 4), rolled=(1, 1), dice=(1, 6, 6, 1, 6), makes=())
    >>> roll_line(e, "Ann")
    'Ann rolls (2/3), keeping dice 2 3 5 (6 6 6): 1 6 6 1 6'
    >>> roll_line(Rolled(player=0, roll=3, kept=(), rolled=(2,) * 5, dice=(2,) * 5,
    ...     makes=("kniffel",)), "Ann")
    'Ann rolls all five (3/3): 2 2 2 2 2'
    """
    faces = " ".join(str(f) for f in event.dice)
    if event.kept:
        dice = " ".join(str(i + 1) for i in event.kept)
        kept = " ".join(str(event.dice[i]) for i in event.kept)
        return _("{name} rolls ({n}/3), keeping dice {dice} ({kept}): {faces}").format(
            name=who, n=event.roll, dice=dice, kept=kept, faces=faces
        )
    if event.roll == 1:
        return _("{name} rolls (1/3): {faces}").format(name=who, faces=faces)
    return _("{name} rolls all five ({n}/3): {faces}").format(name=who, n=event.roll, faces=faces)
