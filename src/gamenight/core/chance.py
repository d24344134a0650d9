"""Chance made explicit (issue 28): the dice an action throws, as outcomes with exact
probabilities, and the action played with an outcome of one's choosing.

The dice live inside the state (house style), so a copy of a state carries its real
future: a search that calls ``Game.apply`` on a copy sees the dice to come. This module
lets it plan without them, the way OpenSpiel's ``chance_outcomes()`` does:

* :meth:`Chance.outcomes` lists every outcome of ``apply(state, seat, action)``'s dice
  with its probability as a :class:`~fractions.Fraction` (summing to exactly 1);
* :meth:`Chance.next_throw` gives them one throw at a time, for a search that expands
  a long chain of throws only where it goes (a Javelin attempt with no odd die fails and
  throws the next attempt's six dice: three such attempts make 374,000 outcomes);
* :meth:`Chance.apply_outcome` plays the action with the dice of a chosen outcome;
* :meth:`Chance.start_outcomes`, :meth:`Chance.start_next_throw` and
  :meth:`Chance.start_with` do the same for ``start`` (The Decades draws its question and
  action cards there, one card of the pool left at a time: ``start_next_throw``);
* :func:`hide` takes the real future dice out of a state: any later throw from it must
  come through :meth:`Chance.apply_outcome`;
* the **aggregated** forms, beside the per-throw one (issue 45): :func:`marginal` sums
  any outcomes' probabilities by what matters (a key), :meth:`DiceChance.aggregated`
  does it for an action's outcomes by a key of the Transition each gives, and
  :func:`sum_outcomes` is a throw's distribution when only its total matters, by
  convolution (a High Jump jump: 26 totals, not 252 multisets). Each equals the
  marginalised per-throw form exactly (Fractions; ``tests/core/test_chance.py``).

An **outcome** is one tuple of faces per throw the rules make during the call, in order
(an action may throw more than once: ending a Decathlon attempt throws the next one's
first dice, and what those are decides whether a third throw follows). Throws of dice of
at most six sides are listed up to the order of the dice, one outcome per multiset (in
ascending order) weighted by its number of orderings, as the solvers count them
(``docs/solvers.md``): the rules treat the dice of one throw alike. A draw with more
sides (a card from The Decades' deck, a 7- or 8-sided Decathlon order draw) is listed
face by face.

This works for any game whose rules throw through the state's ``dice`` field (every
game here does, through :class:`~gamenight.core.umpire.Umpire`): :func:`dice_chance`
is the ``GameInfo.chance`` capability of the four built-in games.

>>> from gamenight.core import registry
>>> game = registry.get("decathlon").game
>>> chance = dice_chance(game)
>>> opts = game.parse_options({"events": "shot-put"})
>>> start = chance.start_outcomes(1, opts)  # the first Shot Put die
>>> [(o, str(p)) for o, p in start][:2], sum(p for _, p in start)
([(((1,), (1,), (1,)), '1/216'), (((1,), (1,), (2,)), '1/216')], Fraction(1, 1))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Protocol

import msgspec

from gamenight.core.errors import GamenightError

Faces = tuple[int, ...]
Outcome = tuple[Faces, ...]  # the faces of each throw of one call, in order
MAX_OUTCOMES = 100_000  # a longer flat list: use next_throw, throw by throw
MULTISET_SIDES = 6  # throws of dice with at most this many sides are listed as multisets


class ChanceError(GamenightError, ValueError):
    """An outcome that does not fit the throws, or the hidden future was asked for."""


class Chance(Protocol):
    """The ``GameInfo.chance`` capability: a game's chance nodes, made explicit."""

    def outcomes(
        self, state: Any, seat: int, action: Any, *, limit: int = MAX_OUTCOMES
    ) -> tuple[tuple[Outcome, Fraction], ...]:
        """Every outcome of the dice ``action`` throws, with its exact probability
        (ChanceError past ``limit`` outcomes)."""
        ...

    def next_throw(
        self, state: Any, seat: int, action: Any, prefix: Outcome = ()
    ) -> tuple[tuple[Faces, Fraction], ...] | None:
        """The outcomes of the throw after ``prefix`` (None: ``prefix`` is a whole outcome)."""
        ...

    def apply_outcome(self, state: Any, seat: int, action: Any, outcome: Outcome) -> Any:
        """``apply(state, seat, action)`` with the dice of ``outcome``: a Transition."""
        ...

    def start_outcomes(
        self, players: int, options: Any, *, limit: int = MAX_OUTCOMES
    ) -> tuple[tuple[Outcome, Fraction], ...]:
        """Every outcome of the dice ``start`` throws."""
        ...

    def start_next_throw(
        self, players: int, options: Any, prefix: Outcome = ()
    ) -> tuple[tuple[Faces, Fraction], ...] | None:
        """The outcomes of ``start``'s throw after ``prefix`` (None: a whole outcome)."""
        ...

    def start_with(self, players: int, options: Any, outcome: Outcome) -> Any:
        """``start(players, options, ...)`` with the dice of ``outcome``: a Transition."""
        ...


class HiddenDice(msgspec.Struct, frozen=True, gc=False, tag="hidden"):
    """A dice source that will not say its future (see :func:`hide`)."""

    def roll(self, n: int, sides: int = 6) -> tuple[Faces, HiddenDice]:
        raise ChanceError("the dice to come are hidden: throw them with Chance.apply_outcome")


def hide(state: Any) -> Any:
    """``state`` without its real future dice: a search's root.

    >>> from gamenight.core import registry
    >>> from gamenight.core.dice import SeededDice
    >>> game = registry.get("decathlon").game
    >>> state = hide(game.start(1, game.parse_options(), SeededDice(seed=1)).state)
    >>> state.dice
    HiddenDice()
    """
    return msgspec.structs.replace(state, dice=HiddenDice())


class _NeedThrow(Exception):
    """The rules asked for a throw past the given outcome's end (enumeration goes on)."""

    def __init__(self, n: int, sides: int) -> None:
        super().__init__(n, sides)
        self.n, self.sides = n, sides


class _ProbeDice(msgspec.Struct, frozen=True, gc=False):
    """Plays the throws of a (partial) outcome, then signals the next one asked for."""

    throws: Outcome
    used: int = 0
    sides: tuple[int, ...] = ()

    def roll(self, n: int, sides: int = 6) -> tuple[Faces, _ProbeDice]:
        if self.used == len(self.throws):
            raise _NeedThrow(n, sides)
        faces = self.throws[self.used]
        if len(faces) != n or not all(1 <= f <= sides for f in faces):
            raise ChanceError(
                f"throw {self.used + 1} of the outcome is {faces}; the rules throw {n} "
                f"dice of {sides} sides"
            )
        return faces, _ProbeDice(self.throws, self.used + 1, (*self.sides, sides))


@lru_cache(maxsize=256)
def throw_outcomes(n: int, sides: int = 6) -> tuple[tuple[Faces, Fraction], ...]:
    """The outcomes of one throw of ``n`` dice with ``sides`` sides and their exact
    probabilities: multisets (ascending, multinomial weights) up to six sides, else
    every ordered tuple.

    >>> [(f, str(p)) for f, p in throw_outcomes(2)][:3]
    [((1, 1), '1/36'), ((1, 2), '1/18'), ((1, 3), '1/18')]
    >>> len(throw_outcomes(5)), sum(p for _, p in throw_outcomes(5))
    (252, Fraction(1, 1))
    """
    total = sides**n
    if sides > MULTISET_SIDES:
        ordered = itertools.product(range(1, sides + 1), repeat=n)
        return tuple((faces, Fraction(1, total)) for faces in ordered)
    out = []
    for faces in itertools.combinations_with_replacement(range(1, sides + 1), n):
        orderings = math.factorial(n)
        for face in set(faces):
            orderings //= math.factorial(faces.count(face))
        out.append((faces, Fraction(orderings, total)))
    return tuple(out)


def marginal(
    outcomes: Sequence[tuple[Any, Fraction]], key: Callable[[Any], Any]
) -> tuple[tuple[Any, Fraction], ...]:
    """The distribution of ``key(outcome)``: the probabilities of the outcomes with the
    same key summed, exactly, in the order each key first appears.

    >>> [(k, str(p)) for k, p in marginal(throw_outcomes(2), sum)][:3]
    [(2, '1/36'), (3, '1/18'), (4, '1/12')]
    """
    out: dict[Any, Fraction] = {}
    for outcome, p in outcomes:
        k = key(outcome)
        out[k] = out.get(k, Fraction(0)) + p
    return tuple(out.items())


@lru_cache(maxsize=256)
def sum_outcomes(
    n: int, sides: int = 6, values: tuple[int, ...] | None = None
) -> tuple[tuple[int, Fraction], ...]:
    """The aggregated form of a throw where only the total matters: the exact
    distribution of the sum of ``n`` dice of ``sides`` sides, each face ``f`` counting
    ``values[f - 1]`` (default: ``f``), ascending by total.

    It is :func:`marginal` of :func:`throw_outcomes` by the total, computed by
    convolution instead: a High Jump jump (5 dice, D8) has 26 totals instead of 252
    multisets, and a bar's three jumps 26 per jump instead of 252 ** 3 (16 million)
    outcomes. The sprints' sets (D4: a six counts -6) are ``values=(1, 2, 3, 4, 5, -6)``.

    >>> [(t, str(p)) for t, p in sum_outcomes(2)][:3]
    [(2, '1/36'), (3, '1/18'), (4, '1/12')]
    >>> len(sum_outcomes(5)), sum(p for _, p in sum_outcomes(5))
    (26, Fraction(1, 1))
    >>> sum_outcomes(1, values=(1, 2, 3, 4, 5, -6))[0]
    (-6, Fraction(1, 6))
    """
    faces = tuple(range(1, sides + 1)) if values is None else values
    if len(faces) != sides:
        raise ChanceError(f"{len(faces)} face values for dice of {sides} sides")
    ways: dict[int, int] = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, count in ways.items():
            for v in faces:
                nxt[total + v] = nxt.get(total + v, 0) + count
        ways = nxt
    size = sides**n
    return tuple((total, Fraction(ways[total], size)) for total in sorted(ways))


class DiceChance:
    """:class:`Chance` for any game that throws through its state's ``dice`` field."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def outcomes(
        self, state: Any, seat: int, action: Any, *, limit: int = MAX_OUTCOMES
    ) -> tuple[tuple[Outcome, Fraction], ...]:
        return _enumerate(lambda dice: self.game.apply(_with(state, dice), seat, action), limit)

    def next_throw(
        self, state: Any, seat: int, action: Any, prefix: Outcome = ()
    ) -> tuple[tuple[Faces, Fraction], ...] | None:
        return _next(lambda dice: self.game.apply(_with(state, dice), seat, action), prefix)

    def apply_outcome(self, state: Any, seat: int, action: Any, outcome: Outcome) -> Any:
        return _play(
            lambda dice: self.game.apply(_with(state, dice), seat, action), outcome, state.dice
        )

    def aggregated(
        self,
        state: Any,
        seat: int,
        action: Any,
        key: Callable[[Any], Any],
        *,
        limit: int = MAX_OUTCOMES,
    ) -> tuple[tuple[Any, Fraction], ...]:
        """The distribution over what matters after ``action``: ``key`` of the
        Transition each outcome gives (its state's score, the state itself with
        :func:`hide`...), outcomes with the same key merged (:func:`marginal`)."""
        return marginal(
            self.outcomes(state, seat, action, limit=limit),
            lambda o: key(self.apply_outcome(state, seat, action, o)),
        )

    def start_outcomes(
        self, players: int, options: Any, *, limit: int = MAX_OUTCOMES
    ) -> tuple[tuple[Outcome, Fraction], ...]:
        return _enumerate(lambda dice: self.game.start(players, options, dice), limit)

    def start_next_throw(
        self, players: int, options: Any, prefix: Outcome = ()
    ) -> tuple[tuple[Faces, Fraction], ...] | None:
        return _next(lambda dice: self.game.start(players, options, dice), prefix)

    def start_with(self, players: int, options: Any, outcome: Outcome) -> Any:
        return _play(lambda dice: self.game.start(players, options, dice), outcome, HiddenDice())


def dice_chance(game: Any) -> DiceChance:
    """The ``GameInfo.chance`` capability of a game that throws through ``state.dice``."""
    return DiceChance(game)


def _with(state: Any, dice: Any) -> Any:
    return msgspec.structs.replace(state, dice=dice)


def _enumerate(
    run: Callable[[Any], Any], limit: int = MAX_OUTCOMES
) -> tuple[tuple[Outcome, Fraction], ...]:
    """Every outcome of the throws ``run(dice)`` makes: a depth-first walk of the throws,
    one rules call per node (a throw may decide whether another follows)."""
    done: list[tuple[Outcome, Fraction]] = []
    stack: list[tuple[Outcome, Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            run(_ProbeDice(prefix))
        except _NeedThrow as need:
            stack.extend(
                ((*prefix, faces), p * q)
                for faces, q in reversed(throw_outcomes(need.n, need.sides))
            )
            if len(stack) + len(done) > limit:
                raise ChanceError(
                    f"more than {limit:,} outcomes: too many to list (use next_throw)"
                ) from None
            continue
        done.append((prefix, p))
    return tuple(done)


def _next(run: Callable[[Any], Any], prefix: Outcome) -> tuple[tuple[Faces, Fraction], ...] | None:
    try:
        run(_ProbeDice(tuple(tuple(int(f) for f in faces) for faces in prefix)))
    except _NeedThrow as need:
        return throw_outcomes(need.n, need.sides)
    return None


def _play(run: Callable[[Any], Any], outcome: Sequence[Faces], source: Any) -> Any:
    """``run`` with the throws of ``outcome``; the new state's dice are ``source`` moved
    on past those throws (so the real outcome gives exactly ``apply``'s state), or hidden
    when ``source`` cannot say (hidden, or scripted dice run out)."""
    throws = tuple(tuple(int(f) for f in faces) for faces in outcome)
    try:
        transition = run(_ProbeDice(throws))
    except _NeedThrow as need:
        raise ChanceError(
            f"the outcome has {len(throws)} throws; the rules throw more ({need.n} dice next)"
        ) from None
    probe = transition.state.dice
    if probe.used != len(throws):
        raise ChanceError(f"the outcome has {len(throws)} throws; the rules made {probe.used}")
    after = source
    try:
        for faces, sides in zip(throws, probe.sides, strict=True):
            _, after = after.roll(len(faces), sides)
    except GamenightError:
        after = HiddenDice()
    return msgspec.structs.replace(transition, state=_with(transition.state, after))
