"""T7: a team never sees the other team's secrets, nor answers not yet scored.

The check is counterfactual. At every step of whole games, the other team's
secrets (its choice waiting for the reveal, its hand, its dealt cards) and the
questions not yet asked or scored are replaced by different values. What team
A may see, its view, its rendering on the terminal, and every event it is sent,
must not change. The same holds for a spectator, with both teams' secrets
replaced.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from msgspec.structs import replace
from rich.console import Console

from gamenight.core.agents import Agent, Decision, RandomAgent
from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.core.events import visible_to
from gamenight.core.game import to_json
from gamenight.games.decades.bots import BOTS
from gamenight.games.decades.cards import CARDS
from gamenight.games.decades.deck import Question, QuestionCard, default_deck
from gamenight.games.decades.events import Dealt, Hand
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
from gamenight.games.decades.tokens import legal_placements
from gamenight.terminal.decades import UI
from gamenight.terminal.ui import Seating

TABLE = Seating(["Red", "Blue"], frozenset({0, 1}))
_NEXT_KIND = {
    "remove-token": "cancel-answer",
    "cancel-answer": "blocked",
    "blocked": "remove-token",
}


# ----- perturbing secrets -------------------------------------------------------------


def _other_cards(cards: Sequence[str], keep: Sequence[str] = ()) -> tuple[str, ...]:
    """The same number of cards in another mix: all but ``keep`` become one kind.

    Shifting each card to the next kind could keep the mix (one card of each kind
    stays one of each), and a leak of the counts would go unseen. Turning every
    changed card into a kind the first of them is not always changes the mix.
    """
    kept = list(keep)
    out: list[str | None] = []
    for card in cards:
        if card in kept:
            kept.remove(card)
            out.append(card)
        else:
            out.append(None)  # to be changed
    firsts = [card for card, new in zip(cards, out, strict=True) if new is None]
    kind = _NEXT_KIND[firsts[0]] if firsts else ""
    return tuple(kind if new is None else new for new in out)


def _other_choice(choice: Any) -> Any:
    if isinstance(choice, Keep):
        return Keep(_other_cards(choice.cards))
    if isinstance(choice, Answer):
        return Answer(1980 + (choice.year - 1980 + 17) % 40)
    # An Extend is swapped by _extend_alternative: the new one must suit the answers.
    if isinstance(choice, PlayCard):
        return PlayCard(_NEXT_KIND[choice.card])
    return choice


def progress(state: DecadesState) -> tuple[int, int]:
    """How many of the 24 questions have been asked, and how many scored."""
    if state.phase == "keep":
        return 0, 0
    if state.phase == "over":
        last = state.log[-1]
        return (len(state.log)) * 6, (len(state.log) - 1) * 6 + len(last.categories)
    done = (state.round - 1) * 6
    asked = done + state.category + 1 if state.phase == "answer" else done + 6
    return asked, done


def _hide_questions(state: DecadesState, asked: int, scored: int) -> DecadesState:
    cards = []
    for r, qcard in enumerate(state.questions):
        questions = []
        for c, q in enumerate(qcard.questions):
            index = r * 6 + c
            year, text, source = q.year, q.text, q.source
            if index >= scored:
                year, source = 1980 + (q.year - 1980 + 23) % 40, f"other source {index}"
            if index >= asked:
                text = f"another question number {index}?"
            questions.append(Question(q.category, text, year, source))
        # a card's id becomes public when its round is scored (even partly, at an early win)
        ident = qcard.id if r * 6 < scored else f"other-{r}"
        cards.append(QuestionCard(ident, tuple(questions)))
    return replace(state, questions=tuple(cards))


def perturb(
    state: DecadesState,
    teams: Sequence[int],
    *,
    asked: int,
    scored: int,
    pending: bool = True,
    dealt: bool = True,
    hand_keep: Mapping[int, Sequence[str]] | None = None,
) -> DecadesState:
    """``state`` with the secrets of ``teams`` and of unasked/unscored questions changed."""
    hands, dealts, pendings = list(state.hands), list(state.dealt), list(state.pending)
    for team in teams:
        hands[team] = _other_cards(hands[team], (hand_keep or {}).get(team, ()))
        if dealt:
            dealts[team] = _other_cards(dealts[team])
        if pending and pendings[team] is not None:
            pendings[team] = _other_choice(pendings[team])
    state = replace(
        state,
        hands=(hands[0], hands[1]),
        dealt=(dealts[0], dealts[1]),
        pending=(pendings[0], pendings[1]),
    )
    return _hide_questions(state, asked, scored)


def _extend_alternative(state: DecadesState, team: int) -> DecadesState:
    """A different pending placement for ``team`` (any other legal one)."""
    choice = state.pending[team]
    if not isinstance(choice, Extend):
        return state
    for other in legal_placements(state.answers[team]):
        if other != choice.tokens:
            return replace(state, pending=_with(state.pending, team, Extend(other)))
    return state


def _with(pair: tuple[Any, Any], seat: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


# ----- what a seat can see -----------------------------------------------------------------


def seen(state: DecadesState, seat: int | None) -> tuple[Any, str]:
    """The view's JSON and its terminal rendering for ``seat``."""
    view = GAME.view(state, seat)
    console = Console(file=io.StringIO(), width=120, color_system=None)
    UI().show(console, view, seat, TABLE)
    return json.dumps(to_json(view), sort_keys=True), console.file.getvalue()  # type: ignore[attr-defined]


def public_to(events: Sequence[Event], seat: int | None) -> list[Any]:
    return [to_json(e) for e in visible_to(events, seat)]


def check_twin(state: DecadesState, twin: DecadesState, teams: Sequence[int]) -> None:
    """``twin`` differs from ``state`` only in secrets, and in every secret of ``teams``.

    Without this, a perturbation that changed nothing (or changed something
    public) would make the comparisons of views and events meaningless.
    """
    secrets = ("hands", "dealt", "pending", "questions")
    assert replace(twin, **{f: getattr(state, f) for f in secrets}) == state
    for team in teams:
        assert Counter(twin.dealt[team]) != Counter(state.dealt[team])
        if state.hands[team]:
            assert Counter(twin.hands[team]) != Counter(state.hands[team])
        choice = state.pending[team]
        if choice is not None and (
            not isinstance(choice, Extend) or len(legal_placements(state.answers[team])) > 1
        ):
            assert twin.pending[team] != choice
    _, scored = progress(state)
    if scored < len(state.questions) * 6:  # an unscored year is always changed
        assert twin.questions != state.questions


def check_position(state: DecadesState) -> None:
    """Views and renderings do not depend on anything the viewer may not know."""
    asked, scored = progress(state)
    for viewer in (0, 1):
        other = 1 - viewer
        twin = _extend_alternative(perturb(state, [other], asked=asked, scored=scored), other)
        check_twin(state, twin, [other])
        assert seen(state, viewer) == seen(twin, viewer), f"team {viewer} sees a secret"
    twin = perturb(state, [0, 1], asked=asked, scored=scored)
    twin = _extend_alternative(_extend_alternative(twin, 0), 1)
    check_twin(state, twin, [0, 1])
    assert seen(state, None) == seen(twin, None), "the spectator sees a secret"


def check_step(state: DecadesState, seat: int, action: Action, after: DecadesState) -> None:
    """The events of one step, as each team and the spectator receive them, reveal
    nothing that is still secret once the step is done."""
    events = GAME.apply(state, seat, action).events
    asked, scored = progress(after)
    secret_step = state.phase in ("keep", "answer", "extend", "card")
    resolved = secret_step and state.pending[1 - seat] is not None  # both will have chosen
    reveals_choices = resolved and state.phase != "keep"  # kept cards stay secret
    for viewer in (0, 1, None):
        hidden = [0, 1] if viewer is None else [1 - viewer]
        keep: dict[int, list[str]] = {}
        for team in hidden:
            mine = state.pending[team] if team != seat else action
            if isinstance(mine, PlayCard):
                keep[team] = [mine.card]  # the played card is revealed, and must be held
        twin = perturb(
            state,
            hidden,
            asked=asked,
            scored=scored,
            pending=not reveals_choices,
            dealt=not (state.phase == "keep" and seat in hidden),
            hand_keep=keep,
        )
        if not reveals_choices:
            for team in hidden:
                twin = _extend_alternative(twin, team)
        twin_events = GAME.apply(twin, seat, action).events
        assert public_to(events, viewer) == public_to(twin_events, viewer), (
            f"events of {action!r} by team {seat} tell {viewer} a secret"
        )
        # The acting team's own secret choice, before the reveal, is its secret too.
        if viewer != seat and secret_step and not resolved:
            for alternative in GAME.legal_actions(state, seat)[:5]:
                alt_events = GAME.apply(state, seat, alternative).events
                assert public_to(events, viewer) == public_to(alt_events, viewer)


# ----- whole games ------------------------------------------------------------------------


def walk(agents: Sequence[Agent[Any, Any, Any]], seed: int) -> int:
    """Play a whole game, checking every position and every step; returns the steps."""
    step = GAME.start(2, GAME.parse_options(), SeededDice(seed=seed))
    state = step.state
    check_position(state)
    steps = 0
    while not GAME.is_terminal(state):
        for seat in GAME.to_act(state):
            if seat not in GAME.to_act(state):
                continue
            legal = GAME.legal_actions(state, seat)
            action = agents[seat].act(Decision("decades", seat, GAME.view(state, seat), legal))
            after = GAME.apply(state, seat, action).state
            check_step(state, seat, action, after)
            state = after
            check_position(state)
            steps += 1
    return steps


@pytest.mark.parametrize("seed", [1, 2])
def test_bots_game_leaks_nothing(seed: int) -> None:
    agents = [BOTS["expert"](seed), BOTS["novice"](seed + 1)]
    assert walk(agents, seed) > 30


def test_random_game_leaks_nothing() -> None:
    assert walk([RandomAgent(5), RandomAgent(6)], 77) > 30


def test_start_events_show_each_team_only_its_own_hand() -> None:
    def start_events(question_faces: tuple[int, ...]) -> tuple[Event, ...]:
        dice = ScriptedDice(question_faces + (1,) * 7)
        return GAME.start(2, GAME.parse_options(), dice).events

    first, second = start_events((1, 1, 1, 1)), start_events((9, 8, 7, 6))
    for seat in (0, 1, None):
        # other question cards are drawn, yet nobody can tell from what they are sent
        assert public_to(first, seat) == public_to(second, seat)
        for event in visible_to(first, seat):
            assert not isinstance(event, Dealt)  # the faces name the cards drawn
            if isinstance(event, Hand):
                assert event.team == seat
    assert len(default_deck().cards) > 9


def test_a_pending_choice_is_only_in_its_own_teams_view() -> None:
    state = GAME.start(2, GAME.parse_options(), SeededDice(seed=3)).state
    keep = GAME.legal_actions(state, 1)[0]
    state = GAME.apply(state, 1, keep).state
    assert GAME.view(state, 1).pending == keep
    assert GAME.view(state, 0).pending is None and GAME.view(state, None).pending is None
    assert GAME.view(state, 0).hand == state.hands[0] and GAME.view(state, None).hand == ()
    assert GAME.view(state, None).dealt == () and GAME.view(state, 0).dealt == state.dealt[0]
    text = json.dumps(to_json(GAME.view(state, 0)))
    assert '"type": "keep"' not in text  # team 1's pending Keep is not in team 0's view
    assert all(card in CARDS for card in state.dealt[1])
