"""Kniffel Dice Duel behind the common game API (``GAME``)."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from gamenight.core.dice import DiceSource
from gamenight.core.errors import OptionsError
from gamenight.core.game import BotInfo, Game, GameInfo, Results, Transition, to_json
from gamenight.core.i18n import N_
from gamenight.core.options import Options, OptionSpec
from gamenight.games.dice_duel import rules
from gamenight.games.dice_duel.combinations import (
    Colour,
    Combination,
    colour,
    is_kniffel,
    satisfied,
)
from gamenight.games.dice_duel.events import DiceDuelEvent
from gamenight.games.dice_duel.rules import (
    ROLLS_PER_TURN,
    Action,
    DiceDuelState,
    Mode,
    Phase,
    legal_for,
    scores,
)
from gamenight.games.dice_duel.scoring import Score

MULTI_PLAYERS = (2, 6)  # K7


class DiceDuelView(msgspec.Struct, frozen=True):
    """What any seat may know: everything on the table is public; the dice source is not.

    Per-combination tuples follow ``combinations.COMBINATIONS``.
    """

    seat: int | None
    mode: Mode
    players: int
    starter: int
    current: int
    round: int
    phase: Phase
    faces: tuple[int, ...]
    colours: tuple[Colour, ...]
    kept: tuple[bool, ...]
    rolls_used: int
    rolls_left: int
    picks: int
    satisfied: tuple[Combination, ...]
    kniffel: bool
    plate: tuple[int, ...]
    set_aside: tuple[int, ...]
    chips: tuple[tuple[int, ...], ...]
    scores: tuple[Score, ...]  # running totals, bonuses included
    round_chip: bool
    last_chip: int | None
    end: str
    may_decline: bool = True  # K4 revised (False: a rules-version-1 game, replayed)

    def legal(self) -> list[Action]:
        """The legal actions of the player to act (the same list the engine gives)."""
        return legal_for(
            self.phase, self.faces, self.plate, self.set_aside, self.picks, self.may_decline
        )


class DiceDuelGame(Game[DiceDuelState, Action, DiceDuelView, DiceDuelEvent]):
    info: ClassVar[GameInfo] = GameInfo(
        id="dice-duel",
        name="Kniffel Dice Duel",
        min_players=1,
        max_players=MULTI_PLAYERS[1],
        vocabulary="gamenight.games.dice_duel.vocabulary:VOCABULARY",
        rules_version="2",  # 2: K4 revised, a chip may be declined; 1 replays (DiceDuelGameV1)
        summary=(
            "Roll five dice up to three times and take scoring chips for the combinations "
            "you make; a Kniffel takes any chip and plays again. 2–6 players, or solo."
        ),
        options=(
            OptionSpec(
                "mode",
                "choice",
                N_("multi: 2–6 players; solo: one player chasing 1000 points"),  # K7
                default="multi",
                choices=("multi", "solo"),
                seats={"multi": MULTI_PLAYERS, "solo": (1, 1)},
            ),
        ),
        bots=(
            BotInfo(
                "turn-optimal",
                N_("exact best play for the current turn; beat random in 2,000 of 2,000 games"),
                "gamenight.games.dice_duel.bots:TurnOptimalBot",
                rating=30.0,
            ),
        ),
        advisor="gamenight.games.dice_duel.advisor:advise",
        terminal="gamenight.terminal.dice_duel:UI",  # a name only: games import no front end
        codec="gamenight.games.dice_duel.codec:make",
        benchmarks="gamenight.games.dice_duel.benchmarks:benchmarks",
        chance="gamenight.core.chance:dice_chance",
        reviewer="gamenight.games.dice_duel.review:reviewer",
    )
    state_type: ClassVar[type[msgspec.Struct]] = DiceDuelState
    action_type: ClassVar[object] = Action
    event_type: ClassVar[Any] = DiceDuelEvent

    def check_setup(self, players: int, options: Options) -> None:
        # the modes' seat counts (K7) are declared on the option; these are its messages
        self.check_players(players)
        mode: Mode = options["mode"]
        lo, hi = MULTI_PLAYERS
        if mode == "solo" and players != 1:
            raise OptionsError("the solo variant is for 1 player, not {n}", n=players)
        if mode == "multi" and players == 1:
            raise OptionsError(
                "{game} takes {lo} to {hi} players, not {n} "
                "(for one player choose the solo mode, mode=solo)",
                game=self._name(),
                lo=lo,
                hi=hi,
                n=players,
            )
        if mode == "multi" and not lo <= players <= hi:
            raise OptionsError(
                "{game} takes {lo} to {hi} players, not {n}",
                game=self._name(),
                lo=lo,
                hi=hi,
                n=players,
            )

    def _start(
        self, players: int, options: Options, dice: DiceSource
    ) -> Transition[DiceDuelState, DiceDuelEvent]:
        return rules.start(players, options, dice)

    def to_act(self, state: DiceDuelState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_actions(self, state: DiceDuelState, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def _apply(
        self, state: DiceDuelState, seat: int, action: Action
    ) -> Transition[DiceDuelState, DiceDuelEvent]:
        return rules.apply(state, seat, action)

    def results(self, state: DiceDuelState) -> Results:
        if state.phase != "over":
            raise ValueError("the game is not over yet")
        sheet = scores(state)
        return Results.from_scores(
            [s.total for s in sheet],
            {"end": state.end, "scores": [to_json(s) for s in sheet]},
        )

    def view(self, state: DiceDuelState, seat: int | None) -> DiceDuelView:
        # Nothing in Dice Duel is secret, so every seat gets the same table.
        return DiceDuelView(
            seat=seat,
            mode=state.mode,
            players=state.players,
            starter=state.starter,
            current=state.current,
            round=state.round,
            phase=state.phase,
            faces=state.faces,
            colours=tuple(colour(f) for f in state.faces),
            kept=state.kept,
            rolls_used=state.rolls_used,
            rolls_left=ROLLS_PER_TURN - state.rolls_used if state.phase == "roll" else 0,
            picks=state.picks,
            satisfied=satisfied(state.faces) if state.faces else (),
            kniffel=is_kniffel(state.faces),
            plate=state.plate,
            set_aside=state.set_aside,
            chips=state.chips,
            scores=scores(state),
            round_chip=state.round_chip,
            last_chip=state.last_chip,
            end=state.end,
            may_decline=state.may_decline,
        )

    def older_rules(self, rules_version: str) -> Game[Any, Any, Any, Any] | None:
        return DiceDuelGameV1() if rules_version == "1" else None


class DiceDuelGameV1(DiceDuelGame):
    """Rules version 1, K4 before its revision: every chip the dice earn must be taken
    (and a single possible chip after the 3rd roll is taken at once). Only to replay
    and resume records made under it; new games follow the revised K4."""

    info: ClassVar[GameInfo] = msgspec.structs.replace(DiceDuelGame.info, rules_version="1")

    def _start(
        self, players: int, options: Options, dice: DiceSource
    ) -> Transition[DiceDuelState, DiceDuelEvent]:
        return rules.begin(players, options["mode"], dice, may_decline=False)

    def older_rules(self, rules_version: str) -> Game[Any, Any, Any, Any] | None:
        return None


GAME = DiceDuelGame()
