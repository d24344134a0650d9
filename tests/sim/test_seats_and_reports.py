"""Simulation that researchers can trust (issue 28, defect 8): seats rotate over each deal,
the axes name the unit, the rows name their line-up, and report.html is reproducible."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gamenight.cli.main import run
from gamenight.core import registry
from gamenight.sim import run_series
from gamenight.sim.report import odds_track, write_series


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def cli(argv: list[str]) -> None:
    try:
        run(argv)
    except SystemExit as exit_info:
        assert not exit_info.code


def test_the_same_bot_in_every_seat_gets_exactly_the_same_figures() -> None:
    entry = registry.get("dice-duel")
    report = run_series(entry, ["random", "random"], games=40, seed=0, jobs=1)
    first, second = report.seats
    # every deal is played once in each seat order, so seat bias cannot favour either
    assert (first.win_share, first.mean_score) == (second.win_share, second.mean_score)
    rows = report.rows
    assert [r.seed for r in rows[0::2]] == [r.seed for r in rows[1::2]]
    assert [r.rotation for r in rows[:4]] == [0, 1, 0, 1]
    assert len({r.seed for r in rows}) == 20
    fixed = run_series(entry, ["random", "random"], games=40, seed=0, jobs=1, rotate=False)
    assert fixed.seats[0].win_share != fixed.seats[1].win_share  # what seats alone do
    assert len({r.seed for r in fixed.rows}) == 40


def test_a_rotated_line_up_reports_each_bot_whatever_its_seat() -> None:
    entry = registry.get("dice-duel")
    report = run_series(entry, ["turn-optimal", "random"], games=20, seed=3, jobs=1)
    assert {r.bots for r in report.rows} == {("turn-optimal", "random"), ("random", "turn-optimal")}
    assert all(r.lineup == ("turn-optimal", "random") for r in report.rows)
    assert report.seats[0].bot == "turn-optimal" and report.seats[0].win_share > 0.8
    total = sum(r.scores[s] for r in report.rows for s in range(2) if r.bots[s] == "random")
    assert report.seats[1].mean_score == pytest.approx(total / 20)


def test_the_championship_plot_counts_honours(tmp_path: Path) -> None:
    entry = registry.get("decathlon")
    options = entry.game.parse_options({"variant": "championship", "events": "100m,long-jump"})
    report = run_series(entry, ["greedy", "random"], games=4, seed=1, options=options, jobs=1)
    page = (write_series(report, tmp_path)[-1]).read_text()
    assert "final score (honours)" in page and "final score (points)" not in page
    assert "mean score (honours)" in page


def test_the_two_player_championship_odds_track_is_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gamenight.games.decathlon import odds

    asked: list[bool] = []
    real = odds.championship_odds

    def spy(view: object, *args: object, **kwargs: object) -> object:
        result = real(view, *args, **kwargs)
        asked.append(result.samples == 0)
        return result

    monkeypatch.setattr(odds, "championship_odds", spy)
    entry = registry.get("decathlon")
    options = entry.game.parse_options({"variant": "championship", "events": "100m,long-jump"})
    report = run_series(entry, ["greedy", "random"], games=1, seed=2, options=options, jobs=1)
    found = odds_track(report)
    assert found is not None
    track, _, what = found
    assert "simulated" not in what and "honours" in what
    assert len(track) > 2 and asked and all(asked)  # every point the exact answer


def test_tournament_rows_name_their_line_up_and_each_game_once(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    out = tmp_path / "out"
    cli(["tournament", "decathlon", "--events", "100m", "--bots", "greedy,random,optimal",
         "--games", "4", "-j", "1", "--no-save", "--out", str(out)])  # fmt: skip
    with (out / "games.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["game"]) for r in rows] == list(range(12))  # no game number twice
    assert [r["lineup"] for r in rows] == ["greedy;random"] * 4 + ["greedy;optimal"] * 4 + [
        "random;optimal"
    ] * 4
    for r in rows:
        assert sorted(r["seats"].split(";")) == sorted(r["lineup"].split(";"))
    parquet = pq.read_table(out / "games.parquet").to_pylist()
    assert [p["lineup"] for p in parquet] == [r["lineup"].split(";") for r in rows]
    assert [p["game"] for p in parquet] == list(range(12))


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "decathlon", "--events", "100m", "--bots", "greedy,random", "--games", "6"],
        ["tournament", "wurfeltod", "--bots", "greedy,random", "--games", "4", "--no-save"],
    ],
)
def test_report_html_is_the_same_bytes_for_the_same_run(tmp_path: Path, argv: list[str]) -> None:
    pages = []
    for n in range(2):
        cli([*argv, "-j", "1", "--seed", "5", "--out", str(tmp_path / str(n))])
        pages.append((tmp_path / str(n) / "report.html").read_bytes())
    assert b"<svg" in pages[0]
    assert pages[0] == pages[1]
