"""The Decades' RL codec (``GameInfo.codec``; ``docs/rl.md`` lists every slot)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from typing import Any

from gamenight.core.codec import Codec, Obs, fill
from gamenight.core.options import Options


class DecadesCodec(Codec):
    """The Decades, one ``Discrete(411)`` space:

    * 0-14 Keep: the 15 multisets of 4 cards (counts of remove-token, cancel-answer,
      blocked), in the order of :func:`keep_counts`;
    * 15-54 Answer(year), 1980..2019;
    * 55-397 Extend: 55 + 49*a2 + 7*a3 + a4, where aL = 0 places no L-year token and
      aL = k+1 starts it under this round's answer in category k (0-5);
    * 398-400 PlayCard(card) in deck order; 401-403 RemoveToken(2, 3, 4);
    * 404-409 CancelAnswer(category) in category order;
    * 410 Wait: only in the parallel environment, for a team with nothing to choose.
    """

    game_id = "decades"
    WAIT = 410
    wait = WAIT
    view_indexed = True
    PHASES = ("keep", "answer", "extend", "card", "target", "over")
    PER_TEAM = 2 + 1 + 6 + 4 + 4 + 1 + 9 + 1 + 1  # side, score, answers, tokens, card, ...
    HEAD = 6 + 6 + 3 + 3 + 1 + 6  # phase, scalars, dealt, hand, pending, questions

    def __init__(self) -> None:
        super().__init__()
        from gamenight.games.decades.cards import ACTION_CARDS
        from gamenight.games.decades.deck import CATEGORIES

        self.cards = tuple(card.id for card in ACTION_CARDS)
        self.categories = tuple(CATEGORIES)
        self.n_actions = 411
        self.keeps = keep_counts(len(self.cards))
        self._keep = {k: i for i, k in enumerate(self.keeps)}

    def obs_size(self, players: int) -> int:
        return self.HEAD + 2 * self.PER_TEAM

    def score(self, view: Any, seat: int) -> float:
        return float(view.teams[seat].score)

    def index_at(self, view: Any, seat: int, action: Any) -> int:
        """Extend's index needs this round's answers, so the view comes along."""
        tag = type(action).__name__
        if tag == "Keep":
            counts = tuple(action.cards.count(c) for c in self.cards)
            return self._keep[counts]
        if tag == "Answer":
            return 15 + int(action.year) - 1980
        if tag == "Extend":
            answers = view.teams[seat].answers
            code = [0, 0, 0]
            for token in action.tokens:
                code[token.length - 2] = answers.index(token.start) + 1
            return 55 + 49 * code[0] + 7 * code[1] + code[2]
        if tag == "PlayCard":
            return 398 + self.cards.index(action.card)
        if tag == "RemoveToken":
            return 401 + int(action.length) - 2
        if tag == "CancelAnswer":
            return 404 + self.categories.index(action.category)
        raise KeyError(action)

    def legal_indices(
        self, actions: Sequence[Any], seat: int, view: Callable[[], Any]
    ) -> dict[int, Any]:
        found: dict[int, Any] = {}
        seen = view()
        for action in actions:
            found.setdefault(self.index_at(seen, seat, action), action)
        return found

    def index(self, action: Any) -> int:
        raise TypeError("Decades indices depend on the view: use index_at(view, seat, action)")

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        out[:] = 0
        out[self.PHASES.index(view.phase)] = 1
        out[6], out[7], out[8] = view.round, view.category, view.track
        out[9], out[10], out[11] = view.early_win, view.finished, len(view.log)
        for i, c in enumerate(self.cards):
            out[12 + i] = view.dealt.count(c)
            out[15 + i] = view.hand.count(c)
        out[18] = view.pending is not None
        # Only *whether* each question was read: its place in the deck would let a learner
        # memorise the deck's years (issue 28), so the codec never numbers questions.
        out[19 : 19 + len(view.questions)] = 1
        at = self.HEAD
        for s in (seat, 1 - seat):
            team = view.teams[s]
            out[at + (0 if team.side == "A" else 1)] = 1
            out[at + 2] = team.score
            fill(out, at + 3, [y - 1979 for y in team.answers], 6)
            if team.tokens is not None:
                out[at + 9] = 1
                for token in team.tokens:
                    out[at + 10 + token.length - 2] = token.start - 1979
            if team.card is not None:
                out[at + 13 + self.cards.index(team.card)] = 1
            out[at + 17] = team.effective
            target = team.target
            if target is not None:
                if type(target).__name__ == "RemoveToken":
                    out[at + 18 + target.length - 2] = 1
                else:
                    out[at + 21 + self.categories.index(target.category)] = 1
            out[at + 27] = team.cards_left
            out[at + 28] = team.to_act
            at += self.PER_TEAM


def keep_counts(kinds: int, kept: int = 4) -> list[tuple[int, ...]]:
    """Every way to keep ``kept`` cards of ``kinds`` kinds, as counts per kind.

    >>> len(keep_counts(3)), keep_counts(3)[:2]
    (15, [(0, 0, 4), (0, 1, 3)])
    """
    out = []
    for bars in combinations(range(kept + kinds - 1), kinds - 1):
        cuts = (-1, *bars, kept + kinds - 1)
        out.append(tuple(b - a - 1 for a, b in pairwise(cuts)))
    return out


def make(options: Options) -> DecadesCodec:
    """The ``codec`` capability (the same for every deck: no question is numbered)."""
    return DecadesCodec()
