"""Fast simulation: series of seeded all-bot games and their statistics."""

from gamenight.sim.series import SeatReport, SeriesReport, run_series

__all__ = ["SeatReport", "SeriesReport", "run_series"]
