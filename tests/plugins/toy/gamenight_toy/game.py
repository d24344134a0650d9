"""Toy Pig: a tiny dice game, gamenight's example plug-in (and the kernel tests' game).

Each seat in turn rolls one die and may roll again or stop; the first to reach
10 points wins. A roll of 1 loses the turn's points ("pig" on one die).

It declares no terminal UI, codec or bots of its own: gamenight's generic front ends
play it (the terminal's generic table, the environments' generic codec), which is what
the plug-in tests check. In the browser it has its own board, shipped in its package
(``web/board.js`` and ``web/messages/<lang>.js``, found through its entry point). It does list its
actions (``actions``), so its RL action indices are fixed.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from gamenight.core import (
    DiceSource,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    Options,
    OptionSpec,
    Results,
    Transition,
)


class Started(Event, frozen=True, tag="start"):
    players: int


class Held(Event, frozen=True, tag="hold"):
    player: int
    points: int


class Rolled(Event, frozen=True, tag="roll"):
    player: int
    face: int


class Bust(Event, frozen=True, tag="bust"):
    player: int


ToyEvent = Started | Held | Rolled | Bust


class Roll(msgspec.Struct, frozen=True, tag="roll"):
    pass


class Hold(msgspec.Struct, frozen=True, tag="hold"):
    pass


ToyAction = Roll | Hold


def all_actions(options: Any) -> list[ToyAction]:
    """Every action, in a fixed order (the ``actions`` capability: RL indices)."""
    return [Roll(), Hold()]


class ToyState(msgspec.Struct, frozen=True):
    dice: DiceSource
    scores: tuple[int, ...]
    turn: int = 0
    pot: int = 0
    target: int = 10


class ToyView(msgspec.Struct, frozen=True):
    scores: tuple[int, ...]
    turn: int
    pot: int


class ToyGame(Game[ToyState, ToyAction]):
    info: ClassVar[GameInfo] = GameInfo(
        id="toy",
        name="Toy Pig",
        min_players=1,
        max_players=3,
        rules_version="1",
        summary="test game",
        options=(OptionSpec("target", "int", "points to win", default=10, minimum=2, maximum=50),),
        actions="gamenight_toy.game:all_actions",
    )
    state_type = ToyState
    action_type = ToyAction
    event_type = ToyEvent

    def _start(self, players: int, options: Options, dice: DiceSource) -> Transition[ToyState]:
        state = ToyState(dice=dice, scores=(0,) * players, target=options["target"])
        return Transition(state, (Started(players=players),))

    def to_act(self, state: ToyState) -> tuple[int, ...]:
        if max(state.scores) >= state.target:
            return ()
        return (state.turn,)

    def legal_actions(self, state: ToyState, seat: int) -> list[ToyAction]:
        if seat not in self.to_act(state):
            return []
        return [Roll(), Hold()] if state.pot else [Roll()]

    def _apply(self, state: ToyState, seat: int, action: ToyAction) -> Transition[ToyState]:
        n = len(state.scores)
        if isinstance(action, Hold):
            if not state.pot:
                raise IllegalActionError("roll at least once before holding")
            scores = list(state.scores)
            scores[seat] += state.pot
            new = msgspec.structs.replace(state, scores=tuple(scores), pot=0, turn=(seat + 1) % n)
            return Transition(new, (Held(player=seat, points=state.pot),))
        (face,), dice = state.dice.roll(1)
        roll = Rolled(player=seat, face=face)
        if face == 1:
            new = msgspec.structs.replace(state, dice=dice, pot=0, turn=(seat + 1) % n)
            return Transition(new, (roll, Bust(player=seat)))
        return Transition(msgspec.structs.replace(state, dice=dice, pot=state.pot + face), (roll,))

    def results(self, state: ToyState) -> Results:
        if self.to_act(state):
            raise ValueError("the game is not over")
        return Results.from_scores(state.scores)

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        return ToyView(state.scores, state.turn, state.pot)


GAME = ToyGame()
