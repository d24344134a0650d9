"""The game-agnostic kernel: game API, dice, events, agents, runner, records, registry."""

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
from gamenight.core.game import Game, GameInfo, Results, Transition, to_json
from gamenight.core.options import Options, OptionSpec

__all__ = [
    "Agent",
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
    "UnknownGameError",
    "to_json",
    "visible_to",
]
