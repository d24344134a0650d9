"""Bots for The Decades: a knowledge level plus exact expected-points play.

Every bot has a knowledge level (:mod:`knowledge`): ``novice``, ``casual`` or
``expert``. From its beliefs it

* answers each question with the year that maximises the expected points of
  its answers so far under T5 (bonuses included), with the best extension
  tokens for them (:func:`planner.choose_year`);
* places its extension tokens by exhaustive search over every legal placement
  (:func:`planner.best_placement`);
* keeps Cancel the answer first, then Blocked, then Remove the Year Extension
  token;
* each round plays the card worth most now: Cancel takes away the other team's
  best expected answer, Remove their most valuable token, Blocked saves what
  their card is expected to cost us. Cards that the other team may hold are
  inferred from the public facts: the 14 cards minus our 7, minus what they
  already played (T3). Cancel and Remove are discounted by the chance of
  meeting a Blocked.

``random`` (uniform over legal actions) is added by the registry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

from gamenight.core.agents import Agent, Decision
from gamenight.games.decades.boards import SIDES
from gamenight.games.decades.cards import CARDS, KEPT, action_deck
from gamenight.games.decades.events import DecadesEvent
from gamenight.games.decades.knowledge import LEVELS, UNIFORM, Belief, belief, recall
from gamenight.games.decades.planner import Valuer, best_placement, choose_year
from gamenight.games.decades.rules import (
    Action,
    Answer,
    CancelAnswer,
    Extend,
    Keep,
    PlayCard,
    RemoveToken,
)
from gamenight.games.decades.tokens import Placement
from gamenight.games.decades.view import AskedQuestion, DecadesView, TeamView

# Keep preference (T3 cards by effect): cancelling an expected hit is worth most.
KEEP_RANK = {"cancel-answer": 0, "block": 1, "remove-token": 2}


@lru_cache(maxsize=16)
def answer_book(deck_option: str) -> dict[tuple[str, str], int]:
    """(category, text) -> year for the deck in play: what the bot "has read"."""
    from gamenight.games.decades.game import deck_for

    return {
        (q.category, q.text): q.year for card in deck_for(deck_option).cards for q in card.questions
    }


class KnowledgeBot:
    """A team that knows each answer with normal noise of ``LEVELS[level]`` years."""

    def __init__(self, level: str, seed: int) -> None:
        self.label = level
        self.sd = LEVELS[level]
        self._salt = f"{level}:{seed}"
        self._valuers: dict[tuple[str, str, str], Valuer] = {}

    # ----- knowledge ---------------------------------------------------------
    def belief(self, view: DecadesView, question: AskedQuestion) -> Belief:
        try:
            true_year = answer_book(view.deck).get((question.category, question.text))
        except ValueError:  # the deck cannot be read: the bot knows nothing
            true_year = None
        if true_year is None:
            return UNIFORM
        return belief(recall(true_year, question.text, self.sd, self._salt), self.sd)

    def valuers(self, view: DecadesView, team: int) -> list[Valuer]:
        """Our expected-points tables for ``team``'s answers to this round's questions."""
        side = view.teams[team].side
        found = []
        for question in view.questions:
            key = (question.category, question.text, side)
            if key not in self._valuers:
                self._valuers[key] = Valuer(self.belief(view, question), SIDES[side])
            found.append(self._valuers[key])
        return found

    # ----- decisions -------------------------------------------------------------
    def act(self, decision: Decision[DecadesView, Action]) -> Action:
        view = decision.view
        legal = decision.legal
        action = self._choose(view, decision.seat, legal)
        return action if action in legal else legal[0]

    def _choose(self, view: DecadesView, seat: int, legal: Sequence[Action]) -> Action:
        if view.phase == "keep":
            ranked = sorted(view.dealt, key=lambda c: KEEP_RANK[CARDS[c].effect])
            return Keep(tuple(sorted(ranked[:KEPT], key=view.dealt.index)))
        if view.phase == "answer":
            valuers = self.valuers(view, seat)
            mine = view.teams[seat].answers
            return Answer(choose_year(mine, valuers[: len(mine)], valuers[len(mine)]))
        if view.phase == "extend":
            tokens, _ = best_placement(view.teams[seat].answers, self.valuers(view, seat))
            return Extend(tokens)
        if view.phase == "card":
            return PlayCard(self._card(view, seat))
        return self._target(view, seat, legal)

    def _card(self, view: DecadesView, seat: int) -> str:
        me, them = view.teams[seat], view.teams[1 - seat]
        mine = self.valuers(view, seat)
        theirs = self.valuers(view, 1 - seat)
        pool = _their_possible_cards(view, seat)
        total = sum(pool.values()) or 1
        chance = {effect: 0.0 for effect in KEEP_RANK}
        for card, count in pool.items():
            chance[CARDS[card].effect] += count / total
        value = {
            "cancel-answer": (1 - chance["block"]) * max(_answer_values(them, theirs)),
            "remove-token": (1 - chance["block"]) * _best_removal(them, theirs)[1],
            "block": chance["cancel-answer"] * max(_answer_values(me, mine))
            + chance["remove-token"] * _best_removal(me, mine)[1],
        }
        held = list(dict.fromkeys(view.hand))
        return max(held, key=lambda c: (value[CARDS[c].effect], -KEEP_RANK[CARDS[c].effect]))

    def _target(self, view: DecadesView, seat: int, legal: Sequence[Action]) -> Action:
        them = view.teams[1 - seat]
        theirs = self.valuers(view, 1 - seat)
        if any(isinstance(a, RemoveToken) for a in legal):
            token, _ = _best_removal(them, theirs)
            return RemoveToken(token.length) if token else legal[0]
        values = _answer_values(them, theirs)
        best = max(range(len(values)), key=values.__getitem__)
        return CancelAnswer(view.questions[best].category)

    def observe(self, seat: int, events: Sequence[DecadesEvent]) -> None:
        return None


def _answer_values(team: TeamView, valuers: Sequence[Valuer]) -> list[float]:
    """Expected points of each of ``team``'s answers (from our belief)."""
    tokens = team.tokens or ()
    return [v.answer(a, tokens) for a, v in zip(team.answers, valuers, strict=True)]


def _best_removal(team: TeamView, valuers: Sequence[Valuer]) -> tuple[Placement | None, float]:
    """The token whose removal costs ``team`` the most expected points, and that cost."""
    tokens = team.tokens or ()
    full = sum(_answer_values(team, valuers))
    best: tuple[Placement | None, float] = (None, 0.0)
    for token in tokens:
        rest = tuple(t for t in tokens if t != token)
        loss = full - sum(v.answer(a, rest) for a, v in zip(team.answers, valuers, strict=True))
        if best[0] is None or loss > best[1]:
            best = (token, loss)
    return best


def _their_possible_cards(view: DecadesView, seat: int) -> Counter[str]:
    """The other team's 7 dealt cards (all 14 minus ours), minus what they played."""
    pool = Counter(action_deck()) - Counter(view.dealt)
    for past in view.log:
        pool -= Counter([past.cards[1 - seat]])
    return pool


def _factory(level: str) -> Callable[[int], Agent[DecadesView, Action, DecadesEvent]]:
    def make(seed: int) -> Agent[DecadesView, Action, DecadesEvent]:
        return KnowledgeBot(level, seed)

    return make


BOTS: dict[str, Callable[[int], Agent[DecadesView, Action, DecadesEvent]]] = {
    level: _factory(level) for level in LEVELS
}

novice, casual, expert = (BOTS[level] for level in ("novice", "casual", "expert"))
