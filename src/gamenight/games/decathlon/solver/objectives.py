"""What a player wants from one event: the objectives the solvers optimise.

:class:`ExpectedScore` and :class:`Target` are solved in full, with their result
distributions.  :class:`Utility` generalises both -- maximise ``E[u(result)]`` for
any ``u`` given per integer result -- and is solved on demand for the decision
API only (option values, best option, situation value).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec


class ExpectedScore(msgspec.Struct, frozen=True):
    """Maximise the expected event result; no valid result counts 0 (D3, D11)."""


class Target(msgspec.Struct, frozen=True):
    """Maximise the probability that the event result is ``>= t`` (``> t`` if ``strict``).

    No valid result never reaches a target, however low: in the Championship an
    invalid result wins no medal (D3, D11) and a sprint result can be negative.

    >>> Target(20).threshold, Target(20, strict=True).threshold
    (20, 21)
    """

    t: int
    strict: bool = False

    @property
    def threshold(self) -> int:
        """The smallest result that meets the target."""
        return self.t + 1 if self.strict else self.t


Objective = ExpectedScore | Target
"""The objectives with full solutions (values, policies and distributions)."""


class Utility(msgspec.Struct, frozen=True):
    """Maximise ``E[u(result)]``: ``u(r) = values[r - low]`` for a valid result ``r``.

    Results below ``low`` take ``values[0]``, results above the table its last
    entry; no valid result is worth ``invalid``.  ``ExpectedScore`` is the
    utility ``u(r) = r`` (invalid 0) and ``Target(t)`` the step ``u(r) = [r >= t]``
    (invalid 0).  Championship honours against posted results are a sum of steps,
    one per medal line (:meth:`lines`).

    >>> u = Utility.lines((25, 20), base=1)
    >>> [u(r) for r in (None, 5, 20, 24, 25, 40)]
    [0.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    """

    low: int
    values: tuple[float, ...]
    invalid: float = 0.0

    def __post_init__(self) -> None:
        if not self.values:
            raise ValueError("a utility needs at least one value")

    def __call__(self, result: int | None) -> float:
        if result is None:
            return self.invalid
        i = min(max(result - self.low, 0), len(self.values) - 1)
        return self.values[i]

    @classmethod
    def lines(cls, lines: Iterable[int], *, base: float = 0.0, invalid: float = 0.0) -> Utility:
        """``u(r) = base + (number of lines <= r)`` for a valid ``r``; ``invalid`` otherwise.

        ``E[u] = base * P(valid) + sum over lines of P(result >= line)`` when
        ``invalid`` is 0.
        """
        steps = sorted(lines)
        if not steps:
            return cls(0, (float(base),), invalid)
        low, high = steps[0] - 1, steps[-1]
        values = tuple(float(base + sum(line <= r for line in steps)) for r in range(low, high + 1))
        return cls(low, values, invalid)


AnyObjective = Objective | Utility
"""Every objective the decision API accepts."""
