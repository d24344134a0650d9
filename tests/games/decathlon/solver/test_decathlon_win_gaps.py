"""The head to head's control variate (win_gaps.py, issue 27): ``1/2 + the opponent's
value gaps`` estimates a seat's share without the dice's noise. Also the values the
gaps come from (win_play.action_values), and the build's cheaper passes giving the
same values bit for bit (freeze_dp.backward_values, ShotPutModel.values)."""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs
import pytest

from gamenight.core.errors import OptionsError
from gamenight.core.runner import play_match
from gamenight.games.decathlon import bots, win_gaps, win_play
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.solver import freeze_dp, win2p_store
from gamenight.games.decathlon.solver.freeze_events import RULES as FREEZE_RULES
from gamenight.games.decathlon.solver.freeze_events import FreezeModel
from gamenight.games.decathlon.solver.long_jump import _jump_game, _run_up_game
from gamenight.games.decathlon.solver.shot_put import TOP, ShotPutModel


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(win2p_store.CACHE_ENV, str(tmp_path))
    win2p_store._loaded.clear()


def _game(spec: str, seed: int, me: int, opponent: Any) -> tuple[float, win_gaps.Ledger]:
    table = win2p_store.table_for(tuple(spec.split(",")))
    assert table is not None
    ledger = win_gaps.Ledger(table, me)
    agents: list[Any] = [None, None]
    agents[me] = win_gaps.Reporting(bots.WinnerAgent(seed), ledger)
    agents[1 - me] = win_gaps.Reporting(opponent, ledger)
    results, _ = play_match(GAME, agents, seed=seed, options=GAME.parse_options({"events": spec}))
    mine, other = results.scores[me], results.scores[1 - me]
    return (1.0 if mine > other else 0.5 if mine == other else 0.0), ledger


@pytest.mark.parametrize("spec", ["1500m", "high-jump,1500m", "discus"])
def test_against_itself_the_estimate_is_one_half_in_every_game(spec: str) -> None:
    """Both seats play the solved policy: no gaps, whatever the dice (up to the tie
    rule's 1e-12 between options it counts as equal)."""
    for seed in range(6):
        share, ledger = _game(spec, seed, seed % 2, bots.WinnerAgent(seed + 1))
        assert ledger.decisions > 0 and ledger.stop_value is None
        assert abs(ledger.own_gaps) < 1e-10 and abs(ledger.opponent_gaps) < 1e-10
        assert ledger.estimate(share) == pytest.approx(0.5, abs=1e-10)


def test_the_estimate_agrees_with_the_raw_share_and_is_far_less_noisy() -> None:
    """Against ``greedy`` in the 1500 m (large gaps): the per-seed difference of the raw
    share and the estimate has mean 0 (within 4 standard errors), and the estimate's
    spread is a small fraction of the raw one's."""
    raws, estimates = [], []
    for seed in range(150):
        pair_raw = pair_cv = 0.0
        for me in (0, 1):
            share, ledger = _game("1500m", seed, me, bots.GreedyAgent(seed))
            assert ledger.opponent_gaps >= 0.0  # a gap is never negative
            pair_raw += share / 2
            pair_cv += ledger.estimate(share) / 2
        raws.append(pair_raw)
        estimates.append(pair_cv)
    diff = [r - e for r, e in zip(raws, estimates, strict=True)]
    se = statistics.stdev(diff) / math.sqrt(len(diff))
    assert abs(statistics.fmean(diff)) <= 4 * se
    assert statistics.fmean(estimates) > 0.55  # greedy loses clearly (0.578)
    assert statistics.stdev(estimates) < 0.5 * statistics.stdev(raws)


def test_action_values_are_the_decision_values() -> None:
    """The best legal action's value is the position's (mover_value), and win play
    picks an action of that value, in every family of events."""
    seen: set[str] = set()

    class Probe(bots.WinnerAgent):
        def act(self, decision: Any) -> Any:
            view = decision.view
            table = win_play.table(view)
            assert table is not None
            values = win_play.action_values(view, decision.legal, table)
            assert values is not None and len(values) == len(decision.legal)
            best = win_play.mover_value(view, decision.legal, table)
            assert best == pytest.approx(max(values), abs=1e-12)
            action = super().act(decision)
            assert values[list(decision.legal).index(action)] >= max(values) - 1e-12
            seen.add(view.phase or "")
            return action

    for spec in ("1500m", "high-jump,1500m", "discus", "110m-hurdles"):
        options = GAME.parse_options({"events": spec})
        play_match(GAME, [Probe(1), Probe(2)], seed=4, options=options)
    assert {"keep-or-rethrow", "jump-or-skip", "freeze"} <= seen


# ----- the preparation of one chain (the server's background build) -----------------------


def test_a_preparation_target_names_a_chain_in_order() -> None:
    assert win2p_store.chain("high-jump,1500m") == ("high-jump", "1500m")
    for bad in ("1500m,high-jump", "high-jump,high-jump", "marathon", ""):
        with pytest.raises(OptionsError, match="not a chain of Decathlon events"):
            win2p_store.chain(bad)


def test_the_build_worker_builds_the_chain_it_is_given(tmp_path: Path) -> None:
    env = {**os.environ, win2p_store.CACHE_ENV: str(tmp_path)}
    run = [sys.executable, "-m", "gamenight.server.build", "decathlon"]
    done = subprocess.run([*run, "1500m"], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / win2p_store.table_path(("1500m",)).name).exists()
    assert done.stdout.splitlines()[-1].startswith("progress ")
    bad = subprocess.run([*run, "1500m,100m"], env=env, capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1 and bad.stderr == ""
    assert bad.stdout.splitlines() == [
        "error not a chain of Decathlon events in their order: '1500m,100m'"
    ]


def test_tests_keep_gamenights_cache_apart_from_the_users() -> None:
    run_dir = os.environ["GAMENIGHT_TEST_CACHE"]  # set by tests/conftest.py for the run
    assert Path(run_dir).name.startswith("gamenight-test-cache-")
    assert run_dir != platformdirs.user_cache_dir("gamenight")


# ----- the build's passes: the same values as before, bit for bit -------------------------


def _reference_values(
    game: freeze_dp.FreezeGame, stop_p: Any, can_stop: list[bool], invalid_p: Any
) -> Any:
    """freeze_dp.backward_values as it was before issue 27's build work (one gather of
    every option at once): the oracle."""
    n, size = game.n, game.top + 1
    cols = invalid_p.shape[0]
    post_p, throw_p = np.full((n + 1, size, cols), np.nan), np.full((n + 1, size, cols), np.nan)
    post_p[0] = stop_p[0]
    for m in range(1, n + 1):
        xs, throws, legal, target_m, target_x = freeze_dp._targets(game, m)
        got = np.where(legal[..., None], post_p[target_m, target_x], -np.inf).max(axis=2)
        got = np.where(np.logical_not(legal.any(axis=2))[..., None], invalid_p, got)
        throw_p[m, xs] = np.tensordot(throws.probs, got, axes=([0], [1]))
        if can_stop[m]:
            post_p[m, xs] = np.maximum(stop_p[m, xs], throw_p[m, xs])
        else:
            post_p[m, xs] = throw_p[m, xs]
    return post_p, throw_p


def _rewards(rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
    """Random rewards, half of them from a few values (ties, near-ties by rounding)."""
    out = rng.random(shape)
    few = rng.integers(0, 3, shape) / 3 + rng.integers(0, 2, shape) * 1e-13
    return np.where(rng.random(shape) < 0.5, few, out)


def test_the_freeze_passes_give_the_values_of_before_bit_for_bit() -> None:
    rng = np.random.default_rng(27)
    games = [
        (_jump_game(), [True] + [False] * 5),
        (_run_up_game(), [True] * 5 + [False]),
        (FreezeModel(FREEZE_RULES["discus"]).game, [True] * 5 + [False]),
        (FreezeModel(FREEZE_RULES["javelin"]).game, [True] * 6 + [False]),
    ]
    for game, can_stop in games:
        for cols in (1, 7, 300):
            stop = _rewards(rng, (game.n + 1, game.top + 1, cols))
            invalid = _rewards(rng, (cols,))
            post, throw = _reference_values(game, stop, can_stop, invalid)
            for _ in range(2):  # the second time in reused work buffers
                solved = freeze_dp.backward_values(game, stop, can_stop, invalid)
                assert np.array_equal(solved.post_p, post, equal_nan=True)
                assert np.array_equal(solved.throw_p, throw, equal_nan=True)


def test_the_shot_puts_value_pass_is_its_full_pass_bit_for_bit() -> None:
    rng = np.random.default_rng(7)
    model = ShotPutModel()
    for cols in (1, 9, 500):
        reward = _rewards(rng, (TOP + 2, cols))
        full, fast = model.backward(reward, reward), model.values(reward)
        assert np.array_equal(fast.post_p, full.post_p)
        assert np.array_equal(fast.throw_p, full.throw_p)
        assert np.array_equal(model.root(fast), model.root(full))
