"""``--out DIR``: one row per game (CSV and Parquet), a summary JSON and report.html.

The rows hold the game (its position in the run, unique), the game's dice seed,
the seats (bot per seat), the line-up (its bots in their own order, whatever the
seat rotation), the scores, the ranks, the winners and the duration. Lists are
joined with ``;`` in the CSV and kept as lists in Parquet. ``report.html`` is one
self-contained file: inline SVG plots, no scripts, no external files, and the same
bytes for the same run (no durations or memory figures; ``summary.json`` has them).
"""

from __future__ import annotations

import csv
import html
import json
import math
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from gamenight.core.extras import load
from gamenight.sim.engine import GameRow
from gamenight.sim.series import SeriesReport, by_entrant
from gamenight.sim.tournament import TournamentReport

STRENGTH_NOTE = (
    "<p>Strength: a Bradley–Terry fit of all the games at once by maximum likelihood (every"
    " pair of seats in a game a comparison; Elo scale, mean 0, 95% interval), the same for the"
    " games in any order; the standings follow it. mu, sigma and ordinal (mu − 3 sigma) are"
    " openskill's Plackett–Luce ratings, updated game by game in game order.</p>"
)
COLUMNS = ("game", "seed", "seats", "lineup", "scores", "ranks", "winners", "seconds")


def _finite(value: Any) -> Any:
    """JSON has no NaN: None instead."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def series_summary(report: SeriesReport) -> dict[str, Any]:
    """The printed table as data (what ``--json`` prints)."""
    data = asdict(report)
    data.pop("rows")
    data["options"] = {k: _plain(v) for k, v in report.options.items()}
    data["seconds"] = round(report.seconds, 3)
    data["lineup"] = report.bots
    return _finite(data)  # type: ignore[no-any-return]  # _finite gives back the dict it was given


def tournament_summary(report: TournamentReport) -> dict[str, Any]:
    data = asdict(report)
    data.pop("rows")
    data["options"] = {k: _plain(v) for k, v in report.options.items()}
    data["seconds"] = round(report.seconds, 3)
    for standing, original in zip(data["standings"], report.standings, strict=True):
        standing["rating"]["ordinal"] = original.rating.ordinal
    return _finite(data)  # type: ignore[no-any-return]  # _finite gives back the dict it was given


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def write_rows(rows: Sequence[GameRow], out: Path) -> tuple[Path, Path]:
    """games.csv and games.parquet, one row per game, in game order."""
    pa = load("pyarrow", "--out", "sim")
    pq = load("pyarrow.parquet", "--out", "sim")

    out.mkdir(parents=True, exist_ok=True)
    csv_path, parquet_path = out / "games.csv", out / "games.parquet"
    with csv_path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow(
                [
                    r.key,
                    str(r.seed),
                    ";".join(r.bots),
                    ";".join(r.lineup),
                    ";".join(f"{s:g}" for s in r.scores),
                    ";".join(map(str, r.ranks)),
                    ";".join(map(str, r.winners)),
                    f"{r.seconds:.6f}",
                ]
            )
    table = pa.table(
        {
            "game": pa.array([r.key for r in rows], pa.int64()),
            "seed": pa.array([str(r.seed) for r in rows], pa.string()),  # up to 64 bits
            "seats": pa.array([list(r.bots) for r in rows], pa.list_(pa.string())),
            "lineup": pa.array([list(r.lineup) for r in rows], pa.list_(pa.string())),
            "scores": pa.array([list(r.scores) for r in rows], pa.list_(pa.float64())),
            "ranks": pa.array([list(r.ranks) for r in rows], pa.list_(pa.int32())),
            "winners": pa.array([list(r.winners) for r in rows], pa.list_(pa.int32())),
            "seconds": pa.array([r.seconds for r in rows], pa.float64()),
        }
    )
    pq.write_table(table, parquet_path)
    return csv_path, parquet_path


def write_series(report: SeriesReport, out: Path) -> list[Path]:
    from gamenight.sim import plots

    paths = list(write_rows(report.rows, out))
    summary = out / "summary.json"
    summary.write_text(json.dumps(series_summary(report), indent=1) + "\n", encoding="utf-8")
    lineup = ", ".join(report.bots)
    seating = "seats rotating over each deal" if report.rotate else "seats fixed"
    head = f"{report.game}: {lineup}; {report.games} games ({seating}), series seed {report.seed}"
    _, per_entrant = by_entrant(report.rows, len(report.seats))
    scores = {f"{s.seat + 1}: {s.bot}": per_entrant[s.seat] for s in report.seats}
    unit = _unit(report.game, report.options)
    from gamenight.sim.tournament import wilson

    bounds = [wilson(s.win_share * report.games, report.games) for s in report.seats]
    figures = [
        (
            "Score distribution per line-up entrant",
            plots.score_distribution(
                scores, title=f"Final scores per line-up entrant: {head}", unit=unit
            ),
        ),
        (
            "Win shares",
            plots.win_shares(
                list(scores),
                [s.win_share for s in report.seats],
                [b[0] for b in bounds],
                [b[1] for b in bounds],
                title=f"Win shares (95% Wilson intervals): {head}",
            ),
        ),
    ]
    rows = [
        [
            str(s.seat + 1),
            s.bot,
            f"{s.win_share:.3f} ± {s.win_share_se:.3f}",
            f"{s.mean_score:.2f} ± {s.score_se:.2f}",
        ]
        for s in report.seats
    ]
    found = odds_track(report)
    if found is not None:
        track, sections, what = found
        first = min(report.rows, key=lambda r: r.key)
        figures.append(
            (
                "Win odds over one game",
                plots.odds_track(
                    list(scores),
                    track,
                    sections,
                    ylabel=f"{what} (%)",
                    title=f"{what} after every decision, game {first.index} (dice seed"
                    f" {first.seed}): {head}",
                ),
            )
        )
    page = _page(
        f"gamenight sim — {head}",
        _meta(
            report.game,
            report.seed,
            report.games,
            report.asked,
            report.partial,
            report.jobs,
            report.backend,
        ),
        ("#", "bot", "win share ± SE", f"mean score ({unit}) ± SE"),
        rows,
        figures,
    )
    html_path = out / "report.html"
    html_path.write_text(page, encoding="utf-8")
    return [*paths, summary, html_path]


class _Watch:
    """An agent that keeps the spectator's view of every position it decides at (for
    :func:`odds_track`: the odds capability is asked with what everyone may know)."""

    def __init__(self, agent: Any, seen: list[Any], spectator: Any) -> None:
        self.agent, self.seen, self.spectator = agent, seen, spectator
        self.label = getattr(agent, "label", "agent")

    def act(self, decision: Any) -> Any:
        self.seen.append(self.spectator())
        return self.agent.act(decision)

    def observe(self, seat: int, events: Sequence[Any]) -> None:
        self.agent.observe(seat, events)


def odds_track(
    report: SeriesReport,
) -> tuple[list[tuple[float, ...]], list[tuple[int, str]], str] | None:
    """The win odds before every decision of the series' first game, for a game with
    the ``odds`` capability (``GameInfo.odds``).

    The game is played again from its row (same dice seed, same bot seeds, so the
    same game) and the capability is asked at every decision; the last point is the
    final result. Returns ``(track, sections, what)`` with a section per part of the
    game (the ``stage`` capability, e.g. the Decathlon's events; none without it), or
    ``None`` for a game without odds, a single player or no games.
    """
    from gamenight.core.record import RecordSeat
    from gamenight.core.registry import get as get_entry
    from gamenight.core.registry import stage_function
    from gamenight.core.runner import Match
    from gamenight.core.seeds import derive

    entry = get_entry(report.game)
    odds, info = entry.odds, entry.game.info
    if odds is None or len(report.seats) < 2 or not report.rows:
        return None
    stage = stage_function(info.stage)
    row = min(report.rows, key=lambda r: r.index)
    seen: list[Any] = []

    def spectator() -> Any:
        state = match.state
        assert state is not None  # asked only while the match is played
        return entry.game.view(state, None)

    agents: list[Any] = [
        _Watch(entry.make_bot(bot, derive(row.seed, "bot", seat)), seen, spectator)
        for seat, bot in enumerate(row.bots)
    ]
    seats = [RecordSeat(f"{bot} {i + 1}", f"bot:{bot}") for i, bot in enumerate(row.bots)]
    match = Match(entry.game, report.options, row.seed, seats, agents)
    results = match.run()
    if tuple(float(x) for x in results.scores) != row.scores:
        return None  # not the same game again (a bot that does not follow its seed)
    track: list[tuple[float, ...]] = []
    sections: list[tuple[int, str]] = []
    label, shared = "chance to win", True
    for view in seen:
        part = stage(view) if stage is not None else None
        if part is not None and (not sections or sections[-1][1] != part):
            sections.append((len(track), part))
        chances = odds(view)
        if chances is None:
            continue
        track.append(chances.win)
        label = chances.label + ("" if chances.exact else "; simulated")
        shared = shared and abs(sum(chances.win) - 1.0) < 1e-6
    winners = results.winners
    # the final point: ties share the win where the odds share it, else count for each
    track.append(tuple((1 / len(winners) if shared else 1.0) if s in winners else 0.0
                       for s in range(len(row.bots))))  # fmt: skip
    what = label[:1].upper() + label[1:]
    return track, sections, what


def write_tournament(report: TournamentReport, out: Path) -> list[Path]:
    from gamenight.sim import plots

    paths = list(write_rows(report.rows, out))
    summary = out / "summary.json"
    summary.write_text(json.dumps(tournament_summary(report), indent=1) + "\n", encoding="utf-8")
    head = (
        f"{report.game} tournament: {', '.join(report.bots)}; {report.seats} seats, "
        f"{report.games_per_lineup} games per line-up, series seed {report.seed}"
    )
    index = {b: i for i, b in enumerate(report.bots)}
    scores: dict[str, list[float]] = {b: [] for b in report.bots}
    for r in report.rows:
        for s, bot in enumerate(r.bots):
            scores[bot].append(r.scores[s])
    st = report.standings
    figures = [
        (
            "Score distribution per bot",
            plots.score_distribution(
                scores,
                title=f"Final scores per bot: {head}",
                unit=_unit(report.game, report.options),
            ),
        ),
        (
            "Win shares",
            plots.win_shares(
                [s.bot for s in st],
                [s.win_share for s in st],
                [s.win_low for s in st],
                [s.win_high for s in st],
                title=f"Win shares (95% Wilson intervals): {head}",
            ),
        ),
        (
            "Head-to-head win shares",
            plots.heat_map(report.bots, report.ahead, title=f"Head to head: {head}"),
        ),
    ]
    rows = [
        [
            s.bot,
            str(s.games),
            f"{s.win_share:.3f} [{s.win_low:.3f}, {s.win_high:.3f}]",
            f"{s.mean_score:.2f} [{s.score_low:.2f}, {s.score_high:.2f}]",
            f"{s.strength.elo:+.0f} [{s.strength.low:+.0f}, {s.strength.high:+.0f}]",
            f"{s.rating.mu:.2f}",
            f"{s.rating.sigma:.2f}",
            f"{s.rating.ordinal:.2f}",
        ]
        for s in st
    ]
    matrix_rows = [
        [a] + [("—" if a == b else _cell(report, index[a], index[b])) for b in report.bots]
        for a in report.bots
    ]
    page = _page(
        f"gamenight tournament — {head}",
        _meta(
            report.game,
            report.seed,
            len(report.rows),
            report.asked,
            report.partial,
            report.jobs,
            report.backend,
        )
        + f"<p>Line-ups: {html.escape('; '.join(', '.join(x) for x in report.lineups))}</p>",
        (
            "bot",
            "games",
            "win share [95%]",
            "mean score [95%]",
            "strength [95%]",
            "mu",
            "sigma",
            "ordinal",
        ),
        rows,
        figures,
        extra=STRENGTH_NOTE + _table(("row ahead of column", *report.bots), matrix_rows),
    )
    html_path = out / "report.html"
    html_path.write_text(page, encoding="utf-8")
    return [*paths, summary, html_path]


def _cell(report: TournamentReport, a: int, b: int) -> str:
    v = report.ahead[a][b]
    if math.isnan(v):
        return "—"
    return f"{v:.3f} [{report.ahead_low[a][b]:.3f}, {report.ahead_high[a][b]:.3f}]"


def _meta(
    game: str,
    seed: int,
    games: int,
    asked: int,
    partial: bool,
    jobs: int,
    backend: str,
) -> str:
    """The run's facts. No duration or memory figure: the page is the same bytes for the
    same run (``summary.json`` has them)."""
    note = f" <strong>PARTIAL: {games} of {asked} games (stopped early)</strong>" if partial else ""
    return (
        f"<p>Game {html.escape(game)}; series seed {seed}; {games} games; "
        f"{jobs} worker(s) on the {html.escape(backend)} backend.{note}</p>"
    )


def _unit(game: str, options: Any) -> str:
    """What the game's final scores count (points; the Championship's honours)."""
    from gamenight.core.registry import get as get_entry

    return get_entry(game).game.score_unit(options)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _page(
    title: str,
    meta: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    figures: Sequence[tuple[str, Any]],
    extra: str = "",
) -> str:
    from gamenight.sim.plots import svg

    sections = "".join(
        f"<figure><figcaption>{html.escape(name)}</figcaption>{svg(fig)}</figure>"
        for name, fig in figures
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #111; }}
table {{ border-collapse: collapse; margin: 1rem 0; }}
th, td {{ border: 1px solid #999; padding: .25rem .6rem; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
figure {{ margin: 2rem 0; }} figcaption {{ font-weight: bold; margin-bottom: .5rem; }}
svg {{ max-width: 100%; height: auto; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
{meta}
{_table(header, rows)}
<p>A k-way shared win counts 1/k. In tables ± is one standard error and [a, b] a 95%
interval (Wilson for shares, normal for means); the win-share bars show 95% Wilson
intervals.</p>
{extra}
{sections}
</body></html>
"""
