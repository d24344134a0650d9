"""Tournaments, ratings and --out reports: the files say what the printed tables say."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest

from gamenight.cli.main import run
from gamenight.core import registry
from gamenight.sim.design import seated
from gamenight.sim.ratings import RatingStore, rate_table_game
from gamenight.sim.tournament import lineups, run_tournament

SHORT = ["--events", "100m"]


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = 0
    try:
        run(argv)
    except SystemExit as exit_info:
        code = exit_info.code if isinstance(exit_info.code, int) else 1
    out, _ = capsys.readouterr()
    return code, out


def test_sim_out_files_match_the_printed_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pyarrow.parquet as pq

    out_dir = tmp_path / "out"
    argv = ["sim", "decathlon", *SHORT, "--bots", "greedy,random", "--games", "30", "--seed",
            "4", "-j", "2", "--out", str(out_dir)]  # fmt: skip
    code, printed = cli(argv, capsys)
    assert code == 0
    table = {m[0]: (float(m[1]), float(m[2])) for m in re.findall(
        r"│ \d+\s+│ (\w+)\s+│ ([\d.]+) ± [\d.]+ │ ([\d.-]+) ± [\d.]+", printed)}  # fmt: skip
    assert set(table) == {"greedy", "random"}

    with (out_dir / "games.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["game"]) for r in rows] == list(range(30))
    assert all(r["lineup"] == "greedy;random" for r in rows)
    for bot in ["greedy", "random"]:
        seats = [r["seats"].split(";").index(bot) for r in rows]  # seats rotate
        assert seats[:2] == [0, 1] if bot == "greedy" else seats[:2] == [1, 0]
        scores = [float(r["scores"].split(";")[s]) for r, s in zip(rows, seats, strict=True)]
        shares = [
            1 / len(r["winners"].split(";")) if str(s) in r["winners"].split(";") else 0.0
            for r, s in zip(rows, seats, strict=True)
        ]
        assert f"{sum(shares) / 30:.3f}" == f"{table[bot][0]:.3f}"
        assert f"{sum(scores) / 30:.2f}" == f"{table[bot][1]:.2f}"

    parquet = pq.read_table(out_dir / "games.parquet").to_pylist()
    assert [p["seed"] for p in parquet] == [r["seed"] for r in rows]
    assert [";".join(f"{s:g}" for s in p["scores"]) for p in parquet] == [r["scores"] for r in rows]
    assert [p["ranks"] for p in parquet] == [[int(x) for x in r["ranks"].split(";")] for r in rows]
    assert [p["seats"] for p in parquet] == [r["seats"].split(";") for r in rows]
    assert all(p["lineup"] == ["greedy", "random"] for p in parquet)

    summary = json.loads((out_dir / "summary.json").read_text())
    for seat in summary["seats"]:
        assert f"{seat['win_share']:.3f}" == f"{table[seat['bot']][0]:.3f}"
        assert f"{seat['mean_score']:.2f}" == f"{table[seat['bot']][1]:.2f}"
    assert summary["games"] == 30 and summary["seed"] == 4 and summary["partial"] is False
    assert "<svg" in (out_dir / "report.html").read_text()


def test_tournament_rotates_seats_and_rates_the_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data_home: Path
) -> None:
    assert lineups(["a", "b"], 3) == [("a", "a", "a"), ("a", "a", "b"), ("a", "b", "b"),
                                      ("b", "b", "b")]  # fmt: skip
    assert [seated(("a", "b"), j) for j in range(2)] == [("a", "b"), ("b", "a")]
    entry = registry.get("decathlon")
    report = run_tournament(
        entry, ["optimal", "greedy", "random"], seats=2, games=10, seed=2,
        options=entry.game.parse_options({"events": "100m"}), jobs=1,
    )  # fmt: skip
    assert len(report.rows) == 30 and not report.partial
    firsts = [r.bots[0] for r in report.rows]
    assert {b: firsts.count(b) for b in report.bots} == {"optimal": 10, "greedy": 10, "random": 10}
    for a in range(3):
        for b in range(3):
            if a != b:
                assert report.ahead[a][b] + report.ahead[b][a] == pytest.approx(1.0)
                assert report.ahead_low[a][b] <= report.ahead[a][b] <= report.ahead_high[a][b]
    by_bot = {s.bot: s for s in report.standings}
    order = [s.bot for s in report.standings]  # strongest in the batch fit first
    assert order == sorted(order, key=lambda b: -by_bot[b].strength.elo)
    assert order[-1] == "random" and by_bot["random"].strength.elo < 0
    assert by_bot["random"].rating.mu < 25 < by_bot["optimal"].rating.mu
    assert sum(s.win_share * s.games for s in report.standings) == pytest.approx(30)

    code, printed = cli(["tournament", "decathlon", *SHORT, "--bots", "optimal,greedy,random",
                         "--games", "10", "--seed", "2", "-j", "1"], capsys)  # fmt: skip
    assert code == 0 and "Head to head" in printed
    code, shown = cli(["ratings", "decathlon", "--json"], capsys)
    stored = {p["name"]: p for p in json.loads(shown)["players"]}
    assert stored["bot:optimal"]["mu"] == pytest.approx(by_bot["optimal"].rating.mu)
    assert (data_home / "gamenight" / "ratings" / "decathlon.json").exists()


def test_a_terminal_game_against_bots_rates_the_human(data_home: Path) -> None:
    from gamenight.cli.players import SeatSpec

    seats = [SeatSpec("Ann"), SeatSpec("Bot 2", "greedy")]
    assert rate_table_game("wurfeltod", [SeatSpec("Ann"), SeatSpec("Bob")], [1, 2]) is None
    store = rate_table_game("wurfeltod", seats, [1, 2])
    assert store is not None
    again = RatingStore("wurfeltod")
    assert again.get("Ann").mu > 25 > again.get("bot:greedy").mu
    assert again.get("Ann").games == 1


def test_ratings_command_without_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = cli(["ratings", "dice-duel"], capsys)
    assert code == 0 and "No ratings" in out


def test_report_html_opens_in_chromium_with_its_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], browser: Any
) -> None:
    # the session's one browser (tests/web/conftest.py): a second sync_playwright in
    # the same worker would find the first one's loop running
    out_dir = tmp_path / "out"
    argv = ["tournament", "decathlon", *SHORT, "--bots", "optimal,greedy,random",
            "--games", "4", "-j", "1", "--no-save", "--out", str(out_dir)]  # fmt: skip
    code, _ = cli(argv, capsys)
    assert code == 0
    page = browser.new_page()
    try:
        page.goto((out_dir / "report.html").as_uri())
        assert "tournament" in page.title()
        figures = page.locator("figure svg")
        assert figures.count() == 3  # scores, win shares, head-to-head heat map
        for i in range(3):
            box = figures.nth(i).bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 150
        assert page.locator("figcaption").all_inner_texts() == [
            "Score distribution per bot", "Win shares", "Head-to-head win shares"]  # fmt: skip
        assert page.locator("script, img[src^='http'], link").count() == 0  # self-contained
    finally:
        page.close()


def test_solve_decathlon_plot_draws_each_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = cli(["solve", "decathlon", "--event", "100m", "--plot", str(tmp_path)], capsys)
    assert code == 0 and "wrote" in out
    svg = (tmp_path / "decathlon-100m.svg").read_text()
    assert "100 Metres" in svg and "EV 24.00" in svg and "probability" in svg
    assert (tmp_path / "decathlon-100m.png").stat().st_size > 1000


def test_plot_solution_reads_a_pmf_from_json(tmp_path: Path) -> None:
    from gamenight.sim.plots import plot_solution

    solution = {"events": [{"event": "x", "name": "X", "ev": 1.5, "p_invalid": 0.25,
                            "pmf": {"1": 0.25, "2": 0.5}}]}  # fmt: skip
    paths, figures = plot_solution("decathlon", solution, tmp_path)
    assert [p.name for p in paths] == ["decathlon-x.svg", "decathlon-x.png"] and figures == {}
    assert "25.0%" in paths[0].read_text()


def test_session_end_rates_a_human_against_a_bot(tmp_path: Path) -> None:
    """Session.finish calls the ratings hook: a real terminal game, scripted keys."""
    import io

    from rich.console import Console

    from gamenight.cli.players import parse_players
    from gamenight.cli.session import Session
    from gamenight.terminal.ui import Prompter

    boxes = [
        "p",
        "pp",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "s",
        "4k",
        "3p",
        "tt",
        "4p",
        "5k",
        "5s",
        "sp",
        "6k",
        "6s",
        "f",
        "f",
    ]
    keys = iter(f"b {k}" for k in boxes)
    console = Console(file=io.StringIO(), width=100)
    prompter = Prompter(console=console, reader=lambda _prompt: next(keys))
    entry = registry.get("wurfeltod")
    seats = parse_players("Ann,bot:random", list(entry.bots))
    session = Session(entry, seats, entry.game.parse_options({}), 9, console, prompter,
                      tmp_path / "game.jsonl")  # fmt: skip
    results = session.finish(session.build())
    store = RatingStore("wurfeltod")
    assert store.get("Ann").games == 1 and store.get("bot:random").games == 1
    ann_won = results.ranks[0] < results.ranks[1]
    assert (store.get("Ann").mu > store.get("bot:random").mu) == ann_won


def test_a_decathlon_series_report_draws_the_win_odds_of_its_first_game(
    own_table_cache: None,
) -> None:
    from gamenight.core.dice import SeededDice
    from gamenight.games.decathlon import win_play
    from gamenight.games.decathlon.game import GAME as game
    from gamenight.sim import plots
    from gamenight.sim.report import odds_track
    from gamenight.sim.series import run_series

    opts = game.parse_options({"events": "100m,long"})
    # winner refuses a table not built (issue 45): build this small one first
    assert win_play.table(game.view(game.start(2, opts, SeededDice(seed=1)).state, 0), build=True)
    entry = registry.get("decathlon")
    report = run_series(entry, ["winner", "greedy"], games=3, seed=2, options=opts, jobs=1)
    found = odds_track(report)
    assert found is not None
    track, sections, what = found
    assert [label for _, label in sections] == ["100 Metres", "Long Jump"]
    assert sections[0][0] == 0 and len(track) > sections[1][0] > 0
    assert all(sum(p) == pytest.approx(1.0) for p in track)
    first = min(report.rows, key=lambda r: r.index)
    assert track[-1] == tuple(
        1 / len(first.winners) if s in first.winners else 0.0 for s in range(2)
    )
    assert len({p[0] for p in track}) > 5  # the odds move with the dice
    fig = plots.odds_track(["1: winner", "2: greedy"], track, sections, title=what)
    assert len(fig.axes[0].get_lines()) == 2 + len(sections)
    other = run_series(registry.get("wurfeltod"), ["greedy", "random"], games=1, jobs=1)
    assert odds_track(other) is None
