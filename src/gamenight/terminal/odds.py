"""Live win odds as text, for any game with the ``odds`` capability (``GameInfo.odds``).

>>> from gamenight.core.odds import Odds
>>> odds_line(3, Odds(win=(0.625, 0.375)), ["Ann", "Bob"], "100 Metres")
'   3. 100 Metres     Ann  62.5%  Bob  37.5%'
>>> odds_cells(Odds(win=(0.5, 0.5), exact=False, se=(0.01, 0.01)), ["Ann", "Bob"])
'Ann  50.0% ±1.0%  Bob  50.0% ±1.0%'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.core.i18n import N_, format_chance, gettext
from gamenight.core.odds import Odds
from gamenight.core.registry import GameEntry, stage_function

ASSUMPTION = N_(
    "the odds assume every player, bots included, plays for the most points "
    "(a weak bot wins less often than shown)"
)
"""Said wherever live odds are shown: the odds capability does not model bot strength."""


def assumption() -> str:
    """:data:`ASSUMPTION` in the player's language."""
    return gettext(ASSUMPTION)


def odds_cells(odds: Odds, names: Sequence[str]) -> str:
    """Each seat's chance, with its standard error when estimated; a second series
    (``odds.also``) follows after its label, and then the first is labelled too.

    >>> both = Odds(win=(0.6, 0.4), label="points play", also=(0.55, 0.45), also_label="win play")
    >>> odds_cells(both, ["Ann", "Bob"])
    'points play: Ann  60.0%  Bob  40.0% | win play: Ann  55.0%  Bob  45.0%'
    """
    se = odds.se if not odds.exact and odds.se is not None else None

    def cell(name: str, p: float) -> str:
        return f"{name} {format_chance(p, places=1):>6}"

    cells = "  ".join(
        cell(name, p) + (f" ±{format_chance(se[i], places=1)}" if se is not None else "")
        for i, (name, p) in enumerate(zip(names, odds.win, strict=True))
    )
    if odds.also is None:
        return cells
    also = "  ".join(cell(name, p) for name, p in zip(names, odds.also, strict=True))
    return f"{odds.label}: {cells} | {odds.also_label or 'also'}: {also}"


def odds_line(seq: int, odds: Odds, names: Sequence[str], stage: str | None = None) -> str:
    """One line of the ``replay --odds`` track: after action ``seq`` (in ``stage``, the
    part of the game the ``stage`` capability names), each seat's chance."""
    return f"{seq:4d}. {stage or '':<14} {odds_cells(odds, names)}"


def live_odds(entry: GameEntry, view: Any) -> Odds | None:
    """``entry``'s odds for the spectator ``view``, or None (no capability, nothing to tell)."""
    odds = entry.odds
    return None if odds is None else odds(view)


def stage_of(entry: GameEntry, view: Any) -> str | None:
    """The part of the game ``view`` is in (the ``stage`` capability), or None."""
    stage = stage_function(entry.game.info.stage)
    return None if stage is None else stage(view)
