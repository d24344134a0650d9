"""Shared helpers for The Decades tests: scripted decks, hands and rounds.

(A plain module, not a conftest, so its name cannot clash with other games' tests.)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from gamenight.core.dice import ScriptedDice
from gamenight.core.game import to_json
from gamenight.games.decades import library, rules
from gamenight.games.decades.cards import DEALT, action_deck
from gamenight.games.decades.deck import CATEGORIES, Question, QuestionCard
from gamenight.games.decades.events import DecadesEvent as Event
from gamenight.games.decades.game import GAME
from gamenight.games.decades.rules import (
    Action,
    Answer,
    DecadesState,
    Extend,
    Keep,
    PlayCard,
)
from gamenight.games.decades.tokens import Placement

Step = tuple[DecadesState, list[Event]]


def card(ident: str, years: Sequence[int]) -> QuestionCard:
    """A question card whose six answers are ``years`` (in T2 category order)."""
    return QuestionCard(
        ident,
        tuple(
            Question(c, f"Question {ident}/{c}: in which year?", y, f"source {ident}/{c}")
            for c, y in zip(CATEGORIES, years, strict=True)
        ),
    )


def deal_faces(first_hand: Sequence[str]) -> tuple[int, ...]:
    """Dice faces that deal ``first_hand`` (7 card ids) to team 0 (team 1 gets the rest)."""
    pool = list(action_deck())
    faces = []
    for wanted in first_hand:
        index = pool.index(wanted)
        faces.append(index + 1)
        pool.pop(index)
    assert len(faces) == DEALT
    return tuple(faces)


HAND_0 = ("remove-token",) * 3 + ("cancel-answer",) * 2 + ("blocked",) * 2
# Team 1 then holds the other 7: 2 remove, 3 cancel, 2 blocked.


def start(
    cards: Sequence[QuestionCard],
    *,
    hand: Sequence[str] = HAND_0,
    track: int = 100,
    sides: tuple[str, str] = ("A", "B"),
) -> Step:
    """A new game dealing ``cards`` in order (the first 4) and ``hand`` to team 0."""
    faces = (1,) * 4 + deal_faces(hand)
    step = rules.deal(
        cards,
        deck="",
        deck_name="test",
        track=track,
        sides=sides,
        dice=ScriptedDice(values=faces),
    )
    return step.state, list(step.events)


def act(state: DecadesState, seat: int, action: Action) -> Step:
    step = GAME.apply(state, seat, action)
    return step.state, list(step.events)


def both(state: DecadesState, first: Action, second: Action) -> Step:
    """Team 0 then team 1 choose; returns all events."""
    state, events = act(state, 0, first)
    state, more = act(state, 1, second)
    return state, events + more


def keep_all(state: DecadesState, keep0: Sequence[str], keep1: Sequence[str]) -> Step:
    return both(state, Keep(tuple(keep0)), Keep(tuple(keep1)))


def answer_all(state: DecadesState, years0: Sequence[int], years1: Sequence[int]) -> Step:
    events: list[Event] = []
    for y0, y1 in zip(years0, years1, strict=True):
        state, more = both(state, Answer(y0), Answer(y1))
        events += more
    return state, events


def tokens(*spec: tuple[int, int]) -> Extend:
    return Extend(tuple(Placement(length, start) for length, start in spec))


def round_until_cards(
    state: DecadesState,
    years0: Sequence[int],
    years1: Sequence[int],
    extend0: Extend | None = None,
    extend1: Extend | None = None,
) -> Step:
    state, events = answer_all(state, years0, years1)
    state, more = both(state, extend0 or Extend(), extend1 or Extend())
    return state, events + more


def play_cards(state: DecadesState, card0: str, card1: str) -> Step:
    return both(state, PlayCard(card0), PlayCard(card1))


def kind(event: Event) -> str:
    """An event's kind: its JSON tag."""
    tag = type(event).__struct_config__.tag
    assert isinstance(tag, str)
    return tag


def data(event: Event) -> dict[str, Any]:
    """An event's fields as JSON builtins (without its kind and audience)."""
    raw: dict[str, Any] = to_json(event)
    raw.pop("kind")
    raw.pop("audience", None)
    return raw


def kinds(events: Sequence[Event]) -> list[str]:
    return [kind(e) for e in events]


def scores_of(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [data(e) for e in events if kind(e) == "score"]


@contextmanager
def deck_library(monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> Iterator[Path]:
    """A fresh deck library under ``data_dir`` (a "machine"), forgotten afterwards."""
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_args, **_kw: str(data_dir))
    library.forget()
    try:
        yield data_dir / "decks"
    finally:
        library.forget()


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``gamenight ARGV`` in this process: its exit code, standard output and error."""
    from gamenight.cli.main import run

    code = 0
    try:
        run(list(argv))
    except SystemExit as exit_info:
        code = exit_info.code if isinstance(exit_info.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err
