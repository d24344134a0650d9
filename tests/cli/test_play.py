"""End to end: each issue's all-bot command, then replay of its record."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

CliRunner = Callable[[list[str]], tuple[int, str, str]]  # the `cli` fixture

COMMANDS = {
    "decathlon": ["--players", "bot:random,bot:greedy,bot:greedy", "--seed", "7"],
    "dice-duel": ["--players", "bot:turn-optimal,bot:random", "--seed", "3"],
    "wurfeltod": ["--players", "bot:greedy,bot:random", "--seed", "5"],
    "decades": ["--players", "Red:bot:expert,Blue:bot:novice", "--seed", "11"],
}


@pytest.mark.parametrize("game", sorted(COMMANDS))
def test_all_bot_game_records_and_replays(game: str, tmp_path: Path, cli: CliRunner) -> None:
    record = tmp_path / "g.jsonl"
    code, out, err = cli(["play", game, *COMMANDS[game], "--record", str(record)])
    assert code == 0, err
    assert "Final standings" in out
    code, out, err = cli(["replay", str(record)])
    assert code == 0, err
    assert "every event and the result match" in out

    # Tamper with one recorded event: replay must fail with exit 1, naming the action.
    lines = record.read_text().splitlines()
    for i, line in enumerate(lines):
        row = json.loads(line)
        if row["type"] == "action" and row["events"]:
            row["events"][0]["kind"] += "-tampered"
            lines[i] = json.dumps(row)
            break
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    code, _, err = cli(["replay", str(tampered)])
    assert code == 1
    assert "differs" in err and "Traceback" not in err


def test_list_shows_every_game(cli: CliRunner) -> None:
    code, out, _ = cli(["list"])
    assert code == 0
    for game in COMMANDS:
        assert game in out


@pytest.mark.parametrize("game", sorted(COMMANDS))
def test_rules_print(game: str, cli: CliRunner) -> None:
    code, out, _ = cli(["rules", game])
    assert code == 0
    assert len(out) > 2000


def test_bad_option_is_a_usage_error(cli: CliRunner) -> None:
    code, _, err = cli(
        ["play", "decathlon", "--players", "bot:random", "--events", "100m,marathon"]
    )
    assert code == 2
    assert "marathon" in err
