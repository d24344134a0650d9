"""What a player knows at a decision point, per event family, and the options.

Dice are tuples of face values in any order.  Options are returned as:

* plain actions (``str``): ``"freeze"``/``"rethrow"`` (sprints, hurdles),
  ``"stop"``/``"throw"`` (shot put), ``"stop"``/``"rethrow"`` (discus, javelin),
  ``"rethrow"``/``"jump"`` (long jump run-up), ``"jump"``/``"skip"``/``"retire"``
  (heights);
* freeze sets (``tuple[int, ...]``, sorted ascending): the dice to freeze among
  those just thrown.  The value of a freeze set assumes the best play afterwards,
  including the best stop/continue choice that follows it;
* dice counts (``int`` 1..8): how many dice a pole vaulter throws (D9).

Freezing and the stop/continue choice after it are two decisions: the first is
asked with ``thrown`` set to the dice just thrown, the second with ``thrown=()``
and the new frozen dice.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class NoDecisionError(ValueError):
    """The situation has no choice to make: the attempt is over or invalid."""


class SprintSituation(msgspec.Struct, frozen=True):
    """100 m / 400 m / 1500 m (D4), just after a throw of the current set.

    ``set_index`` counts sets from 0; ``rethrows_left`` is the number of the 5
    shared rethrows still unspent; ``score_so_far`` is the total of the sets
    already frozen; ``dice`` is the set just thrown.  Options: ``"freeze"`` and,
    if a rethrow is left, ``"rethrow"`` (with none left the throw is frozen
    automatically, so ``"freeze"`` is the only option).
    """

    set_index: int
    rethrows_left: int
    dice: tuple[int, ...]
    score_so_far: int = 0


class HurdlesSituation(msgspec.Struct, frozen=True):
    """110 m Hurdles (D5), just after a throw of all 5 dice.

    Options: ``"freeze"`` (keep this throw as the result) and, if
    ``rethrows_left > 0``, ``"rethrow"``.
    """

    rethrows_left: int
    dice: tuple[int, ...]


class LongJumpSituation(msgspec.Struct, frozen=True):
    """Long Jump (D6).

    ``phase="run-up"``: ``frozen`` are the run-up dice frozen so far.  With
    ``thrown`` the dice just thrown (all the unfrozen dice), the options are freeze
    sets (any non-empty sub-multiset; one that takes the frozen total over 8
    steps over and is valued as an invalid attempt).  With ``thrown=()`` the
    options are ``"rethrow"`` and ``"jump"`` (only ``"jump"`` once all 5 are frozen).

    ``phase="jump"``: ``frozen`` are the jump dice frozen so far, ``thrown`` the
    jump dice just thrown; the options are freeze sets.  The number of jump dice
    is ``len(frozen) + len(thrown)``.
    """

    phase: Literal["run-up", "jump"]
    frozen: tuple[int, ...]
    thrown: tuple[int, ...]
    attempt: int = 1
    best: int | None = None


class ShotPutSituation(msgspec.Struct, frozen=True):
    """Shot Put (D7): ``dice`` are this attempt's dice so far (none of them a 1).

    Options: ``"stop"`` (not before the first die) and ``"throw"`` (until 8 dice).
    """

    dice: tuple[int, ...]
    attempt: int = 1
    best: int | None = None


class FreezeSituation(msgspec.Struct, frozen=True):
    """Discus or Javelin (D10).

    With ``thrown`` the dice just thrown, the options are the freeze sets (non-empty
    sub-multisets of the allowed dice among them: even for discus, odd for
    javelin).  With ``thrown=()`` after a freeze, the options are ``"stop"`` and
    ``"rethrow"``.
    """

    frozen: tuple[int, ...]
    thrown: tuple[int, ...]
    attempt: int = 1
    best: int | None = None


class HeightSituation(msgspec.Struct, frozen=True):
    """High Jump (D8) or Pole Vault (D9) at bar ``height``.

    ``best`` is the highest height cleared so far (``None``: none).  Before
    choosing at this height (``committed=False``) the options are ``"jump"``,
    ``"skip"`` and ``"retire"``.  A pole vaulter who has chosen to jump
    (``committed=True``, ``jumps_used`` failed jumps so far at this height) picks
    a dice count 1..8 before each jump.  A committed high jumper has no choice.
    """

    height: int
    best: int | None = None
    committed: bool = False
    jumps_used: int = 0


Situation = (
    SprintSituation
    | HurdlesSituation
    | LongJumpSituation
    | ShotPutSituation
    | FreezeSituation
    | HeightSituation
)

Option = str | int | tuple[int, ...]
