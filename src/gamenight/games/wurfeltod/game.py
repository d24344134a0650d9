"""Wurfeltod as a :class:`~gamenight.core.game.Game`: the engine behind every front end.

>>> from gamenight.core.dice import SeededDice
>>> step = GAME.start(2, GAME.parse_options(), SeededDice(seed=1))
>>> GAME.to_act(step.state), len(step.state.rolled)
((0,), 6)
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from gamenight.core.dice import DiceSource
from gamenight.core.game import BotInfo, Game, GameInfo, Results, Transition
from gamenight.core.i18n import N_
from gamenight.core.options import Options
from gamenight.games.wurfeltod import rules
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.rules import (
    TURNS,
    Action,
    ScoreCard,
    WurfeltodEvent,
    WurfeltodState,
)

__all__ = ["GAME", "WurfeltodGame", "WurfeltodView"]


class WurfeltodView(msgspec.Struct, frozen=True):
    """What a seat may know. Wurfeltod hides nothing but the dice still to come."""

    seat: int | None
    cards: tuple[ScoreCard, ...]
    current: int
    turn: int
    turns: int
    roll: int
    first_roll: bool  # W2: the scratch is open only now
    must_book: bool  # W2: a single die was rolled with five aside
    aside: tuple[int, ...]
    rolled: tuple[int, ...]
    open_boxes: tuple[Category, ...]  # the current player's open categories
    finished: bool


class WurfeltodGame(Game[WurfeltodState, Action, WurfeltodView, WurfeltodEvent]):
    info: ClassVar[GameInfo] = GameInfo(
        id="wurfeltod",
        name="Wurfeltod",
        min_players=1,
        max_players=8,  # W1
        vocabulary="gamenight.games.wurfeltod.vocabulary:VOCABULARY",
        rules_version="1",
        summary=(
            "Roll six dice, set some aside after every roll and book one of 20 boxes a turn; "
            "any die of the last roll left out of the booking costs a Wurfeltod (-250)."
        ),
        bots=(
            BotInfo(
                "greedy",
                N_("best booking for this turn only; about 8,500 points a solitaire game"),
                "gamenight.games.wurfeltod.bots:GreedyBot",
                rating=25.0,
            ),
            BotInfo(
                "optimal",
                N_("exact solitaire solver (value table built once); about 9,070 points"),
                "gamenight.games.wurfeltod.bots:OptimalBot",
                rating=30.0,
            ),
        ),
        advisor="gamenight.games.wurfeltod.advisor:advise",
        solver="gamenight.games.wurfeltod.solver.capability:SOLVER",
        benchmarks="gamenight.games.wurfeltod.benchmarks:benchmarks",
        terminal="gamenight.terminal.wurfeltod:UI",  # a name only: games import no front end
        codec="gamenight.games.wurfeltod.codec:make",
        chance="gamenight.core.chance:dice_chance",
        preparation="gamenight.games.wurfeltod.solver.capability:prepare",  # the value table
        reviewer="gamenight.games.wurfeltod.review:reviewer",
    )
    state_type: ClassVar[type[msgspec.Struct]] = WurfeltodState
    action_type: ClassVar[Any] = Action
    event_type: ClassVar[Any] = WurfeltodEvent

    def _start(
        self, players: int, options: Options, dice: DiceSource
    ) -> Transition[WurfeltodState, WurfeltodEvent]:
        return rules.start(players, options, dice)

    def to_act(self, state: WurfeltodState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_actions(self, state: WurfeltodState, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def _apply(
        self, state: WurfeltodState, seat: int, action: Action
    ) -> Transition[WurfeltodState, WurfeltodEvent]:
        return rules.apply(state, seat, action)

    def results(self, state: WurfeltodState) -> Results:
        if not state.finished:
            raise ValueError("the Wurfeltod game is not over yet")
        # W5: booked points minus 250 per Wurfeltod; equal totals share a rank.
        return Results.from_scores(
            [card.total for card in state.cards],
            {
                "points": [card.points for card in state.cards],
                "wurfeltods": [card.wurfeltods for card in state.cards],
            },
        )

    def view(self, state: WurfeltodState, seat: int | None) -> WurfeltodView:
        card = state.cards[state.current]
        return WurfeltodView(
            seat=seat,
            cards=state.cards,
            current=state.current,
            turn=state.turn,
            turns=TURNS,
            roll=state.roll,
            first_roll=not state.finished and state.roll == 1,
            must_book=not state.finished and len(state.rolled) == 1,
            aside=state.aside,
            rolled=state.rolled,
            open_boxes=() if state.finished else card.open_categories(),
            finished=state.finished,
        )


GAME = WurfeltodGame()
