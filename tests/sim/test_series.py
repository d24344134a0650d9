"""Seeded series of all-bot games."""

from __future__ import annotations

import pytest

from gamenight.core import OptionsError, registry
from gamenight.sim import run_series


def test_series_are_reproducible_and_shares_add_up() -> None:
    entry = registry.get("dice-duel")
    first = run_series(entry, ["turn-optimal", "random"], games=20, seed=5)
    again = run_series(entry, ["turn-optimal", "random"], games=20, seed=5)
    assert [s.mean_score for s in first.seats] == [s.mean_score for s in again.seats]
    assert sum(s.win_share for s in first.seats) == pytest.approx(1.0)
    assert first.seats[0].win_share > 0.9  # the exact bot crushes random


def test_solo_series_report_the_mean_score() -> None:
    entry = registry.get("dice-duel")
    report = run_series(
        entry, ["random"], games=5, seed=0, options=entry.game.parse_options({"mode": "solo"})
    )
    assert report.seats[0].win_share == 1.0
    assert 0 < report.seats[0].mean_score <= 1000


@pytest.mark.parametrize(
    ("bots", "games", "message"),
    [(["genius"], 3, "unknown bot 'genius'"), (["random", "random"], 0, "at least one game")],
)
def test_bad_series_are_refused(bots: list[str], games: int, message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        run_series(registry.get("wurfeltod"), bots, games=games)
