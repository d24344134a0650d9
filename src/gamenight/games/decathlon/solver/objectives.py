"""What a player wants from one event: the two objectives the solvers optimise."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExpectedScore:
    """Maximise the expected event result; no valid result counts 0 (D3, D11)."""


@dataclass(frozen=True)
class Target:
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
