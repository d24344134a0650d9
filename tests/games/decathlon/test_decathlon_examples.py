"""The worked examples of the rulebooks (seed 003, Polish; seed 000, English) on scripted dice."""

from __future__ import annotations

from decathlon_script import chain, data, kind, kinds, new_game, play

from gamenight.games.decathlon.actions import Freeze, Jump, Rethrow, Skip, Stop, Vault
from gamenight.games.decathlon.game import GAME

F4, F2, F1, F5 = Freeze((0, 1, 2, 3)), Freeze((0, 1)), Freeze((0,)), Freeze((0, 1, 2, 3, 4))


def test_100m_with_three_rethrows_scores_25() -> None:
    state, _ = new_game([4, 2, 1, 1, 6, 6, 5, 2, 5, 3, 1, 1, 6, 4, 2, 2, 5, 5, 3, 2], events="100m")
    assert GAME.view(state, 0).rethrows_left == 5
    state, events = play(state, Rethrow(), Rethrow(), F4, Rethrow(), F4)
    assert GAME.is_terminal(state)
    assert GAME.results(state).scores == (25,)
    rolls = kinds(events, "roll")
    assert rolls[-1].rethrows_left == 2  # three of five rethrows spent


def test_long_jump_run_up_of_7_with_four_dice_jumps_18() -> None:
    state, _ = new_game(
        chain(
            [1, 1, 3, 4, 5, 3, 3, 5, 2, 4, 6, 5, 3, 2, 6, 3, 1],  # attempt 1 (the example)
            [5, 5, 5, 5, 5],  # attempt 2: freezing two fives steps over
            [6, 6, 6, 6, 6, 6, 6, 6, 6],  # attempt 3: a 6, then nothing fits under 8
        ),
        events="long-jump",
    )
    state, events = play(state, F2, Rethrow(), F1, Rethrow(), F1)
    view = GAME.view(state, 0)
    assert view.phase == "rethrow-or-jump" and view.frozen == (1, 1, 3, 2) and sum(view.frozen) == 7
    state, events = play(state, Jump(), F2, F1)  # the last die is frozen automatically
    assert data(kinds(events, "result")[0]) == {"attempt": 1, "result": 18, "best": 18}
    assert kinds(events, "freeze")[-1].auto is True
    state, events = play(state, F2)  # attempt 2: 5 + 5 = 10 > 8
    assert "stepped over" in kinds(events, "invalid")[0].reason
    state, events = play(state, F1, Rethrow())  # attempt 3: 6 + 6 > 8 whatever is frozen
    assert "stepped over" in kinds(events, "invalid")[0].reason
    assert GAME.results(state).scores == (18,)
    assert GAME.results(state).detail["sheet"] == {"long-jump": [18]}


def test_shot_put_15_and_an_invalid_attempt() -> None:
    from gamenight.games.decathlon.actions import Throw

    state, _ = new_game(chain([2, 4, 3, 6], [6, 2, 3, 1], [1]), events="shot-put")
    state, events = play(state, Throw(), Throw(), Throw(), Stop())
    assert kinds(events, "result")[0].result == 15
    state, events = play(state, Throw(), Throw(), Throw())
    assert kinds(events, "invalid")[0].reason == "die 4 shows a 1"
    # attempt 3 fouls on its first (automatic) die, which ends the event
    assert [e.result for e in kinds(events, "result")] == [None, None]
    assert GAME.results(state).scores == (15,)


def test_high_jump_clears_14_skips_16_fails_18() -> None:
    state, _ = new_game(
        chain([4, 3, 3, 2, 1, 6, 6, 4, 2, 1], [5, 5, 3, 3, 1, 6, 4, 2, 2, 1, 6, 5, 4, 1, 1]),
        events="high-jump",
    )
    state, _ = play(state, Skip(), Skip())
    view = GAME.view(state, 0)
    assert view.height == 14 and view.phase == "jump-or-skip"
    state, events = play(state, Jump())  # a miss (13), then automatically a clear (19)
    assert [kind(e) for e in events if kind(e) in ("miss", "clear")] == ["miss", "clear"]
    state, events = play(state, Skip(), Jump())  # skip 16; three misses at 18
    assert [kind(e) for e in events if kind(e) in ("miss", "out")] == ["miss"] * 3 + ["out"]
    assert GAME.results(state).scores == (14,)


def test_400m_with_five_rethrows_scores_19() -> None:
    state, _ = new_game(
        chain([6, 2, 4, 4], [4, 3], [1, 2, 6, 5, 5, 2], [1, 3, 6, 4, 6, 3]), events="400m"
    )
    state, events = play(state, Rethrow(), F2, F2, Rethrow(), Rethrow(), F2, Rethrow(), Rethrow())
    # the fifth rethrow leaves none, so the 6-3 is frozen automatically (D4)
    assert data(kinds(events, "freeze")[-1]) == {
        "what": "set",
        "set_no": 4,
        "dice": [6, 3],
        "auto": True,
    }
    assert GAME.results(state).scores == (19,)


def test_110m_hurdles_with_one_rethrow_scores_22() -> None:
    state, _ = new_game([5, 4, 3, 3, 1, 6, 6, 5, 3, 2], events="hurdles")
    state, _ = play(state, Rethrow(), F5)
    assert GAME.results(state).scores == (22,)  # sixes count +6 in the hurdles (D5)


def test_discus_freezes_6_6_4_2_for_18() -> None:
    state, _ = new_game(
        chain([6, 3, 2, 2, 1, 6, 5, 3, 1, 4, 2, 5], [1, 3, 5, 5, 3], [1, 1, 1, 1, 1]),
        events="discus",
    )
    state, events = play(state, F1, Rethrow())  # the lone 6 of 6-5-3-1 freezes itself
    assert kinds(events, "freeze")[-1].auto is True
    state, events = play(state, Rethrow(), F2, Stop())
    assert kinds(events, "result")[0].result == 18
    assert [e.result for e in kinds(events, "result")] == [18, None, None]
    assert GAME.results(state).scores == (18,)


def test_pole_vault_clears_12_and_fails_16() -> None:
    state, _ = new_game(
        chain([6, 3, 3, 2], [6, 5, 5, 1], [6, 3, 3, 2, 1], [6, 4, 4, 3, 1]), events="pole"
    )
    state, _ = play(state, Skip(), Jump())
    assert GAME.view(state, 0).phase == "vault-dice"
    state, events = play(state, Vault(4), Skip(), Jump(), Vault(4))
    assert kinds(events, "clear")[0].height == 12
    view = GAME.view(state, 0)
    assert (view.height, view.jumps_at_height, view.phase) == (16, 1, "vault-dice")
    state, events = play(state, Vault(5), Vault(5))
    assert [e.reason for e in kinds(events, "miss")] == [
        "total 15 < 16 and a 1 shows",
        "a 1 shows (total 18)",
    ]
    assert GAME.results(state).scores == (12,)


def test_javelin_freezes_3_5_5_5_1_for_19() -> None:
    state, _ = new_game(
        [3, 6, 6, 2, 2, 1, 5, 5, 6, 3, 1, 5, 1, 6] + [2] * 6 + [4] * 6, events="javelin"
    )
    state, events = play(state, F1, Rethrow(), F2, Rethrow(), F2, Stop())
    assert kinds(events, "result")[0].result == 19
    assert GAME.results(state).scores == (19,)


def test_1500m_scores_22_per_the_d4_erratum() -> None:
    state, _ = new_game([1, 5, 5, 6, 3, 5, 2, 6, 4, 2, 4, 1, 6], events="1500")
    k = Freeze((0,))
    state, events = play(
        state, Rethrow(), k, k, Rethrow(), k, k, Rethrow(), Rethrow(), k, k, k, Rethrow()
    )
    frozen = [d for e in kinds(events, "freeze") for d in e.dice]
    assert frozen == [5, 5, 3, 5, 4, 2, 4, 6]
    assert GAME.results(state).scores == (22,)  # the Polish text prints 21 (D4 erratum)


def test_championship_100m_27_27_25_20_gives_honours_3_3_1_0() -> None:
    sets = {
        27: [5, 5, 5, 5, 4, 1, 1, 1],
        25: [5, 5, 5, 5, 2, 1, 1, 1],
        20: [5, 5, 5, 5, 6, 3, 2, 1],
    }
    dice = sets[27] + sets[27] + sets[25] + sets[20]
    state, _ = new_game(dice, players=4, events="100m", variant="championship")
    state, _ = play(state, *[F4] * 8)
    results = GAME.results(state)
    assert results.detail["sheet"] == {"100m": [27, 27, 25, 20]}
    assert results.scores == (3, 3, 1, 0)
    assert results.winners == (0, 1)
