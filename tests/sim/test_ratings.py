"""Ratings that add up: stored ratings accumulate, and the batch fit ignores the games' order."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.cli.main import run
from gamenight.sim.batch import batch_fit, comparisons
from gamenight.sim.engine import GameRow
from gamenight.sim.ratings import RatingStore, rate_games

TOURNAMENT = ["tournament", "decathlon", "--events", "100m", "--bots", "greedy,random",
              "-j", "1"]  # fmt: skip


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def stored(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, float]]:
    capsys.readouterr()
    run(["ratings", "decathlon", "--json"])
    return {p["name"]: p for p in json.loads(capsys.readouterr().out)["players"]}


def test_a_second_tournament_adds_to_the_stored_ratings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gamenight.core import registry
    from gamenight.sim.tournament import run_tournament

    run([*TOURNAMENT, "--games", "200", "--seed", "1"])
    run([*TOURNAMENT, "--games", "20", "--seed", "2"])
    after = stored(capsys)
    # each bot played 200 + 20 games (the old store kept only the last 20)
    assert after["bot:greedy"]["games"] == after["bot:random"]["games"] == 220
    # ... and its rating is the 220 games rated in turn, not the last tournament's alone
    entry = registry.get("decathlon")
    options = entry.game.parse_options({"events": "100m"})
    rows = [
        r
        for seed, games in ((1, 200), (2, 20))
        for r in run_tournament(
            entry, ["greedy", "random"], seats=2, games=games, seed=seed, options=options, jobs=1
        ).rows
    ]
    expected = rate_games(["greedy", "random"], rows)
    assert after["bot:greedy"]["mu"] == pytest.approx(expected["greedy"].mu)
    assert after["bot:random"]["sigma"] == pytest.approx(expected["random"].sigma)


def test_a_tournament_keeps_the_other_players_and_the_bots_earlier_games(
    tmp_path: Path,
) -> None:
    store = RatingStore("wurfeltod", tmp_path)
    store.record([["Ann"], ["bot:greedy"]], ranks=[1, 2])
    row = GameRow(0, 0, 0, ("greedy", "random"), (2.0, 1.0), (1, 2), (0,), 0.0)
    store.record_games(["greedy", "random"], [row, row])
    assert store.get("bot:greedy").games == 3 and store.get("bot:random").games == 2
    assert store.get("Ann").games == 1


def close_bots(games: int, seed: int) -> list[GameRow]:
    """Three nearly equal bots, two seats; ``b`` a little the strongest."""
    rng = random.Random(seed)
    edge = {"a": 0.0, "b": 0.15, "c": 0.1}
    rows = []
    for i in range(games):
        x, y = rng.sample(sorted(edge), 2)
        p = 0.5 + edge[x] - edge[y]
        u = rng.random()
        ranks = (1, 1) if u > 0.95 else (1, 2) if u < p * 0.95 else (2, 1)
        winners = tuple(s for s in range(2) if ranks[s] == 1)
        rows.append(GameRow(i, i, i, (x, y), (0.0, 0.0), ranks, winners, 0.0))
    return rows


def test_shuffling_the_games_leaves_the_batch_fit_alone_but_not_openskill() -> None:
    names = ["a", "b", "c"]
    rows = close_bots(1200, seed=3)
    fit = batch_fit(names, rows)
    mus = []
    for shuffle in range(3):
        games = list(rows)
        random.Random(shuffle).shuffle(games)
        again = batch_fit(names, games)
        for bot in names:
            assert again[bot].elo == pytest.approx(fit[bot].elo, abs=1e-6)
            assert again[bot].se == pytest.approx(fit[bot].se, abs=1e-6)
        mus.append([rate_games(names, games)[b].mu for b in names])
    # openskill rates game by game: the same games in other orders give other ratings
    spread = max(max(m[i] for m in mus) - min(m[i] for m in mus) for i in range(3))
    assert spread > 0.1
    assert max(names, key=lambda b: fit[b].elo) == "b"
    assert fit["b"].low < fit["b"].elo < fit["b"].high


def test_the_batch_fit_reproduces_the_head_to_head_of_two_bots() -> None:
    rows = [
        GameRow(i, i, i, ("a", "b") if i % 2 else ("b", "a"), (0.0, 0.0),
                ((1, 2) if i % 2 else (2, 1)) if i % 10 < 7 else (1, 1), (0,), 0.0)
        for i in range(300)
    ]  # fmt: skip
    wins = comparisons(["a", "b"], rows)
    share = wins[0][1] / (wins[0][1] + wins[1][0])
    fit = batch_fit(["a", "b"], rows)
    assert fit["a"].p_ahead(fit["b"]) == pytest.approx(share, abs=1e-6)
    assert fit["a"].low < fit["a"].elo < fit["a"].high and fit["a"].elo == -fit["b"].elo


def test_a_bot_that_never_lost_gets_a_finite_strength_with_a_wide_interval() -> None:
    rows = [GameRow(i, i, i, ("a", "b"), (1.0, 0.0), (1, 2), (0,), 0.0) for i in range(20)]
    fit = batch_fit(["a", "b", "c"], rows)
    assert fit["a"].elo > fit["b"].elo
    assert all(abs(s.elo) < 1e5 for s in fit.values())
    assert fit["c"].high - fit["c"].low > 1000  # never played: hardly known


@settings(max_examples=40, deadline=None)
@given(
    games=st.lists(
        st.tuples(
            st.permutations(["a", "b", "c"]).map(lambda p: tuple(p[:2])),
            st.sampled_from([(1, 2), (2, 1), (1, 1)]),
        ),
        min_size=1,
        max_size=30,
    ),
    order=st.randoms(use_true_random=False),
)
def test_the_batch_fit_depends_on_the_games_not_their_order(
    games: list[tuple[tuple[str, ...], tuple[int, int]]], order: random.Random
) -> None:
    rows = [
        GameRow(i, i, i, bots, (0.0, 0.0), ranks, tuple(s for s in (0, 1) if ranks[s] == 1), 0.0)
        for i, (bots, ranks) in enumerate(games)
    ]
    shuffled = list(rows)
    order.shuffle(shuffled)
    fit, again = batch_fit(["a", "b", "c"], rows), batch_fit(["a", "b", "c"], shuffled)
    for bot in "abc":
        assert again[bot].elo == pytest.approx(fit[bot].elo, rel=1e-6, abs=1e-6)
        assert again[bot].low <= again[bot].elo <= again[bot].high


def test_stored_ratings_say_they_depend_on_the_order_of_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 45: the same games reversed give other stored ratings, and the command says so
    rows = close_bots(300, seed=5)
    forward = RatingStore("decathlon", tmp_path / "f")
    forward.record_games(["a", "b", "c"], rows)
    backward = RatingStore("decathlon", tmp_path / "b")
    backward.record_games(["a", "b", "c"], rows[::-1])
    assert abs(forward.get("bot:a").mu - backward.get("bot:a").mu) > 0.1
    run([*TOURNAMENT, "--games", "10", "--seed", "1"])
    capsys.readouterr()
    run(["ratings", "decathlon"])
    out = " ".join(capsys.readouterr().out.split())
    assert "These ratings depend on the order of the games" in out
    assert "strength column of gamenight tournament" in out
    assert "order of the games" in str(stored_json(capsys)["caveat"])


def stored_json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    run(["ratings", "decathlon", "--json"])
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_the_tournament_says_when_neighbours_in_the_standings_overlap(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gamenight.core import registry
    from gamenight.sim.tournament import overlapping, run_tournament

    # optimal and competitive are alike over one sprint: a few games cannot part them
    entry = registry.get("decathlon")
    options = entry.game.parse_options({"events": "100m"})
    report = run_tournament(entry, ["optimal", "competitive", "random"], seats=2, games=40,
                            seed=1, options=options, jobs=1)  # fmt: skip
    assert report.overlaps == overlapping(report.standings)
    pairs = {frozenset(p) for p in report.overlaps}
    assert frozenset(("optimal", "competitive")) in pairs
    assert all("random" not in p for p in pairs)  # random is clearly behind
    capsys.readouterr()
    run(["tournament", "decathlon", "--events", "100m", "--bots", "optimal,competitive,random",
         "--games", "40", "--seed", "1", "-j", "1", "--no-save"])  # fmt: skip
    out = " ".join(capsys.readouterr().out.split())
    first, second = report.overlaps[0]
    assert f"{first} and {second}: their strength intervals overlap" in out
