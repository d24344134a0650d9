"""The Decades as a :class:`~gamenight.core.game.Game`: the engine behind every front end.

>>> from gamenight.core.dice import SeededDice
>>> step = GAME.start(2, GAME.parse_options(), SeededDice(seed=1))
>>> GAME.to_act(step.state), step.state.phase
((0, 1), 'keep')
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, ClassVar

import msgspec

from gamenight.core.dice import DiceSource
from gamenight.core.errors import OptionsError
from gamenight.core.game import BotInfo, Game, GameInfo, Results, Transition
from gamenight.core.options import Options, OptionSpec
from gamenight.games.decades import rules
from gamenight.games.decades.boards import parse_sides
from gamenight.games.decades.deck import Deck, DeckError, default_deck, load_deck
from gamenight.games.decades.rules import Action, DecadesState
from gamenight.games.decades.view import DecadesView, view

__all__ = ["GAME", "DecadesGame", "deck_for"]


def deck_for(option: str) -> Deck:
    """The deck an option names: "" is the shipped deck, anything else a .json/.csv path.

    Raises :class:`DeckError` with the file, row and field of the first problem.
    """
    if not option:
        return default_deck()
    try:
        stat = os.stat(option)
    except OSError:
        return load_deck(option)  # load_deck words the error
    return _load(option, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _load(path: str, mtime: int, size: int) -> Deck:
    return load_deck(path)


class DecadesGame(Game[DecadesState, Action]):
    info: ClassVar[GameInfo] = GameInfo(
        id="decades",
        name="The Decades",
        min_players=2,  # T1: two teams
        bots=(
            BotInfo(
                "novice",
                "remembers years loosely (sd 6 years); places tokens and cards exactly",
                "gamenight.games.decades.bots:novice",
            ),
            BotInfo(
                "casual",
                "remembers years fairly well (sd 3 years)",
                "gamenight.games.decades.bots:casual",
            ),
            BotInfo(
                "expert",
                "remembers years closely (sd 1.5 years); beat novice 999 times in 1,000",
                "gamenight.games.decades.bots:expert",
            ),
        ),
        max_players=2,
        rules_version="1",
        summary=(
            "Two teams secretly bet on the year of six events a round, stretch their "
            "answers with extension tokens and sabotage each other with action cards."
        ),
        options=(
            OptionSpec(
                "deck", "str", "question deck file (.json or .csv); empty: shipped deck", ""
            ),
            OptionSpec("track", "int", "length of the score track (T6)", 100, minimum=1),
            OptionSpec("sides", "str", "board side per team, like A,B (T1)", "A,B"),
        ),
        seat_noun="team",
        hidden_info=True,  # T7: hot-seat play must hide each team's entries
    )
    state_type: ClassVar[type[msgspec.Struct]] = DecadesState
    action_type: ClassVar[Any] = Action

    def check_options(self, options: Options) -> None:
        try:
            options["sides"] = ",".join(parse_sides(options["sides"]))
        except ValueError as exc:
            raise OptionsError(f"option 'sides': {exc}") from None
        try:
            deck_for(options["deck"])
        except DeckError as exc:
            raise OptionsError(f"option 'deck': {exc}") from None

    def _start(self, players: int, options: Options, dice: DiceSource) -> Transition[DecadesState]:
        deck = deck_for(options["deck"])
        state, events = rules.start(
            deck.cards,
            deck=options["deck"],
            deck_name=deck.name,
            track=options["track"],
            sides=parse_sides(options["sides"]),
            dice=dice,
        )
        return Transition(state, tuple(events))

    def to_act(self, state: DecadesState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_actions(self, state: DecadesState, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def _apply(self, state: DecadesState, seat: int, action: Action) -> Transition[DecadesState]:
        new, events = rules.apply(state, seat, action)
        return Transition(new, tuple(events))

    def results(self, state: DecadesState) -> Results:
        if not state.finished:
            raise ValueError("the Decades game is not over yet")
        return Results.from_scores(
            list(state.scores),
            {"early_win": state.early_win, "rounds_played": len(state.log)},
        )

    def view(self, state: DecadesState, seat: int | None) -> DecadesView:
        return view(state, seat)


GAME = DecadesGame()
