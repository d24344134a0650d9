"""Year Extension tokens: where they may go (T4) and what an answer covers (T5).

A placement is a token length and its first year. The first year must be one of
the team's answer years this round ("a token goes under an answer token"), the
span stays inside that decade row, tokens never overlap, and each of the three
tokens (2, 3 and 4 years) is optional.

Reading of T4/T5 (see docs/rules/decades.md): a token covers its whole span for
*every* answer token lying on that span, so an answer in the middle of a token
also covers the token's earlier years ("the years under which extension tokens
are placed are considered to be the same year").

>>> covered(1988, (Placement(3, 1987),))
(1987, 1989)
>>> covered(1995, (Placement(3, 1987),))
(1995, 1995)
>>> str(placement_error((Placement(4, 2017),), (2017,)))
'the 4-year token at 2017 would cover 2017-2020 and leave the 2010s row (it must end by 2019)'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise

import msgspec

from gamenight.core.errors import IllegalActionError
from gamenight.games.decades.boards import decade_row, on_board, row_end

TOKEN_LENGTHS = (2, 3, 4)  # T4: one token of each length per team


class Placement(msgspec.Struct, frozen=True):
    """One extension token of ``length`` years, lying under ``start`` and the years after it."""

    length: int
    start: int

    @property
    def end(self) -> int:
        return self.start + self.length - 1

    @property
    def span(self) -> str:
        """Its years, first to last: ``1987-1990``."""
        return f"{self.start}-{self.end}"

    def spans(self, year: int) -> bool:
        return self.start <= year <= self.end

    def label(self) -> str:
        return f"{self.length}@{self.start}"


def canonical(tokens: Iterable[Placement]) -> tuple[Placement, ...]:
    """Tokens sorted by length: one spelling per placement."""
    return tuple(sorted(tokens, key=lambda t: (t.length, t.start)))


def covered(answer: int, tokens: Sequence[Placement]) -> tuple[int, int]:
    """The years an answer covers (T5): its own year, or the whole span of the token under it."""
    for token in tokens:
        if token.spans(answer):
            return token.start, token.end
    return answer, answer


def placement_error(
    tokens: Sequence[Placement], answers: Sequence[int]
) -> IllegalActionError | None:
    """Why ``tokens`` may not be placed under ``answers`` (None if they may), per T4: the
    refusal the rules raise, and the terminal says before sending (``i18n.said``)."""
    seen: set[int] = set()
    for token in tokens:
        if token.length not in TOKEN_LENGTHS:
            return IllegalActionError(
                "there is no {n}-year token (the tokens are {lengths} years long)",
                n=token.length,
                lengths=", ".join(map(str, TOKEN_LENGTHS)),
            )
        if token.length in seen:
            return IllegalActionError("the {n}-year token can be placed only once", n=token.length)
        seen.add(token.length)
        if not on_board(token.start):
            return IllegalActionError("{year} is not on the board (1980-2019)", year=token.start)
        if token.start not in answers:
            if not answers:
                return IllegalActionError(
                    "the {n}-year token must start under one of your answer tokens (none yet)",
                    n=token.length,
                )
            return IllegalActionError(
                "the {n}-year token must start under one of your answer tokens ({listed}); "
                "{year} has none",
                n=token.length,
                listed=", ".join(str(a) for a in sorted(set(answers))),
                year=token.start,
            )
        if token.end > row_end(token.start):
            return IllegalActionError(
                "the {n}-year token at {year} would cover {span} and leave the {row}s row "
                "(it must end by {end})",
                n=token.length,
                year=token.start,
                span=token.span,
                row=decade_row(token.start),
                end=row_end(token.start),
            )
    ordered = sorted(tokens, key=lambda t: t.start)
    for first, second in pairwise(ordered):
        if second.start <= first.end:
            return IllegalActionError(
                "the {a}-year token ({first}) and the {b}-year token ({second}) overlap",
                a=first.length,
                first=first.span,
                b=second.length,
                second=second.span,
            )
    return None


def legal_placements(answers: Sequence[int]) -> tuple[tuple[Placement, ...], ...]:
    """Every legal way to place the optional tokens under ``answers`` (canonical order)."""
    return _legal(tuple(sorted(set(answers))))


@lru_cache(maxsize=4096)
def _legal(starts: tuple[int, ...]) -> tuple[tuple[Placement, ...], ...]:
    # Each token is absent or starts at an answer year and stays in its row; then
    # drop combinations that overlap. Built shortest token first: canonical order.
    found: list[tuple[tuple[int, int], ...]] = [()]  # (start, end) spans
    for length in TOKEN_LENGTHS:
        spots = [(s, s + length - 1) for s in starts if s + length - 1 <= row_end(s)]
        found += [
            (*spans, spot)
            for spans in found
            for spot in spots
            if all(spot[0] > end or spot[1] < start for start, end in spans)
        ]
    found.sort(key=len)
    return tuple(tuple(Placement(e - s + 1, s) for s, e in spans) for spans in found)
