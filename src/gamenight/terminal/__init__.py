"""The terminal front end: Rich presentation, one module per game, and a generic one.

A game names its terminal UI in ``GameInfo.terminal`` ("module:attribute" of a class
implementing :class:`gamenight.terminal.ui.TerminalUI`, e.g.
``gamenight.terminal.dice_duel:UI``; a plug-in may ship its own). A game that names
none is played through :mod:`gamenight.terminal.generic`. Everything here is
presentation: it renders views, events and advice, and turns keys into actions;
legality always comes from the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # not at import: `gamenight list` reaches terminal.glyphs, not rich
    from gamenight.core.registry import GameEntry
    from gamenight.terminal.ui import TerminalUI


def ui_for(entry: GameEntry) -> TerminalUI:
    """A new terminal UI for ``entry``'s game (the generic one if it names none)."""
    cls = entry.capability(entry.game.info.terminal)
    if cls is None:
        from gamenight.terminal.generic import UI  # only for a game without its own

        cls = UI
    # contract-tested (tests/games/test_game_contract.py): it has TerminalUI's methods
    return cast("TerminalUI", cls())
