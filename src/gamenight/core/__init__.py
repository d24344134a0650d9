"""The game-agnostic kernel: game API, dice, events, agents, runner, records, registry.

The names below are imported on first use (PEP 562), not with the package: every
``gamenight.core.X`` import runs this file first, and ``gamenight --help`` needs only
the errors and the options (issue 29).
"""

from __future__ import annotations

from gamenight.core.lazy import on_first_use

TYPE_CHECKING = False  # not typing's: its import is most of `gamenight --help` (issue 46)

if TYPE_CHECKING:
    from gamenight.core.agents import Agent, Decision, RandomAgent
    from gamenight.core.dice import DiceSource, ScriptedDice, SeededDice
    from gamenight.core.errors import (
        DiceExhaustedError,
        GamenightError,
        IllegalActionError,
        OptionsError,
        RecordError,
        UnknownGameError,
    )
    from gamenight.core.events import Event, visible_to
    from gamenight.core.game import BotInfo, Game, GameInfo, Results, Transition, to_json
    from gamenight.core.options import Options, OptionSpec
    from gamenight.core.umpire import Umpire

_HOME = {
    "Agent": "agents",
    "Decision": "agents",
    "RandomAgent": "agents",
    "DiceSource": "dice",
    "ScriptedDice": "dice",
    "SeededDice": "dice",
    "DiceExhaustedError": "errors",
    "GamenightError": "errors",
    "IllegalActionError": "errors",
    "OptionsError": "errors",
    "RecordError": "errors",
    "UnknownGameError": "errors",
    "Event": "events",
    "visible_to": "events",
    "BotInfo": "game",
    "Game": "game",
    "GameInfo": "game",
    "Results": "game",
    "Transition": "game",
    "to_json": "game",
    "Options": "options",
    "OptionSpec": "options",
    "Umpire": "umpire",
}


__getattr__ = on_first_use(__name__, _HOME)


__all__ = [
    "Agent",
    "BotInfo",
    "Decision",
    "DiceExhaustedError",
    "DiceSource",
    "Event",
    "Game",
    "GameInfo",
    "GamenightError",
    "IllegalActionError",
    "OptionSpec",
    "Options",
    "OptionsError",
    "RandomAgent",
    "RecordError",
    "Results",
    "ScriptedDice",
    "SeededDice",
    "Transition",
    "Umpire",
    "UnknownGameError",
    "to_json",
    "visible_to",
]
