"""Hints: the exact value of every legal option at a decision, for the terminal's ``?``.

Every distinct option gets one row (freezes of equal values are one option; the
row names the first such choice of positions), best expected result first:

* **expected result** -- this event's expected final result with optimal play
  afterwards (no valid result counts 0, D3/D11): what the ``optimal`` bot maximises;
* **P(result >= t)** -- shown once another player has posted a valid result in
  this event: the chance to reach the best posted result ``t`` (whose it is is
  named), with target-optimal play afterwards. In the last event of a points
  game ``t`` is instead the result that ties the best total posted so far (the
  others' running totals plus their best here), which is what ``competitive``
  maximises there (:mod:`.competition`);
* **E[honours]** -- Championship only, once someone has posted: the expected
  honours against the posted results (D11), what ``competitive`` maximises there.

The solver is imported on first use (numpy); a failure to value a decision gives
no hint rather than an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.markup import escape
from rich.table import Table as RichTable

from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.commands import describe
from gamenight.games.decathlon.view import DecathlonView


@dataclass(frozen=True)
class HintRow:
    """One option: the action that names it and its values (``None``: column not shown)."""

    action: Action
    label: str
    expected: float
    target: float | None
    honours: float | None


@dataclass(frozen=True)
class Hint:
    """The valued options at one decision and the two recommended actions."""

    rows: tuple[HintRow, ...]
    optimal: Action  # the expected-score choice (bot ``optimal``)
    competitive: Action  # the choice of bot ``competitive`` (same unless others posted)
    target: int | None  # the result to reach: the others' best posted result, if any,
    # or, in the last event of a points game, the result that ties the best total
    target_seat: int | None
    target_what: str = "best"  # "best": target_seat's best result; "total": their total


def build_hint(view: DecathlonView, legal: Sequence[Action]) -> Hint | None:
    """Value every legal option; ``None`` if there is no decision to value."""
    from gamenight.games.decathlon import advisor, competition
    from gamenight.games.decathlon.solver import ExpectedScore, NoDecisionError, Target

    if not legal or view.to_act is None:
        return None
    try:
        expected = advisor.option_values(view, legal, ExpectedScore())
        posted = competition.posted_results(view) if view.players > 1 else []
        objective = competition.competitive_objective(view)
        # The last event of a points game is played for the result that reaches the
        # best posted *total*, not the best posted result: show that target then.
        goal = objective if isinstance(objective, Target) else None
        target = goal.threshold if goal is not None else posted[0] if posted else None
        reach = None
        if target is not None:
            reach = advisor.option_values(view, legal, goal or Target(target))
        medals = None
        if posted and view.variant == "championship":
            medals = advisor.option_values(view, legal, competition.honours_utility(posted))
        optimal = advisor.best_action(view, legal, ExpectedScore())
        competitive = advisor.best_action(view, legal, objective)
    except (NoDecisionError, ValueError):
        return None
    rows: dict[object, HintRow] = {}
    for action in legal:
        key = advisor.option_key(view, action)
        if key in rows:
            continue  # the same values frozen from other positions: the same option
        rows[key] = HintRow(
            action,
            describe(action, view),
            expected[action],
            None if reach is None else reach[action],
            None if medals is None else medals[action],
        )
    ranked = sorted(rows.values(), key=lambda row: -row.expected)
    seat, what = None, "best"
    if goal is not None and target is not None:
        seat = _total_rival(view, target)
        what = "total" if view.sheet else "best"  # no earlier event: the total is the best
    elif target is not None:
        seat = next(s for s, r in enumerate(view.best) if s != view.to_act and r == target)
    return Hint(tuple(ranked), optimal, competitive, target, seat, what)


def _total_rival(view: DecathlonView, needed: int) -> int:
    """The rival whose total (so far, plus this event's best) ``needed`` would reach."""
    me, totals = view.to_act, view.totals or (0,) * view.players
    assert me is not None
    mine = totals[me]
    return next(
        s
        for s, total in enumerate(totals)
        if s != me and total + (view.best[s] or 0) - mine == needed
    )


def hint_table(hint: Hint, view: DecathlonView, names: Sequence[str] | None = None) -> RichTable:
    """The hint as a small Rich table (one row per distinct option)."""
    table = RichTable(title="Hint: value of each option (exact solver)", title_justify="left")
    table.add_column("option")
    table.add_column("expected result", justify="right")
    if hint.target is not None:
        who = (
            names[hint.target_seat]
            if names is not None and hint.target_seat is not None
            else f"seat {(hint.target_seat or 0) + 1}"
        )
        whose = f"to tie {who}'s total" if hint.target_what == "total" else f"{who}'s best"
        table.add_column(f"P(≥ {hint.target}) — {whose}", justify="right")
    champ = any(row.honours is not None for row in hint.rows)
    if champ:
        table.add_column(escape("E[honours]"), justify="right")
    table.add_column("")
    optimal_key = _key(view, hint.optimal)
    competitive_key = _key(view, hint.competitive)
    for row in hint.rows:
        cells = [row.label, f"{row.expected:.2f}"]
        if row.target is not None:
            cells.append(f"{row.target:.1%}")
        if row.honours is not None:
            cells.append(f"{row.honours:.3f}")
        marks = []
        key = _key(view, row.action)
        if key == optimal_key:
            marks.append("◀ optimal")
        if key == competitive_key and competitive_key != optimal_key:
            marks.append("◀ to beat the others" if not champ else "◀ for medals")
        cells.append(" ".join(marks))
        table.add_row(*cells)
    return table


def hint_line(hint: Hint, view: DecathlonView) -> str:
    """One sentence: the optimal action, and the competitive one where it differs."""
    best = next(row for row in hint.rows if _key(view, row.action) == _key(view, hint.optimal))
    text = f"Hint: the optimal play is to {best.label}: expected result {best.expected:.2f}."
    if _key(view, hint.competitive) != _key(view, hint.optimal):
        other = next(
            row for row in hint.rows if _key(view, row.action) == _key(view, hint.competitive)
        )
        goal = "medals" if other.honours is not None else f"a result of at least {hint.target}"
        text += f" To play for {goal}: {other.label}."
    return text


def _key(view: DecathlonView, action: Action) -> object:
    from gamenight.games.decathlon.advisor import option_key

    return option_key(view, action)
