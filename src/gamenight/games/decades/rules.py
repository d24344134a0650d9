"""The Decades state machine (seed 002, rulings T1-T7): pure functions of frozen states.

A game is 4 rounds for two teams (seats 0 and 1). Before round 1 both teams
keep 4 of their 7 action cards. Each round then runs these steps, every one a
*simultaneous* secret choice by both teams (``to_act`` names every team that
still has to choose):

``answer``  one step per category: both pick a year, then both are revealed (T4);
``extend``  both place their extension tokens, then both boards are revealed (T4);
``card``    both pick an action card, revealed together (T3);
``target``  teams whose card still works pick its target, in the open (T3);

and then the round is scored category by category (T5, T6). A team's choice
waits in ``pending`` until the other team has chosen too, so it is never in any
view or event of the other team before the reveal (T7).

The module speaks the rules dialect every game speaks: :func:`start`,
:func:`to_act`, :func:`legal_actions` and :func:`apply`, the first and last
returning a :class:`~gamenight.core.game.Transition` (the new state and its events);
:func:`deal` is :func:`start` from a given list of question cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Literal, TypeVar

import msgspec

from gamenight.core.dice import DiceSource
from gamenight.core.errors import IllegalActionError, Term
from gamenight.core.game import Transition
from gamenight.core.options import Options
from gamenight.core.umpire import Umpire
from gamenight.games.decades.actions import (
    Action,
    Answer,
    CancelAnswer,
    Choice,
    Extend,
    Hidden,
    Keep,
    PlayCard,
    RemoveToken,
    SecretStep,
    Target,
)
from gamenight.games.decades.boards import SIDES, YEARS, on_board, parse_sides
from gamenight.games.decades.cards import CARDS, DEALT, KEPT, action_deck, card_order
from gamenight.games.decades.events import (
    AnswersRevealed,
    Asked,
    BoardsRevealed,
    CardNote,
    CardsRevealed,
    Chosen,
    Dealt,
    DecadesEvent,
    ExtendStep,
    GameOver,
    Hand,
    KeepStep,
    Kept,
    Ready,
    RoundBegins,
    Scored,
    Setup,
    TargetChosen,
)
from gamenight.games.decades.questions import CATEGORIES, CATEGORY_NAMES, QuestionCard
from gamenight.games.decades.scoring import AnswerScore, score_answer
from gamenight.games.decades.tokens import (
    Placement,
    canonical,
    legal_placements,
    placement_error,
)

ROUNDS = 4  # T4
TEAMS = 2  # T1
QUESTION_CARDS = 4  # T2: a game deals 4 question cards without replacement

T = TypeVar("T")
Phase = Literal["keep", "answer", "extend", "card", "target", "over"]


# ----- actions (in actions.py, re-exported here) -----------------------------------

__all__ = [
    "Action",
    "Answer",
    "CancelAnswer",
    "Choice",
    "Extend",
    "Hidden",
    "Keep",
    "PlayCard",
    "RemoveToken",
    "SecretStep",
    "Target",
]


# ----- state --------------------------------------------------------------------


class CategoryScore(msgspec.Struct, frozen=True):
    """One scored question: the answer (now public) and both teams' results."""

    category: str
    text: str
    year: int
    source: str
    scores: tuple[AnswerScore, AnswerScore]
    totals: tuple[int, int]  # running scores after this category (T6)


class RoundLog(msgspec.Struct, frozen=True):
    """Everything a round made public, kept for the score breakdown."""

    round: int
    card: str  # the question card's id, public once scored
    answers: tuple[tuple[int, ...], tuple[int, ...]]
    tokens: tuple[tuple[Placement, ...], tuple[Placement, ...]]
    cards: tuple[str, str]
    effective: tuple[bool, bool]
    targets: tuple[Target | None, Target | None]
    categories: tuple[CategoryScore, ...]


class DecadesState(msgspec.Struct, frozen=True):
    dice: DiceSource
    deck: str  # the deck id in the library ("" = shipped deck); public
    track: int  # T6: last space of the score track
    sides: tuple[str, str]  # T1: board side per team
    questions: tuple[QuestionCard, ...]  # T2: the 4 dealt cards, round order; secret (T7)
    dealt: tuple[tuple[str, ...], tuple[str, ...]]  # T3: the 7 cards each team drew
    hands: tuple[tuple[str, ...], tuple[str, ...]]  # cards still held (secret, T7)
    phase: Phase = "keep"
    round: int = 0  # 1..4 once play starts
    category: int = 0  # index into CATEGORIES during the answer step
    pending: tuple[Choice | None, Choice | None] = (None, None)  # secret (T7)
    answers: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # revealed years
    tokens: tuple[tuple[Placement, ...], tuple[Placement, ...]] | None = None  # revealed
    played: tuple[str, str] | None = None  # revealed cards this round
    effective: tuple[bool, bool] = (False, False)
    targets: tuple[Target | None, Target | None] = (None, None)
    scores: tuple[int, int] = (0, 0)
    log: tuple[RoundLog, ...] = ()
    early_win: bool = False

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    def card(self) -> QuestionCard:
        """This round's question card."""
        return self.questions[self.round - 1]


Referee = Umpire[DecadesEvent]


def other(seat: int) -> int:
    return 1 - seat


def _with(pair: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    """``pair`` with ``seat``'s entry replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _done(state: DecadesState, umpire: Referee) -> Transition[DecadesState, DecadesEvent]:
    """The end of a rules call: the umpire's dice go back into the state."""
    return Transition(msgspec.structs.replace(state, dice=umpire.dice), umpire.events)


# ----- dealing ---------------------------------------------------------------------


def draw_index(umpire: Referee, n: int) -> tuple[int, tuple[int, ...]]:
    """A uniform index below ``n`` from the umpire's dice, with the faces used.

    Decks of up to 256 cards take one ``n``-sided die; larger decks combine
    256-sided dice with rejection, so every card stays equally likely.
    """
    if n <= 256:
        faces = umpire.roll(1, n)
        return faces[0] - 1, faces
    digits = 1
    while 256**digits < n:
        digits += 1
    limit = 256**digits - 256**digits % n
    used: list[int] = []
    while True:
        faces = umpire.roll(digits, 256)
        used += faces
        value = 0
        for face in faces:
            value = value * 256 + face - 1
        if value < limit:
            return value % n, tuple(used)


def apart_cards(apart: Sequence[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Card id -> the cards that must not be dealt with it (pairs of question refs
    like ``"c01.1"``, or plain card ids; see ``Deck.apart``)."""
    found: dict[str, set[str]] = {}
    for first, second in apart:
        a, b = (ref.rpartition(".")[0] or ref for ref in (first, second))
        if a != b:
            found.setdefault(a, set()).add(b)
            found.setdefault(b, set()).add(a)
    return {card: frozenset(others) for card, others in found.items()}


def start(
    players: int, options: Options, dice: DiceSource
) -> Transition[DecadesState, DecadesEvent]:
    """A new game for two teams (T1) from parsed ``options``: the ``deck`` (its id,
    "" for the shipped deck), the score ``track`` (T6) and the board ``sides`` (T1).
    Deals as :func:`deal` does."""
    from gamenight.games.decades.library import deck_for  # not at import: listing reads no deck

    deck = deck_for(options["deck"])
    return deal(
        deck.cards,
        deck=options["deck"],
        deck_name=deck.name,
        track=options["track"],
        sides=parse_sides(options["sides"]),
        dice=dice,
        apart=deck.apart,
    )


def deal(
    cards: Sequence[QuestionCard],
    *,
    deck: str,
    deck_name: str,
    track: int,
    sides: tuple[str, str],
    dice: DiceSource,
    apart: Sequence[tuple[str, str]] = (),
) -> Transition[DecadesState, DecadesEvent]:
    """Deal 4 question cards and 7 action cards per team (T2, T3).

    Cards that would answer each other (``apart``) are never dealt together:
    after each draw, the cards paired with it leave the pool. The deal stays a
    pure function of the dice.
    """
    umpire: Referee = Umpire(dice)
    pool = list(cards)
    avoid = apart_cards(apart)
    drawn: list[QuestionCard] = []
    question_faces: list[int] = []
    for _ in range(QUESTION_CARDS):
        if not pool:
            raise ValueError("the deck has too few cards that may be dealt together")
        index, faces = draw_index(umpire, len(pool))
        card = pool.pop(index)
        drawn.append(card)
        question_faces += faces
        banned = avoid.get(card.id, frozenset())
        pool = [c for c in pool if c.id not in banned]
    actions = list(action_deck())
    first: list[str] = []
    card_faces: list[int] = []
    for _ in range(DEALT):
        index, faces = draw_index(umpire, len(actions))
        first.append(actions.pop(index))
        card_faces += faces
    dealt = (_sorted_hand(first), _sorted_hand(actions))  # T3: 14 cards, 7 each
    state = DecadesState(
        dice=dice,
        deck=deck,
        track=track,
        sides=sides,
        questions=tuple(drawn),
        dealt=dealt,
        hands=dealt,
    )
    umpire.announce(
        Setup(deck=deck_name, deck_cards=len(cards), rounds=ROUNDS, track=track, sides=sides)
    )
    # The faces name the cards drawn, so nobody may see them (T7); the record keeps them.
    umpire.announce(Dealt(what="questions", faces=tuple(question_faces), audience=()))
    umpire.announce(Dealt(what="action cards", faces=tuple(card_faces), audience=()))
    for seat in range(TEAMS):
        umpire.announce(Hand(team=seat, cards=dealt[seat], audience=(seat,)))
    umpire.announce(KeepStep(dealt=DEALT, keep=KEPT))
    return _done(state, umpire)


def _sorted_hand(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_order))


# ----- who acts, what is legal --------------------------------------------------------


def target_due(state: DecadesState, seat: int) -> bool:
    """Whether ``seat`` must still choose a target for its revealed card (T3)."""
    if state.phase != "target" or state.played is None or state.targets[seat] is not None:
        return False
    return bool(state.effective[seat]) and CARDS[state.played[seat]].needs_target


def to_act(state: DecadesState) -> tuple[int, ...]:
    if state.phase == "over":
        return ()
    if state.phase == "target":
        return tuple(s for s in range(TEAMS) if target_due(state, s))
    return tuple(s for s in range(TEAMS) if state.pending[s] is None)


def legal_actions(state: DecadesState, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase == "keep":
        return [Keep(k) for k in _keep_choices(state.dealt[seat])]
    if phase == "answer":
        return [Answer(year) for year in YEARS]
    if phase == "extend":
        return [Extend(tokens) for tokens in legal_placements(state.answers[seat])]
    if phase == "card":
        return [PlayCard(card) for card in dict.fromkeys(state.hands[seat])]
    assert state.played is not None and state.tokens is not None
    if CARDS[state.played[seat]].effect == "remove-token":
        return [RemoveToken(t.length) for t in state.tokens[other(seat)]]
    return [CancelAnswer(category) for category in CATEGORIES]


def _keep_choices(dealt: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct set of 4 cards from the 7 dealt (cards of one kind are alike)."""
    # dealt is sorted, so equal cards give equal tuples and dict.fromkeys drops repeats
    return list(dict.fromkeys(combinations(dealt, KEPT)))


# ----- applying an action ---------------------------------------------------------------


def _wrong_step(phase: str) -> IllegalActionError:
    """The refusal of an action of another step than ``phase``'s (one sentence per step)."""
    if phase == "keep":
        return IllegalActionError("this is the keep step: keep 4 of your 7 action cards")
    if phase == "answer":
        return IllegalActionError("this is the answer step: choose a year")
    if phase == "extend":
        return IllegalActionError("this is the extend step: place your extension tokens (or none)")
    if phase == "card":
        return IllegalActionError("this is the card step: play an action card")
    if phase == "target":
        return IllegalActionError("this is the target step: choose a target for your card")
    return IllegalActionError("the game is over; no more actions")


def _card(card: str) -> Term:
    """An action card's name, as a term the player's language says."""
    return Term("dc.card." + card, CARDS[card].name)  # the vocabulary has the key


SECRET_STEPS: dict[str, SecretStep] = {
    "keep": "keep",
    "answer": "answer",
    "extend": "extend",
    "card": "card",
}
STEP_OF: dict[type, str] = {
    Keep: "keep",
    Answer: "answer",
    Extend: "extend",
    PlayCard: "card",
    RemoveToken: "target",
    CancelAnswer: "target",
}


def apply(state: DecadesState, seat: int, action: Action) -> Transition[DecadesState, DecadesEvent]:
    """Apply ``action`` by ``seat``; raises IllegalActionError.

    ``seat`` must be one to act (Game.apply checks the turn and the action's class).
    """
    if isinstance(action, Hidden):
        raise IllegalActionError("a hidden choice is how others see a secret move; not a move")
    phase = state.phase
    if STEP_OF[type(action)] != phase:
        raise _wrong_step(phase)
    umpire: Referee = Umpire(state.dice)
    if isinstance(action, RemoveToken | CancelAnswer):
        return _done(_apply_target(state, seat, action, umpire), umpire)
    step = _secret_step(state)
    choice = _checked_choice(state, seat, action)
    state = msgspec.structs.replace(state, pending=_with(state.pending, seat, choice))
    umpire.announce(Ready(team=seat, step=step))  # public: only that the team has chosen
    umpire.announce(Chosen(team=seat, step=step, choice=choice, audience=(seat,)))
    if all(p is not None for p in state.pending):
        state = _reveal(state, umpire)
    return _done(state, umpire)


def _secret_step(state: DecadesState) -> SecretStep:
    return SECRET_STEPS[state.phase]


def _checked_choice(state: DecadesState, seat: int, action: Action) -> Choice:
    if isinstance(action, Keep):
        return Keep(_checked_keep(state.dealt[seat], action.cards))
    if isinstance(action, Answer):
        if not on_board(action.year):
            raise IllegalActionError("{year} is not on the board (1980-2019)", year=action.year)
        return action
    if isinstance(action, Extend):
        problem = placement_error(action.tokens, state.answers[seat])
        if problem is not None:
            raise problem
        return Extend(canonical(action.tokens))
    assert isinstance(action, PlayCard)
    if action.card not in state.hands[seat]:
        held = tuple(_card(c) for c in dict.fromkeys(state.hands[seat]))
        raise IllegalActionError(
            "you hold no {card} card (you hold: {held})", card=repr(action.card), held=held
        )
    return action


def _checked_keep(dealt: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    if len(cards) != KEPT:
        raise IllegalActionError("keep exactly {kept} cards, not {n}", kept=KEPT, n=len(cards))
    unknown = [c for c in cards if c not in CARDS]
    if unknown:
        raise IllegalActionError("there is no action card {card}", card=repr(unknown[0]))
    missing = Counter(cards) - Counter(dealt)
    if missing:
        card = next(iter(missing))
        have = Counter(dealt)[card]
        told = {"card": _card(card), "n": Counter(cards)[card]}
        if have == 1:
            raise IllegalActionError("you were dealt one '{card}' card, not {n}", **told)
        raise IllegalActionError("you were dealt {have} '{card}' cards, not {n}", have=have, **told)
    return _sorted_hand(cards)


def _reveal(state: DecadesState, umpire: Referee) -> DecadesState:
    """Both teams have chosen: make both choices public and move on."""
    a, b = state.pending
    cleared = msgspec.structs.replace(state, pending=(None, None))
    if isinstance(a, Keep) and isinstance(b, Keep):
        state = msgspec.structs.replace(cleared, hands=(a.cards, b.cards))
        umpire.announce(Kept(cards=KEPT))
        return _begin_round(state, 1, umpire)
    if isinstance(a, Answer) and isinstance(b, Answer):
        return _reveal_answers(cleared, (a.year, b.year), umpire)
    if isinstance(a, Extend) and isinstance(b, Extend):
        tokens = (a.tokens, b.tokens)
        state = msgspec.structs.replace(cleared, tokens=tokens, phase="card")
        umpire.announce(BoardsRevealed(answers=state.answers, tokens=tokens))
        return state
    assert isinstance(a, PlayCard) and isinstance(b, PlayCard)
    return _reveal_cards(cleared, (a.card, b.card), umpire)


def _begin_round(state: DecadesState, number: int, umpire: Referee) -> DecadesState:
    state = msgspec.structs.replace(
        state,
        phase="answer",
        round=number,
        category=0,
        answers=((), ()),
        tokens=None,
        played=None,
        effective=(False, False),
        targets=(None, None),
    )
    umpire.announce(RoundBegins(round=number, rounds=ROUNDS))
    umpire.announce(_question_event(state))
    return state


def _question_event(state: DecadesState) -> Asked:
    question = state.card().questions[state.category]
    return Asked(
        round=state.round,
        category=question.category,
        name=CATEGORY_NAMES[question.category],
        text=question.text,
    )


def _reveal_answers(state: DecadesState, years: tuple[int, int], umpire: Referee) -> DecadesState:
    answers = (state.answers[0] + (years[0],), state.answers[1] + (years[1],))
    umpire.announce(AnswersRevealed(category=CATEGORIES[state.category], years=years))
    if state.category + 1 < len(CATEGORIES):
        state = msgspec.structs.replace(state, answers=answers, category=state.category + 1)
        umpire.announce(_question_event(state))
        return state
    state = msgspec.structs.replace(state, answers=answers, phase="extend")
    umpire.announce(ExtendStep(round=state.round))
    return state


def _reveal_cards(state: DecadesState, played: tuple[str, str], umpire: Referee) -> DecadesState:
    """T3: cards leave the hands; Blocked stops the other card; targets come next."""
    assert state.tokens is not None
    hands = tuple(_without(state.hands[s], played[s]) for s in range(TEAMS))
    blocks = tuple(CARDS[c].effect == "block" for c in played)
    notes: list[CardNote] = []
    effective: list[bool] = []
    for seat in range(TEAMS):
        card = CARDS[played[seat]]
        note: CardNote
        if blocks[seat] and blocks[other(seat)]:
            works, note = False, "both-blocked"
        elif blocks[other(seat)]:
            works, note = False, "blocked"
        elif blocks[seat]:
            works, note = True, "blocks"
        elif card.effect == "remove-token" and not state.tokens[other(seat)]:
            works, note = False, "no-token"
        else:
            works, note = True, "target"
        effective.append(works)
        notes.append(note)
    state = msgspec.structs.replace(
        state,
        hands=(hands[0], hands[1]),
        played=played,
        effective=(effective[0], effective[1]),
        phase="target",
    )
    umpire.announce(
        CardsRevealed(
            cards=played,
            effective=(effective[0], effective[1]),
            notes=(notes[0], notes[1]),
        )
    )
    if to_act(state):
        return state
    return _score_round(state, umpire)


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def _apply_target(
    state: DecadesState, seat: int, action: RemoveToken | CancelAnswer, umpire: Referee
) -> DecadesState:
    assert state.played is not None and state.tokens is not None
    card = state.played[seat]
    effect = CARDS[card].effect
    if isinstance(action, RemoveToken):
        if effect != "remove-token":
            raise IllegalActionError("your card cancels an answer: choose a category")
        lengths = [t.length for t in state.tokens[other(seat)]]
        if action.length not in lengths:
            raise IllegalActionError(
                "the other team placed no {n}-year token (placed, in years: {placed})",
                n=action.length,
                placed=", ".join(map(str, lengths)),
            )
    else:
        if effect != "cancel-answer":
            raise IllegalActionError("your card removes an extension token: choose a token")
        if action.category not in CATEGORIES:
            raise IllegalActionError(
                "there is no category {category} (categories: {categories})",
                category=repr(action.category),
                categories=", ".join(CATEGORIES),
            )
    state = msgspec.structs.replace(state, targets=_with(state.targets, seat, action))
    umpire.announce(TargetChosen(team=seat, card=card, target=action))
    if to_act(state):
        return state
    return _score_round(state, umpire)


# ----- scoring ----------------------------------------------------------------------------


def _score_round(state: DecadesState, umpire: Referee) -> DecadesState:
    """T5 per answer, added category by category with the early win (T6)."""
    assert state.played is not None and state.tokens is not None
    counting: list[tuple[Placement, ...]] = []
    cancelled: list[str | None] = []
    for seat in range(TEAMS):
        attack = state.targets[other(seat)]
        tokens = state.tokens[seat]
        if isinstance(attack, RemoveToken):
            tokens = tuple(t for t in tokens if t.length != attack.length)
        counting.append(tokens)
        cancelled.append(attack.category if isinstance(attack, CancelAnswer) else None)
    scores = list(state.scores)
    scored: list[CategoryScore] = []
    early = False
    for index, question in enumerate(state.card().questions):
        results = tuple(
            score_answer(
                state.answers[seat][index],
                counting[seat],
                question.year,
                SIDES[state.sides[seat]],
                cancelled=cancelled[seat] == question.category,
            )
            for seat in range(TEAMS)
        )
        for seat in range(TEAMS):
            scores[seat] += results[seat].points
        line = CategoryScore(
            question.category,
            question.text,
            question.year,
            question.source,
            (results[0], results[1]),
            (scores[0], scores[1]),
        )
        scored.append(line)
        umpire.announce(
            Scored(
                round=state.round,
                category=line.category,
                text=line.text,
                year=line.year,
                source=line.source,
                scores=line.scores,
                totals=line.totals,
            )
        )
        if max(scores) >= state.track:  # T6: the early win, checked after every category
            early = True
            break
    log = RoundLog(
        round=state.round,
        card=state.card().id,
        answers=state.answers,
        tokens=state.tokens,
        cards=state.played,
        effective=state.effective,
        targets=state.targets,
        categories=tuple(scored),
    )
    state = msgspec.structs.replace(
        state, scores=(scores[0], scores[1]), log=(*state.log, log), early_win=early
    )
    if early or state.round == ROUNDS:
        state = msgspec.structs.replace(state, phase="over")
        umpire.announce(GameOver(scores=state.scores, early_win=early, winners=winners(state)))
        return state
    return _begin_round(state, state.round + 1, umpire)


def winners(state: DecadesState) -> tuple[int, ...]:
    """T6: the higher score wins (early or after round 4); equal scores draw."""
    best = max(state.scores)
    return tuple(s for s in range(TEAMS) if state.scores[s] == best)
