"""The command line: usage errors are one line with exit code 2."""

from __future__ import annotations

from collections.abc import Callable

import pytest

CliRunner = Callable[[list[str]], tuple[int, str, str]]  # the `cli` fixture


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bogus"], "No such command 'bogus'"),
        (["play"], "Missing argument 'GAME'"),
        (["play", "chess", "--players", "a"], "unknown game 'chess'"),
        (["play", "decathlon", "--players", "a", "--seed", "x"], "not a valid integer"),
        (["rules", "nope"], "unknown game 'nope'"),
    ],
)
def test_usage_errors_are_one_line_exit_2(argv: list[str], message: str, cli: CliRunner) -> None:
    code, _, err = cli(argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_replay_of_missing_file_exits_1(cli: CliRunner) -> None:
    code, _, err = cli(["replay", "/nonexistent/record.jsonl"])
    assert code == 1
    assert "no such record file" in err


def test_bad_setup_is_refused_before_the_game_starts(cli: CliRunner) -> None:
    code, out, err = cli(["play", "dice-duel", "--players", "bot:random", "--seed", "1"])
    assert code == 2
    assert out == ""
    assert err.startswith("gamenight: error: Kniffel Dice Duel takes 2 to 6 players, not 1")


def test_sim_prints_win_shares_as_json(cli: CliRunner) -> None:
    import json

    code, out, _ = cli(["sim", "wurfeltod", "--bots", "greedy,bot:random", "--games", "3",
                        "--json"])  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert [seat["bot"] for seat in report["seats"]] == ["greedy", "random"]
    assert report["games"] == 3
