"""Values worked out by hand (each comment shows the arithmetic)."""

from __future__ import annotations

from math import comb

import pytest

from gamenight.games.decathlon.solver import (
    ExpectedScore,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    ShotPutSituation,
    SprintSituation,
    Target,
    option_values,
    solve_event,
)

EXACT = 1e-12


def five_dice_sums() -> dict[int, int]:
    """Ordered throws of 5 dice by total (small convolution, independent of the solver)."""
    ways = {0: 1}
    for _ in range(5):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    return ways


def test_hurdles_last_rethrows() -> None:
    dice = (3, 3, 3, 3, 3)
    # No rethrow left: the throw is frozen.
    assert option_values("110m-hurdles", HurdlesSituation(0, dice)) == {"freeze": 15.0}
    # One left: rethrowing gets a fresh 5-dice total, 17.5 on average.
    assert option_values("110m-hurdles", HurdlesSituation(1, dice))["rethrow"] == pytest.approx(
        17.5
    )
    # Two left: rethrow, then keep a total of 18+ or rethrow again for 17.5.
    ways = five_dice_sums()
    keep_or_17_5 = sum(n * max(s, 17.5) for s, n in ways.items()) / 6**5
    got = option_values("110m-hurdles", HurdlesSituation(2, dice))["rethrow"]
    assert got == pytest.approx(keep_or_17_5, abs=EXACT)
    # The whole event, rethrows 5 -> 0, by the same recursion.
    value = 17.5
    for _ in range(5):
        value = sum(n * max(s, value) for s, n in ways.items()) / 6**5
    assert solve_event("110m-hurdles").ev == pytest.approx(value, abs=EXACT)
    assert round(value, 4) == 21.3754


def test_1500m_single_die_facts() -> None:
    # A die frozen blindly is worth (1+2+3+4+5-6)/6 = 1.5; with no rethrows the
    # rest of the race is 7 such dice: 3 + 7 * 1.5 = 13.5.
    assert option_values("1500m", SprintSituation(0, 0, (3,))) == {"freeze": 13.5}
    # Last die, one rethrow left: rethrowing is worth 1.5, so freeze 2..5, rethrow 1 or 6.
    last = option_values("1500m", SprintSituation(7, 1, (1,), score_so_far=30))
    assert last == {"freeze": 31.0, "rethrow": 31.5}
    # P(40) needs eight 5s: 8 successes (p = 1/6) within 13 throws, i.e. at most
    # 5 failures before the 8th success.
    p = sum(comb(7 + f, f) * (1 / 6) ** 8 * (5 / 6) ** f for f in range(6))
    assert solve_event("1500m", Target(40)).value == pytest.approx(p, abs=EXACT)


def test_100m_perfect_race() -> None:
    # 40 needs 5-5-5-5 twice: q = 6**-4 per throw, 2 successes within 7 throws.
    q = 6.0**-4
    p = sum(comb(1 + f, f) * q**2 * (1 - q) ** f for f in range(6))
    assert solve_event("100m", Target(40)).value == pytest.approx(p, abs=EXACT)
    assert solve_event("100m", Target(39, strict=True)).value == pytest.approx(p, abs=EXACT)


def test_high_jump_top_bar() -> None:
    # 30 needs five sixes: three jumps at 30 succeed with 1 - (1 - 6**-5)**3.
    top = 1 - (1 - 6.0**-5) ** 3
    assert solve_event("high-jump", Target(30)).value == pytest.approx(top, abs=EXACT)
    assert solve_event("high-jump", Target(29)).value == pytest.approx(top, abs=EXACT)
    values = option_values("high-jump", HeightSituation(30, best=28))
    assert values == pytest.approx({"jump": 28 + 2 * top, "skip": 28.0, "retire": 28.0})


def test_pole_vault_last_jump_at_48() -> None:
    # Only 8 sixes reach 48 (and show no 1): fewer dice cannot clear.
    values = option_values("pole-vault", HeightSituation(48, best=46, committed=True, jumps_used=2))
    assert values[8] == pytest.approx(46 + 2 * 6.0**-8, abs=EXACT)
    assert all(values[n] == 46.0 for n in range(1, 8))


def test_shot_put_last_die_and_perfect_put() -> None:
    # Seven sixes (42), one attempt: the 8th die gives 0 w.p. 1/6, else 42 + 2..6.
    values = option_values("shot-put", ShotPutSituation((6,) * 7), attempts=1)
    assert values == pytest.approx({"stop": 42.0, "throw": (5 * 42 + 20) / 6}, abs=EXACT)
    # 48 needs eight sixes in a row: 6**-8 per attempt.
    single = solve_event("shot-put", Target(48), attempts=1).value
    assert single == pytest.approx(6.0**-8, abs=EXACT)
    three = solve_event("shot-put", Target(48)).value
    assert three == pytest.approx(1 - (1 - 6.0**-8) ** 3, abs=EXACT)


def test_long_jump_small_jumps() -> None:
    # Jumping with 1 die scores 3.5 on average.
    one = option_values("long-jump", LongJumpSituation("run-up", (1,), ()), attempts=1)
    assert one["jump"] == pytest.approx(3.5, abs=EXACT)
    # With 2 dice: freeze the higher die b, then either keep the lower a or rethrow
    # it (3.5): E[max(a,b)] + E[max(min(a,b), 3.5)] = 161/36 + 271/72 = 593/72.
    two = option_values("long-jump", LongJumpSituation("run-up", (1, 2), ()), attempts=1)
    assert two["jump"] == pytest.approx(593 / 72, abs=EXACT)
    # A valid long jump is certain: freeze the lowest die and jump with it.
    assert solve_event("long-jump", Target(1), attempts=1).value == pytest.approx(1.0, abs=EXACT)
    # Stepping over (6 + 6 > 8) is an invalid attempt: 0 in a one-attempt event.
    over = option_values("long-jump", LongJumpSituation("run-up", (), (6, 6, 6, 6, 6)), attempts=1)
    assert over[(6, 6)] == 0.0 and over[(6,)] > 0.0


def test_discus_and_javelin_any_valid_result() -> None:
    # Invalid only if the first throw shows no allowed die: (1/2)**5 resp. (1/2)**6.
    discus = solve_event("discus", Target(2), attempts=1).value
    assert discus == pytest.approx(1 - 0.5**5, abs=EXACT)
    javelin = solve_event("javelin", Target(1), attempts=1).value
    assert javelin == pytest.approx(1 - 0.5**6, abs=EXACT)
    assert solve_event("discus", ExpectedScore(), attempts=1).p_invalid >= 0.5**5
