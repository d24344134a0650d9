"""The events of The Decades: one frozen, typed struct per kind (JSON key ``"kind"``).

Events say what happened in game terms only; front ends word them. Secret
things travel only in events whose ``audience`` is the owning team (``Hand``,
``Chosen``) or nobody (``Dealt``, the referee's record), so every team and a
spectator can be sent exactly the events :meth:`Event.visible_to` allows (T7).

>>> from gamenight.core.events import to_json_bytes
>>> to_json_bytes(AnswersRevealed(category="music", years=(1987, 1990)))
b'{"kind":"answers","category":"music","years":[1987,1990]}'
"""

from __future__ import annotations

from typing import Literal

from gamenight.core.events import Event
from gamenight.games.decades.actions import Choice, SecretStep, Target
from gamenight.games.decades.scoring import AnswerScore
from gamenight.games.decades.tokens import Placement

# Why a revealed action card does or does not take effect (T3); front ends word it.
CardNote = Literal["both-blocked", "blocked", "blocks", "no-token", "target"]


class Setup(Event, frozen=True, tag="setup"):
    """The game is set up: the deck in play (name and size), rounds, track and board sides."""

    deck: str
    deck_cards: int
    rounds: int
    track: int
    sides: tuple[str, str]


class Dealt(Event, frozen=True, tag="deal"):
    """The dice faces that dealt questions or action cards (referee only: they name cards)."""

    what: Literal["questions", "action cards"]
    faces: tuple[int, ...]


class Hand(Event, frozen=True, tag="hand"):
    """The 7 action cards ``team`` drew (that team only, T7)."""

    team: int
    cards: tuple[str, ...]


class KeepStep(Event, frozen=True, tag="keep"):
    """Each team draws ``dealt`` action cards and keeps ``keep`` (T3)."""

    dealt: int
    keep: int


class Ready(Event, frozen=True, tag="ready"):
    """``team`` has made its secret choice of this step (public: only that it chose)."""

    team: int
    step: SecretStep


class Chosen(Event, frozen=True, tag="chosen"):
    """``team``'s own secret choice, sent to that team only until the reveal (T7)."""

    team: int
    step: SecretStep
    choice: Choice


class Kept(Event, frozen=True, tag="kept"):
    """Both teams kept their ``cards`` action cards (which ones stays secret)."""

    cards: int


class RoundBegins(Event, frozen=True, tag="round"):
    round: int
    rounds: int


class Asked(Event, frozen=True, tag="question"):
    """A question is read out; its year stays secret until scored (T7)."""

    round: int
    category: str
    name: str
    text: str


class AnswersRevealed(Event, frozen=True, tag="answers"):
    """Both answer years for ``category``, revealed together (T4)."""

    category: str
    years: tuple[int, int]


class ExtendStep(Event, frozen=True, tag="extend"):
    """Both teams now place their extension tokens (T4)."""

    round: int


class BoardsRevealed(Event, frozen=True, tag="boards"):
    """Both boards, answers and extension tokens, revealed together (T4 step 2)."""

    answers: tuple[tuple[int, ...], tuple[int, ...]]
    tokens: tuple[tuple[Placement, ...], tuple[Placement, ...]]


class CardsRevealed(Event, frozen=True, tag="cards"):
    """Both action cards, revealed together, and whether each takes effect (T3)."""

    cards: tuple[str, str]
    effective: tuple[bool, bool]
    notes: tuple[CardNote, CardNote]


class TargetChosen(Event, frozen=True, tag="target"):
    """``team`` aims its ``card`` at ``target`` (in the open, T3)."""

    team: int
    card: str
    target: Target


class Scored(Event, frozen=True, tag="score"):
    """One category scored for both teams (T5); ``totals`` are the running scores (T6)."""

    round: int
    category: str
    text: str
    year: int
    source: str
    scores: tuple[AnswerScore, AnswerScore]
    totals: tuple[int, int]


class GameOver(Event, frozen=True, tag="end"):
    """The game is over: final scores, whether the track's end was reached, winners (T6)."""

    scores: tuple[int, int]
    early_win: bool
    winners: tuple[int, ...]


DecadesEvent = (
    Setup
    | Dealt
    | Hand
    | KeepStep
    | Ready
    | Chosen
    | Kept
    | RoundBegins
    | Asked
    | AnswersRevealed
    | ExtendStep
    | BoardsRevealed
    | CardsRevealed
    | TargetChosen
    | Scored
    | GameOver
)
