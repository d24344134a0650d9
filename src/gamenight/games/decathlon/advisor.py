"""The bridge from the table to the exact solver: what each legal action is worth.

:func:`situation` turns a seat's :class:`DecathlonView` at a decision into the
solver's situation, :func:`option_key` turns an engine action into the solver's
option, and :func:`option_values` values every legal action for an objective:

* :class:`ExpectedScore` -- the expected final result of this event (no valid
  result counts 0, D3/D11; sprint values include the sets already frozen);
* :class:`Target` -- the probability that the final result reaches ``t``
  (``>= t``, or ``> t`` with ``strict``);
* :class:`Utility` -- ``E[u(final result)]``, e.g. Championship honours (D11).

How the engine's decisions map onto the solver (see ``docs/solvers-decathlon.md``):

* the view's ``set_no`` counts sets from 1, the solver's ``set_index`` from 0;
  the solver's ``score_so_far`` is the sprint score of the view's ``frozen`` (D4);
* a :class:`Freeze` names positions in ``thrown``; the solver values the
  multiset of values they show, so freezes of equal values are worth the same;
* a pole vaulter's :class:`Jump` commits to the height and each :class:`Vault`
  picks the dice for one jump, the solver's ``HeightSituation(committed=True,
  jumps_used=...)`` (D9).

Values are exact (backward induction over each event, :mod:`.solver`); a
decision costs a table look-up once the event is solved (``solve_all`` ~0.13 s).

:func:`advise` (the game's registered advisor) turns these values into an
:class:`~gamenight.core.advice.Advice`, the terminal's ``?`` hint as data. One
option per distinct choice (freezes of equal values are one option; it names the
first such choice of positions), best expected result first, with the columns:

* **expected result** -- this discipline's expected final result with optimal
  play afterwards (no valid result counts 0, D3/D11): what ``optimal`` maximises;
* **P(result >= t)** -- once another player has posted a valid result in this
  discipline: the chance to reach the best posted result ``t`` (the note names
  whose it is), with target-optimal play afterwards. In the last discipline of a
  points game ``t`` is instead the result that ties the best total posted so
  far (the others' running totals plus their best here), which is what
  ``competitive`` maximises there (:mod:`.competition`);
* **E[honours]** -- Championship only, once someone has posted: the expected
  honours against the posted results (D11), what ``competitive`` maximises there.

The first objective's ``best`` is the ``optimal`` bot's choice; the objective
``competitive`` plays for (named in the advice's note) has its choice as ``best``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from gamenight.core.advice import Advice
from gamenight.core.advice import Objective as Column
from gamenight.core.advice import Option as Row
from gamenight.core.game import to_json
from gamenight.games.decathlon.actions import (
    Action,
    Freeze,
    Jump,
    Rethrow,
    Retire,
    Skip,
    Stop,
    Throw,
    Vault,
)
from gamenight.games.decathlon.competition import (
    competitive_objective,
    honours_utility,
    posted_results,
)
from gamenight.games.decathlon.disciplines import sprint_score
from gamenight.games.decathlon.solver import (
    AnyObjective,
    ExpectedScore,
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    NoDecisionError,
    Option,
    ShotPutSituation,
    Situation,
    SprintSituation,
    Target,
    solve_all,
)
from gamenight.games.decathlon.solver import best_option as solver_best_option
from gamenight.games.decathlon.solver import option_values as solver_values
from gamenight.games.decathlon.view import DecathlonView

EXPECTED = ExpectedScore()
WORDS: dict[type[Action], str] = {
    Rethrow: "rethrow",
    Jump: "jump",
    Stop: "stop",
    Throw: "throw",
    Skip: "skip",
    Retire: "retire",
}
SPRINTS = ("100m", "400m", "1500m")


def situation(view: DecathlonView) -> Situation:
    """The solver's situation for the decision ``view`` awaits from ``view.to_act``.

    Raises :class:`NoDecisionError` when the view awaits no decision (game over).
    """
    event, seat, phase = view.discipline, view.to_act, view.phase
    if event is None or seat is None:
        raise NoDecisionError("the decathlon is over: nothing to decide")
    mine = view.best[seat] if view.best else None
    if phase == "keep-or-rethrow":
        rethrows = view.rethrows_left or 0
        if event in SPRINTS:
            # D4: the view counts sets from 1; frozen sets are already scored.
            set_index = (view.set_no or 1) - 1
            return SprintSituation(set_index, rethrows, view.thrown, sprint_score(view.frozen))
        return HurdlesSituation(rethrows, view.thrown)
    if phase in ("run-up-freeze", "rethrow-or-jump"):
        thrown = view.thrown if phase == "run-up-freeze" else ()
        return LongJumpSituation("run-up", view.frozen, thrown, view.attempt, mine)
    if phase == "jump-freeze":
        return LongJumpSituation("jump", view.frozen, view.thrown, view.attempt, mine)
    if phase == "throw-or-stop":
        return ShotPutSituation(view.shot, view.attempt, mine)
    if phase in ("freeze", "rethrow-or-stop"):
        thrown = view.thrown if phase == "freeze" else ()
        return FreezeSituation(view.frozen, thrown, view.attempt, mine)
    if phase in ("jump-or-skip", "vault-dice"):
        committed = phase == "vault-dice"
        jumps = (view.jumps_at_height or 0) if committed else 0
        return HeightSituation(view.height or 0, mine, committed, jumps)
    raise NoDecisionError(f"no decision in phase {phase!r}")


def option_key(view: DecathlonView, action: Action) -> Option:
    """The solver's option for an engine action at this decision.

    A freeze of dice (Long Jump, Discus, Javelin) becomes the sorted values it
    freezes; freezing a whole set (sprints, hurdles) is ``"freeze"``.
    """
    if isinstance(action, Freeze):
        if view.phase == "keep-or-rethrow":
            return "freeze"
        return tuple(sorted(view.thrown[i] for i in action.dice))
    if isinstance(action, Vault):
        return action.dice
    return WORDS[type(action)]


def option_values(
    view: DecathlonView, legal: Sequence[Action], objective: AnyObjective = EXPECTED
) -> dict[Action, float]:
    """The value of every legal action under ``objective`` (optimal play afterwards)."""
    values = _solver_values(view.discipline or "", situation(view), objective)
    out: dict[Action, float] = {}
    for action in legal:
        key = option_key(view, action)
        if key not in values:
            raise ValueError(f"the solver has no option {key!r} for {action!r} in {view.phase}")
        out[action] = values[key]
    return out


def best_action(
    view: DecathlonView, legal: Sequence[Action], objective: AnyObjective = EXPECTED
) -> Action:
    """A legal action of maximal value: the first legal action whose option is
    :func:`solver.best_option`'s, so bots, hints and the solver's policy tables
    follow the one tie rule (:mod:`gamenight.solve.ties`)."""
    best = _best_option(view.discipline or "", situation(view), objective)
    for action in legal:
        if option_key(view, action) == best:
            return action
    raise ValueError(f"the solver's best option {best!r} is not legal in {view.phase}")


@lru_cache(maxsize=1 << 14)
def _best_option(event: str, where: Situation, objective: AnyObjective) -> Option:
    return solver_best_option(event, where, objective)


@cache
def warm() -> None:
    """Solve every event once (about 0.13 s) so that no decision pays for it later."""
    solve_all()


@lru_cache(maxsize=1 << 14)
def _solver_values(event: str, where: Situation, objective: AnyObjective) -> dict[Option, float]:
    # Positions repeat a lot over many games; the solver's answer is a pure function.
    return solver_values(event, where, objective)


# ----- advice: the hint as data --------------------------------------------------------
@dataclass(frozen=True)
class Recommendation:
    """The advice and the two bots' choices in it (indices into ``advice.options``)."""

    advice: Advice
    actions: tuple[Action, ...]  # the action of each option, in the same order
    optimal: int
    competitive: int
    goal: str  # what competitive plays for, in words ("" when it plays like optimal)


def advise(
    view: DecathlonView,
    seat: int,
    legal: Sequence[Action],
    names: Sequence[str] | None = None,
) -> Advice | None:
    """The value of every legal option at ``seat``'s decision; ``None`` with no choice.

    ``names`` (seat names) only word the note on whose result a target is.
    """
    if seat != view.to_act:
        return None
    found = recommend(view, legal, names)
    return None if found is None else found.advice


def recommend(
    view: DecathlonView, legal: Sequence[Action], names: Sequence[str] | None = None
) -> Recommendation | None:
    """:func:`advise` with the ``optimal`` and ``competitive`` recommendations."""
    if len(legal) < 2 or view.to_act is None:
        return None
    try:
        return _recommend(view, legal, names)
    except (NoDecisionError, ValueError):
        return None  # a decision the solver cannot value gives no hint rather than an error


def _recommend(
    view: DecathlonView, legal: Sequence[Action], names: Sequence[str] | None
) -> Recommendation:
    expected = option_values(view, legal, EXPECTED)
    posted = posted_results(view) if view.players > 1 else []
    objective = competitive_objective(view)
    # The last discipline of a points game is played for the result that reaches the
    # best posted *total*, not the best posted result: show that target then.
    goal = objective if isinstance(objective, Target) else None
    target = goal.threshold if goal is not None else posted[0] if posted else None
    first: dict[Option, Action] = {}
    for action in legal:
        first.setdefault(option_key(view, action), action)  # equal values: one option
    actions = sorted(first.values(), key=lambda a: -expected[a])
    columns: list[tuple[Column, dict[Action, float]]] = []

    def column(name: str, unit: str, note: str, objective: AnyObjective) -> None:
        values = expected if objective == EXPECTED else option_values(view, legal, objective)
        choice = best_action(view, legal, objective)
        index = actions.index(first[option_key(view, choice)])
        columns.append((Column(name=name, unit=unit, best=index, note=note), values))

    column("expected result", "points", "", EXPECTED)
    if target is not None:
        whose = _whose(view, target, goal, names)
        column(f"P(result ≥ {target})", "probability", whose, goal or Target(target))
    if posted and view.variant == "championship":
        medals = honours_utility(posted)
        column("E[honours]", "honours", "against the results posted so far", medals)
    optimal = columns[0][0].best
    competitive, plays_for, words = optimal, "the expected result", ""
    if isinstance(objective, Target):
        competitive, plays_for = columns[1][0].best, columns[1][0].name
        words = f"a result of at least {target}"
    elif not isinstance(objective, ExpectedScore):
        competitive, plays_for, words = columns[-1][0].best, "E[honours]", "medals"
    rows = tuple(
        Row(
            action=to_json(action),
            label=label(action, view),
            values=tuple(values[action] for _, values in columns),
        )
        for action in actions
    )
    note = f"optimal plays for the expected result; competitive for {plays_for}"
    advice = Advice(objectives=tuple(c for c, _ in columns), options=rows, note=note)
    if competitive == optimal:
        words = ""
    return Recommendation(advice, tuple(actions), optimal, competitive, words)


def label(action: Action, view: DecathlonView) -> str:
    """Plain words for an action at this decision (front ends may add their keys).

    >>> view = DecathlonView(seat=0, players=1, variant="points", disciplines=("discus",),
    ...     discipline="discus", discipline_no=0, order=(0,), to_act=0, phase="freeze",
    ...     thrown=(6, 3, 2), freezable=(0, 2))
    >>> label(Freeze((0, 2)), view), label(Rethrow(), view)
    ('freeze dice 1 3 (showing 6 2)', 'rethrow')
    """
    if isinstance(action, Freeze):
        if view.phase == "keep-or-rethrow":
            return "freeze"
        positions = " ".join(str(i + 1) for i in action.dice)
        values = " ".join(str(view.thrown[i]) for i in action.dice if i < len(view.thrown))
        return f"freeze dice {positions} (showing {values})"
    if isinstance(action, Vault):
        return f"jump with {action.dice} dice"
    return WORDS[type(action)]


def _whose(
    view: DecathlonView, target: int, goal: Target | None, names: Sequence[str] | None
) -> str:
    """Whose posted result (or total) the target ``target`` is."""
    me = view.to_act
    assert me is not None

    def name(seat: int) -> str:
        return names[seat] if names is not None else f"seat {seat + 1}"

    if goal is not None:
        totals = view.totals or (0,) * view.players
        seat = next(
            s
            for s, total in enumerate(totals)
            if s != me and total + (view.best[s] or 0) - totals[me] == target
        )
        if view.sheet:  # no earlier discipline: the total is the best result
            return f"the result that ties {name(seat)}'s total"
    else:
        seat = next(s for s, r in enumerate(view.best) if s != me and r == target)
    return f"{name(seat)}'s best result so far"
