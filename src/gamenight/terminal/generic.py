"""The terminal table of a game without its own UI (``GameInfo.terminal`` unset).

It shows the view's fields one per line, narrates each event by its tag and fields,
and numbers the legal actions: type the number, or the action as it is shown (e.g.
``hold``). Everything shown is plain text: a plug-in's strings are never read as
markup. Any game the registry lists is playable this way, with nothing of its own
under ``gamenight.terminal``.

>>> action_label({"type": "take", "box": "sixes", "points": 18})
'take box=sixes points=18'
>>> action_label({"kind": "roll", "player": 0, "face": 6})
'roll player=0 face=6'
>>> action_label([1, 2])
'[1, 2]'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core.events import Event
from gamenight.core.game import Results
from gamenight.core.i18n import _
from gamenight.terminal.ui import (
    HELP_WORDS,
    Prompter,
    Seating,
    ask_until_parsed,
    is_number,
    plain,
)

TAG_FIELDS = ("type", "kind")


def _value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(_value(v) for v in value) or "-"
    if isinstance(value, dict):
        return "{" + " ".join(f"{k}={_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def action_label(raw: Any) -> str:
    """An action (or event) as JSON builtins, in one short line: its tag, then fields."""
    if not isinstance(raw, dict):
        return str(raw)
    key = next((k for k in TAG_FIELDS if k in raw), None)  # actions' tag, events' tag
    tag = None if key is None else raw[key]
    fields = [f"{k}={_value(v)}" for k, v in raw.items() if k != key]
    return " ".join([str(tag), *fields] if tag is not None else fields)


class UI:
    """A :class:`gamenight.terminal.ui.TerminalUI` for any game, from its structs alone."""

    def show(self, console: Console, view: Any, seat: int | None, table: Seating) -> None:
        grid = RichTable(box=None, show_header=False, pad_edge=False)
        grid.add_column(style="dim")
        grid.add_column()
        for key, value in msgspec.to_builtins(view).items():
            grid.add_row(plain(key), plain(_value(value)))
        console.print(grid)

    def show_events(self, console: Console, events: Sequence[Event], table: Seating) -> None:
        for event in events:
            console.print(plain(f"· {action_label(msgspec.to_builtins(event))}", "dim"))

    def ask(
        self, prompter: Prompter, view: Any, legal: Sequence[Any], seat: int, table: Seating
    ) -> Any:
        labels = [action_label(msgspec.to_builtins(a)) for a in legal]
        menu = "  ".join(f"{i}: {label}" for i, label in enumerate(labels, 1))

        def parse(text: str) -> Any:
            return self.parse_command(text, view, legal)

        def on_help(word: str) -> bool:
            if word in HELP_WORDS:
                prompter.say(plain(_("your choices: {menu}").format(menu=menu)))
                return True
            return False

        prompter.listing(plain(menu))
        question = _("{name}: number of a choice (? help) > ").format(name=table.names[seat])
        choices = [(str(i), plain(label)) for i, label in enumerate(labels, 1)]
        return ask_until_parsed(prompter, question, parse, on_help, choices=choices, quick=True)

    def parse_command(self, text: str, view: Any, legal: Sequence[Any]) -> Any:
        """A number from the menu, or an action as the menu shows it."""
        word = text.strip().lower()
        if is_number(word) and 1 <= int(word) <= len(legal):
            return legal[int(word) - 1]
        for action in legal:
            if word == action_label(msgspec.to_builtins(action)).lower():
                return action
        return _("type a number from 1 to {n} (or the action as shown), ? for help").format(
            n=len(legal)
        )

    def show_results(self, console: Console, results: Results, view: Any, table: Seating) -> None:
        grid = RichTable(
            _("rank"), _("player"), _("score"), box=None, title=_("Results"), title_justify="left"
        )
        order = sorted(range(len(results.scores)), key=lambda s: (results.ranks[s], s))
        for s in order:
            score = results.scores[s]
            shown = str(int(score)) if float(score).is_integer() else f"{score:g}"
            grid.add_row(str(results.ranks[s]), Text(table.names[s]), shown)
        console.print(grid)
        winners = [table.names[w] for w in results.winners]
        if len(results.scores) > 1:
            if len(winners) > 1:
                said = _("{names} and {last} share the win!").format(
                    names=", ".join(winners[:-1]), last=winners[-1]
                )
            else:
                said = _("{name} wins!").format(name=", ".join(winners))
            console.print(plain(said, "bold green"))
