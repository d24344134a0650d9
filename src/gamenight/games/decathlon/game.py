"""Reiner Knizia's Decathlon behind the common game API."""

from __future__ import annotations

from typing import Any, ClassVar

from gamenight.core.dice import DiceSource
from gamenight.core.game import BotInfo, Game, GameInfo, Results, Transition
from gamenight.core.i18n import N_
from gamenight.core.options import Options, OptionSpec
from gamenight.games.decathlon import rules
from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.disciplines import ALIASES, EVENT_IDS
from gamenight.games.decathlon.events import DecathlonEvent
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.scoring import honours, points, standings, totals
from gamenight.games.decathlon.view import DecathlonView, build

OPTIONS = (
    OptionSpec(
        "variant",
        "choice",
        N_("points: the highest total wins; championship: medals per event, most honours wins"),
        default="points",
        choices=("points", "championship"),
        aliases={"champ": "championship", "honours": "championship", "point": "points"},
    ),
    OptionSpec(
        "events",
        "multi",
        N_("the events to play, comma-separated, always in the decathlon's order"),
        default=list(EVENT_IDS),
        choices=EVENT_IDS,
        aliases=ALIASES,
    ),
)


class DecathlonGame(Game[DecathlonState, Action, DecathlonView, DecathlonEvent]):
    info: ClassVar[GameInfo] = GameInfo(
        id="decathlon",
        name="Reiner Knizia's Decathlon",
        min_players=1,
        max_players=8,
        vocabulary="gamenight.games.decathlon.vocabulary:VOCABULARY",
        rules_version="1",
        summary="Ten athletics events played with eight dice: sprints, jumps and throws.",
        options=OPTIONS,
        bots=(
            BotInfo(
                "greedy",
                N_("simple rules of thumb per event; about 206 points a decathlon"),
                "gamenight.games.decathlon.bots:GreedyAgent",
                rating=25.0,
            ),
            BotInfo(
                "optimal",
                N_("exact solver, maximises each event's expected result; about 220 points"),
                "gamenight.games.decathlon.bots:OptimalAgent",
                rating=30.0,
            ),
            BotInfo(
                "competitive",
                N_("exact solver playing for the others' posted results; best in a Championship"),
                "gamenight.games.decathlon.bots:CompetitiveAgent",
                rating=30.0,
            ),
            BotInfo(
                "winner",
                N_(
                    "plays the points game to win: with two players the exact solved game "
                    "(both playing to win), otherwise each event for its chance of winning"
                ),
                "gamenight.games.decathlon.bots:WinnerAgent",
                rating=32.5,
            ),
            BotInfo(
                "winner-points",
                N_(
                    "exact solver playing each event for its chance of winning the points game "
                    "against expected-points play"
                ),
                "gamenight.games.decathlon.bots:WinnerPointsAgent",
                rating=32.5,
            ),
        ),
        advisor="gamenight.games.decathlon.advisor:advise",
        solver="gamenight.games.decathlon.solver.capability:SOLVER",
        benchmarks="gamenight.games.decathlon.benchmarks:benchmarks",
        odds="gamenight.games.decathlon.odds:live_odds",
        terminal="gamenight.terminal.decathlon:UI",  # a name only: games import no front end
        codec="gamenight.games.decathlon.codec:make",
        chance="gamenight.core.chance:dice_chance",
        stage="gamenight.games.decathlon.view:stage",
        preparation="gamenight.games.decathlon.solver.win2p_store:prepare",  # win2p table
        reviewer="gamenight.games.decathlon.review:reviewer",
    )
    state_type: ClassVar[type[DecathlonState]] = DecathlonState
    action_type: ClassVar[Any] = Action
    event_type: ClassVar[Any] = DecathlonEvent

    def _start(
        self, players: int, options: Options, dice: DiceSource
    ) -> Transition[DecathlonState, DecathlonEvent]:
        return rules.start(players, options, dice)  # ``events``: the disciplines (.events)

    # The hot calls are bound straight to the rules: one Python frame fewer each, and
    # random play makes about 55 decisions a game (bench/engine_throughput.py).
    to_act = staticmethod(rules.to_act)
    legal_actions = staticmethod(rules.legal_actions)
    # Game.apply checks the turn and the action's class, then calls this (rules.apply
    # makes the same checks, with the same messages, for a direct call)
    _apply = staticmethod(rules.apply)

    def results(self, state: DecathlonState) -> Results:
        if not self.is_terminal(state):
            raise ValueError("the Decathlon is not over yet")
        detail: dict[str, Any] = {
            "variant": state.variant,
            "events": list(state.disciplines),
            "sheet": {d: list(row) for d, row in zip(state.disciplines, state.sheet, strict=True)},
            "points": {
                d: list(points(row)) for d, row in zip(state.disciplines, state.sheet, strict=True)
            },
            "totals": list(totals(state.sheet, state.players)),
        }
        if state.variant == "championship":
            detail["honours"] = {
                d: list(honours(row)) for d, row in zip(state.disciplines, state.sheet, strict=True)
            }
        return Results.from_scores(standings(state.variant, state.sheet, state.players), detail)

    def score_unit(self, options: Options) -> str:
        # D11: the Championship is scored in honours (medals), not points
        return N_("honours") if options.get("variant") == "championship" else N_("points")

    view = staticmethod(build)


GAME = DecathlonGame()
