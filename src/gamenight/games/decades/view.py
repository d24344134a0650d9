"""What one team (or a spectator) may know (T7).

A team sees its own hand, its own dealt cards and its own choice waiting for
the reveal; of the other team only what has been revealed. Nobody sees the
year of a question before it is scored, nor a question before it is asked.
"""

from __future__ import annotations

import msgspec

from gamenight.games.decades.boards import SIDES
from gamenight.games.decades.questions import CATEGORY_NAMES
from gamenight.games.decades.rules import (
    ROUNDS,
    TEAMS,
    Choice,
    DecadesState,
    Phase,
    RoundLog,
    Target,
    to_act,
)
from gamenight.games.decades.tokens import Placement


class AskedQuestion(msgspec.Struct, frozen=True):
    """A question that has been read out (its year stays hidden until scored)."""

    category: str
    name: str
    text: str


class TeamView(msgspec.Struct, frozen=True):
    """The public side of one team."""

    side: str
    bonuses: tuple[tuple[int, int], ...]  # (year, bonus) on this team's board side
    score: int
    answers: tuple[int, ...]  # revealed answer years this round, in category order
    tokens: tuple[Placement, ...] | None  # revealed extension tokens (None: not yet)
    card: str | None  # revealed action card this round
    effective: bool  # whether that card takes effect
    target: Target | None
    cards_left: int
    to_act: bool  # still has to choose in the current step


class DecadesView(msgspec.Struct, frozen=True):
    seat: int | None
    phase: Phase
    round: int  # 0 while keeping cards
    rounds: int
    category: int  # index of the question being answered (answer step)
    track: int
    deck: str  # the deck id ("" = the shipped deck)
    questions: tuple[AskedQuestion, ...]  # this round's questions read out so far
    teams: tuple[TeamView, TeamView]
    dealt: tuple[str, ...]  # own 7 dealt action cards (empty for a spectator)
    hand: tuple[str, ...]  # own action cards still held
    pending: Choice | None  # own secret choice waiting for the other team
    log: tuple[RoundLog, ...]  # scored rounds, with every answer's breakdown
    early_win: bool
    finished: bool


def view(state: DecadesState, seat: int | None) -> DecadesView:
    acting = to_act(state)
    teams = tuple(_team(state, s, s in acting) for s in range(TEAMS))
    return DecadesView(
        seat=seat,
        phase=state.phase,
        round=state.round,
        rounds=ROUNDS,
        category=state.category,
        track=state.track,
        deck=state.deck,
        questions=_asked(state),
        teams=(teams[0], teams[1]),
        dealt=state.dealt[seat] if seat is not None else (),
        hand=state.hands[seat] if seat is not None else (),
        pending=state.pending[seat] if seat is not None else None,
        log=state.log,
        early_win=state.early_win,
        finished=state.finished,
    )


def _asked(state: DecadesState) -> tuple[AskedQuestion, ...]:
    if state.phase in ("keep", "over"):
        return ()
    count = state.category + 1 if state.phase == "answer" else len(state.card().questions)
    return tuple(
        AskedQuestion(q.category, CATEGORY_NAMES[q.category], q.text)
        for q in state.card().questions[:count]
    )


def _team(state: DecadesState, seat: int, acting: bool) -> TeamView:
    # Revealed answers only; a team's pending year is in its own `pending`, not here.
    return TeamView(
        side=state.sides[seat],
        bonuses=SIDES[state.sides[seat]].bonuses,
        score=state.scores[seat],
        answers=state.answers[seat],
        tokens=None if state.tokens is None else state.tokens[seat],
        card=None if state.played is None else state.played[seat],
        effective=state.effective[seat],
        target=state.targets[seat],
        cards_left=len(state.hands[seat]) if state.phase != "keep" else 0,
        to_act=acting,
    )
