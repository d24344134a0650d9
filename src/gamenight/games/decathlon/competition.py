"""What the ``competitive`` bot plays for, given the results the others have posted.

"Posted" results are the others' best valid results so far in the current event,
as the view shows them (``view.best``): finished runs in the sprints and hurdles,
best attempts so far in the 3-attempt events (D3), heights cleared so far (D8,
D9). They are taken as they stand; results the others may still improve or post
later are not forecast.

* **Nobody has posted** a valid result (or the game has one player): play for
  the expected event score, like ``optimal``.
* **Points game** (D11): the game is won on the total, so only the last event
  of the game is played for a target: the result needed to reach the best total
  the others have posted (their running total plus their best result so far in
  this event), ``P(result >= needed)``. In a single-event game that is exactly
  the best posted result. Earlier events are played for the expected score: a
  first version that chased every event's best posted result in the 3-attempt
  and height events lost 4 points a game and won only 30.3% of 3-player games
  against two ``optimal`` bots (bench/RESULTS.md), because an event's posted
  result says little about who wins on the total.
* **Championship** (D11): maximise the expected honours given the posted results.
  A valid result ``r`` ranks ``1 + #(others posted strictly above r)``, so with the
  posted results sorted best first as the gold, silver and bronze lines ``L1 >=
  L2 >= L3``, honours(r) = ``(3 - #lines) + #(lines <= r)`` and no valid result
  earns 0: ``E[honours] = (3 - #lines) P(valid) + sum_k P(result >= Lk)``
  (:func:`honours_utility`).
"""

from __future__ import annotations

from collections.abc import Sequence

from gamenight.games.decathlon.scoring import MEDALS
from gamenight.games.decathlon.solver import AnyObjective, ExpectedScore, Target, Utility
from gamenight.games.decathlon.view import DecathlonView


def posted_results(view: DecathlonView) -> list[int]:
    """The others' best valid results so far in this event, best first."""
    me = view.to_act
    return sorted(
        (r for seat, r in enumerate(view.best) if seat != me and r is not None), reverse=True
    )


def honours_utility(posted: Sequence[int]) -> Utility:
    """D11 honours of my result against ``posted`` (the others' valid results).

    >>> u = honours_utility([27, 25, 20])
    >>> [u(r) for r in (None, 19, 20, 25, 26, 27, 30)]
    [0.0, 0.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    >>> honours_utility([24])(10), honours_utility([24])(24)
    (2.0, 3.0)
    """
    lines = sorted(posted, reverse=True)[: len(MEDALS)]
    return Utility.lines(lines, base=len(MEDALS) - len(lines))


def competitive_objective(view: DecathlonView) -> AnyObjective:
    """The objective ``competitive`` plays at this decision (see the module text)."""
    posted = posted_results(view)
    if view.players < 2 or not posted or view.discipline is None:
        return ExpectedScore()
    if view.variant == "championship":
        return honours_utility(posted)
    if view.discipline_no != len(view.disciplines) - 1:
        return ExpectedScore()
    return _points_target(view)


def _points_target(view: DecathlonView) -> AnyObjective:
    """Last event of a points game: reach the best total the others have posted."""
    me = view.to_act
    assert me is not None
    totals = view.totals or (0,) * view.players
    rivals = [total + (view.best[seat] or 0) for seat, total in enumerate(totals) if seat != me]
    needed = max(rivals) - totals[me]
    if needed <= 0:  # already level or ahead whatever happens: bank the expected score
        return ExpectedScore()
    return Target(needed, strict=False)
