"""The terminal front end: Rich presentation, one module per game.

``gamenight.terminal.<package>`` (e.g. ``gamenight.terminal.dice_duel``) holds a
game's ``UI`` class implementing :class:`gamenight.terminal.ui.TerminalUI`.
Everything here is presentation: it renders views, events and advice, and turns
keys into actions; legality always comes from the engine.
"""

from __future__ import annotations

import importlib
from typing import Any

from gamenight.core.registry import GameEntry


def ui_for(entry: GameEntry) -> Any:
    """A new terminal UI for ``entry``'s game."""
    module = importlib.import_module(f"gamenight.terminal.{entry.module_name}")
    return module.UI()
