"""Live odds: each seat's chance to win the game from here, as data.

A game that can tell registers ``odds(view) -> Odds | None`` (the
``GameInfo.odds`` capability); it gets the spectator view, so odds never rest on
a secret. ``None`` means there is nothing to tell (one player, or the game is
over). The terminal and the browser show the same object; nothing here knows
how it is shown.

``win`` holds one probability per seat. When ties share the win the chances add
up to 1; a game may instead count a tie for first as a win for each tied seat
(its ``label`` says so), and then they may add up to a little more.  ``exact``
is False for an estimate (a simulation), with the standard error of each
chance in ``se``. ``also`` is an optional second series of exact chances under
another objective, named by ``also_label``.

>>> odds = Odds(win=(0.625, 0.375))
>>> odds.exact, odds.label
(True, 'chance to win')
>>> msgspec.json.decode(msgspec.json.encode(odds), type=Odds) == odds
True
"""

from __future__ import annotations

import msgspec


class Odds(msgspec.Struct, frozen=True, kw_only=True):
    """Each seat's chance to win; ``se`` (one per seat) when the chances are estimated."""

    win: tuple[float, ...]
    exact: bool = True
    se: tuple[float, ...] | None = None
    label: str = "chance to win"  # what ``win`` measures, for people
    # a second objective's chances, where a game has one (e.g. both playing to win
    # rather than for points), and what they measure; front ends show both, labelled
    also: tuple[float, ...] | None = None
    also_label: str | None = None
