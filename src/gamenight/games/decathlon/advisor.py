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
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

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
    solve_all,
)
from gamenight.games.decathlon.solver import option_values as solver_values
from gamenight.games.decathlon.solver.common import TIE_EPS
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
    """A legal action of maximal value.

    Near-ties (within 1e-12) go, for a target or utility, to the higher expected
    score, then to the solver's order of options (stop before going on, fewer dice
    frozen first; jump, skip, retire), as :func:`solver.best_option` does.
    """
    values = option_values(view, legal, objective)
    top = max(values.values())
    tied = [a for a in legal if values[a] >= top - TIE_EPS]
    if len(tied) > 1 and not isinstance(objective, ExpectedScore):
        points = option_values(view, tied, EXPECTED)
        most = max(points.values())
        tied = [a for a in tied if points[a] >= most - TIE_EPS]
    if len(tied) == 1:
        return tied[0]
    order = list(_solver_values(view.discipline or "", situation(view), objective))
    return min(tied, key=lambda a: order.index(option_key(view, a)))


@cache
def warm() -> None:
    """Solve every event once (about 0.13 s) so that no decision pays for it later."""
    solve_all()


@lru_cache(maxsize=1 << 14)
def _solver_values(event: str, where: Situation, objective: AnyObjective) -> dict[Option, float]:
    # Positions repeat a lot over many games; the solver's answer is a pure function.
    return solver_values(event, where, objective)
