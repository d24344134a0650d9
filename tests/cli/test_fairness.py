"""Issue 9 §1: secret seeds, the commitment, its check by replay, and replay --as."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRunner = Callable[[list[str]], tuple[int, str, str]]  # the `cli` fixture

SECRET = 0xC0FFEE_1234_5678_9ABC_DEF0_1357_9BDF  # a 128-bit seed to look for
BOTS = {
    "decathlon": "bot:greedy,bot:random",
    "dice-duel": "bot:turn-optimal,bot:random",
    "wurfeltod": "bot:greedy,bot:random",
    "decades": "Red:bot:expert,Blue:bot:novice",
}
# Wurfeltod for one human: book one box per turn straight after the first roll.
BOOKINGS = ["p", "pp", "1", "2", "3", "4", "5", "6", "s", "4k", "3p", "tt", "4p", "5k"]
BOOKINGS += ["5s", "sp", "6k", "6s", "f", "f"]


@pytest.fixture
def secret_seed(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("gamenight.core.seeds.draw_seed", lambda: SECRET)
    return SECRET


def _split_at_end(out: str) -> tuple[str, str]:
    during, sep, after = out.partition("Final standings")
    assert sep, out[-2000:]
    return during, after


@pytest.mark.parametrize("game", sorted(BOTS))
def test_the_seed_is_never_shown_during_a_game(
    game: str, secret_seed: int, tmp_path: Path, cli: CliRunner
) -> None:
    record = tmp_path / "g.jsonl"
    code, out, err = cli(
        ["play", game, "--players", BOTS[game], "--watch", "--record", str(record)]
    )
    assert code == 0, err
    during, after = _split_at_end(" ".join(out.split()))
    assert str(secret_seed) not in during and f"{secret_seed:x}" not in during
    head = json.loads(record.read_text().splitlines()[0])
    assert f"commitment {head['commitment'][:12]}" in during  # the fingerprint, up front
    assert str(secret_seed) in after and head["commitment"] in after  # revealed at the end
    assert "not secret" not in out


def test_a_human_game_shows_no_seed_until_the_end(
    secret_seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_a: str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"b {k}\n" for k in BOOKINGS)))
    code, out, err = cli(["play", "wurfeltod", "--players", "Ann"])
    assert code == 0, err
    during, after = _split_at_end(" ".join(out.split()))
    assert "Ann>" in during or "Ann" in during
    assert str(secret_seed) not in during
    assert f"Seed revealed: {secret_seed}" in after


def test_a_chosen_seed_says_the_game_is_not_secret(cli: CliRunner) -> None:
    code, out, _ = cli(["play", "wurfeltod", "--players", "bot:greedy", "--seed", "42"])
    assert code == 0
    assert "Seed 42 was chosen with --seed: this game is reproducible, not secret." in out


def _record(tmp_path: Path, cli: CliRunner, game: str = "dice-duel") -> Path:
    path = tmp_path / "g.jsonl"
    code, _, err = cli(["play", game, "--players", BOTS[game], "--record", str(path), "--quiet"])
    assert code == 0, err
    return path


def _rewrite(path: Path, change: Callable[[list[dict[str, object]]], None]) -> Path:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    change(rows)
    out = path.with_name("changed.jsonl")
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return out


def test_replay_checks_the_commitment(tmp_path: Path, cli: CliRunner) -> None:
    path = _record(tmp_path, cli)
    code, out, err = cli(["replay", str(path)])
    assert code == 0, err
    assert "the seed matches the commitment" in " ".join(out.split())

    def other_seed(rows: list[dict[str, object]]) -> None:
        rows[0]["seed"] = str(int(str(rows[0]["seed"])) + 1)

    code, _, err = cli(["replay", str(_rewrite(path, other_seed))])
    assert code == 1
    assert "does not match the commitment" in err and len(err.strip().splitlines()) == 1

    def other_commitment(rows: list[dict[str, object]]) -> None:
        rows[0]["commitment"] = "0" * 64

    code, _, err = cli(["replay", str(_rewrite(path, other_commitment))])
    assert code == 1 and "does not match the commitment" in err


def test_a_seed_revealed_only_in_the_last_line_replays(tmp_path: Path, cli: CliRunner) -> None:
    path = _record(tmp_path, cli)

    def server_style(rows: list[dict[str, object]]) -> None:
        seed = rows[0].pop("seed")
        rows.append({"type": "reveal", "seed": seed})

    code, out, err = cli(["replay", str(_rewrite(path, server_style))])
    assert code == 0, err and "matches the commitment" in out

    def not_yet(rows: list[dict[str, object]]) -> None:
        rows[0].pop("seed")

    code, _, err = cli(["replay", str(_rewrite(path, not_yet))])
    assert code == 1 and "not revealed yet" in err

    def revealed_wrong(rows: list[dict[str, object]]) -> None:
        seed = rows[0].pop("seed")
        rows.append({"type": "reveal", "seed": str(int(str(seed)) ^ 1)})

    code, _, err = cli(["replay", str(_rewrite(path, revealed_wrong))])
    assert code == 1 and "does not match the commitment" in err


def _old_record(tmp_path: Path) -> Path:
    """A finished format-2 record played with dice scheme 1 (as before scheme 2)."""
    from gamenight.core import registry
    from gamenight.core.record import RecordSeat, RecordWriter
    from gamenight.core.runner import Match
    from gamenight.core.seeds import derive

    entry = registry.get("dice-duel")
    path = tmp_path / "old.jsonl"
    agents = [entry.make_bot("random", derive(5, "bot", i)) for i in range(2)]
    seats = [RecordSeat("Ann", "bot:random"), RecordSeat("Bob", "bot:random")]
    match = Match(
        entry.game, entry.game.parse_options({}), 5, seats, agents,
        record=RecordWriter.create(path), dice_scheme=1,
    )  # fmt: skip
    match.run()
    assert match.record is not None
    match.record.close()
    return path


def test_a_format_1_record_replays_without_the_commitment_check(
    tmp_path: Path, cli: CliRunner
) -> None:
    path = _old_record(tmp_path)
    code, out, err = cli(["replay", str(path)])  # format 2, dice scheme 1: still replays
    assert code == 0, err
    assert "the seed matches the commitment" in " ".join(out.split())

    def version_1(rows: list[dict[str, object]]) -> None:
        head = rows[0]
        head["format_version"] = 1
        head["seed"] = int(str(head["seed"]))
        for key in ("commitment", "attachments", "started"):
            head.pop(key)

    code, out, err = cli(["replay", str(_rewrite(path, version_1))])
    assert code == 0, err
    assert "format 1 record: no commitment" in " ".join(out.split())


def test_replay_as_a_seat_prints_what_that_seat_saw(tmp_path: Path, cli: CliRunner) -> None:
    path = _record(tmp_path, cli, "decades")
    outputs = {}
    for who in ("1", "Blue", "spectator"):
        code, out, err = cli(["replay", str(path), "--as", who])
        assert code == 0, err
        outputs[who] = out
    assert "What Red saw" in outputs["1"]
    assert "What Blue saw" in outputs["Blue"]
    assert "What a spectator saw" in outputs["spectator"]
    assert "1. Red:" in outputs["1"] and "1. Red:" in outputs["spectator"]
    # Each seat sees its own secrets and no one else's (T7): the three differ.
    assert len({o.split("✓")[0] for o in outputs.values()}) == 3
    code, _, err = cli(["replay", str(path), "--as", "Green"])
    assert code == 1 and "no such seat" in err


def _doc_recipe() -> str:
    text = (Path(__file__).parents[2] / "docs" / "fairness.md").read_text()
    after = text.split("With Python", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize("scheme", [2, 1])
def test_the_hand_check_in_the_docs_checks_a_real_record(
    scheme: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    """The Python recipe of docs/fairness.md, run as printed, accepts the commitment
    and prints the game's first ten dice, for new records and for older scheme-1 ones."""
    from contextlib import redirect_stdout

    from gamenight.core.dice import SeededDice

    if scheme == 1:
        path = _old_record(tmp_path)
    else:
        path = tmp_path / "game.jsonl"
        code, _, err = cli(["play", "dice-duel", "--players", BOTS["dice-duel"],
                            "--seed", "5", "--record", str(path)])  # fmt: skip
        assert code == 0, err
    if path.name != "game.jsonl":  # the recipe opens game.jsonl
        path.rename(tmp_path / "game.jsonl")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with redirect_stdout(out):
        exec(compile(_doc_recipe(), "docs/fairness.md", "exec"), {})
    head = json.loads((tmp_path / "game.jsonl").read_text().splitlines()[0])
    first, dice = out.getvalue().splitlines()
    assert first == f"True {head['commitment'][:12]}"
    assert dice == str(list(SeededDice(5, scheme=scheme).roll(10)[0]))


def test_the_hand_check_in_the_docs_checks_an_online_record_with_contributions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same recipe on a record of an online room (entropy players-v1): it checks the
    sha256-v3 commitment and derives the dice seed from the contributions."""
    from contextlib import redirect_stdout

    from gamenight.core import registry
    from gamenight.core.dice import SeededDice
    from gamenight.core.record import Contribution, RecordSeat, RecordWriter, write_moves
    from gamenight.core.seeds import dice_seed

    game = registry.get("dice-duel").game
    parts = [Contribution(0, "player", "3f9a0c17e2b4d5a6 Zoë"), Contribution(1, "bot", None)]
    seats = [RecordSeat("Ann", "human"), RecordSeat("Bot", "bot:random")]
    with (tmp_path / "game.jsonl").open("w", encoding="utf-8") as out:
        write_moves(RecordWriter(out), game, game.parse_options({}), 77, seats, [],
                    contributions=parts)  # fmt: skip
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(compile(_doc_recipe(), "docs/fairness.md", "exec"), {})
    head = json.loads((tmp_path / "game.jsonl").read_text().splitlines()[0])
    first, dice = printed.getvalue().splitlines()
    assert first == f"True {head['commitment'][:12]}"
    derived = dice_seed(77, ["3f9a0c17e2b4d5a6 Zoë", None])
    assert dice == str(list(SeededDice(derived).roll(10)[0]))


def _online_record(path: Path) -> list[dict[str, object]]:
    """A finished online game (entropy players-v2) as a server writes it: seat 1 was
    silent, so its part is the server's, derived from the seed."""
    import random

    from gamenight.core import registry
    from gamenight.core.dice import SeededDice
    from gamenight.core.record import Contribution, RecordSeat, RecordWriter, write_moves
    from gamenight.core.seeds import dice_seed, server_part
    from gamenight.core.table import Table

    game = registry.get("dice-duel").game
    made = server_part(9, 1)
    parts = [Contribution(0, "player", "a1b2"), Contribution(1, "server", made)]
    seats = [RecordSeat("Ann", "human"), RecordSeat("Bo", "human")]
    table: Table = Table.start(
        game, 2, game.parse_options({}), SeededDice(dice_seed(9, ["a1b2", made]))
    )
    rng = random.Random(2)
    while not table.finished:
        seat = table.to_act()[0]
        table.submit(seat, rng.choice(table.position(seat).legal))
    with path.open("w", encoding="utf-8") as out:
        write_moves(RecordWriter(out), game, game.parse_options({}), 9, seats, table.moves(),
                    contributions=parts)  # fmt: skip
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_replay_checks_an_online_game_and_refuses_an_altered_contribution(
    tmp_path: Path, cli: CliRunner
) -> None:
    path = tmp_path / "online.jsonl"
    rows = _online_record(path)
    code, out, err = cli(["replay", str(path)])
    assert code == 0, err
    said = " ".join(out.split())  # the console wraps long lines
    assert "derived from it and 1 player contribution(s)" in said
    assert "1 made by the server for silent seats" in said
    rows[0]["contributions"][0]["value"] = "a1b3"  # type: ignore[index]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, err = cli(["replay", str(path)])
    assert code == 1 and err.startswith("gamenight: error: ") and err.count("\n") == 1, err


def test_replay_refuses_a_server_part_not_derived_from_the_seed(
    tmp_path: Path, cli: CliRunner
) -> None:
    """Issue 38: the part the server makes for a silent seat comes from the committed
    seed (players-v2), so a server cannot pick it after seeing the players' parts; a
    record whose server part is anything else (dice seed and all made to match) is
    refused."""
    from gamenight.core import registry
    from gamenight.core.record import Contribution, RecordSeat, RecordWriter, write_moves

    game = registry.get("dice-duel").game
    chosen = [Contribution(0, "player", "a1b2"), Contribution(1, "server", "c3d4")]
    seats = [RecordSeat("Ann", "human"), RecordSeat("Bo", "human")]
    path = tmp_path / "chosen.jsonl"
    with path.open("w", encoding="utf-8") as out:
        write_moves(RecordWriter(out), game, game.parse_options({}), 9, seats, [],
                    contributions=chosen)  # fmt: skip
    code, _out, err = cli(["replay", str(path)])
    assert code == 1 and "made by the server" in err and err.count("\n") == 1, err
    # a room of the older scheme (players-v1) made it at random: it cannot be checked
    older = tmp_path / "older.jsonl"
    with older.open("w", encoding="utf-8") as out:
        write_moves(RecordWriter(out), game, game.parse_options({}), 9, seats, [],
                    contributions=chosen, entropy="players-v1")  # fmt: skip
    code, _out, err = cli(["replay", str(older)])
    assert code == 0, err


def test_the_hand_check_in_the_docs_rederives_the_servers_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from contextlib import redirect_stdout

    _online_record(tmp_path / "game.jsonl")
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(compile(_doc_recipe(), "docs/fairness.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    assert lines[0].startswith("True ") and "seat 1's part, made by the server: True" in lines


def _decades_block() -> str:
    text = (Path(__file__).parents[2] / "docs" / "fairness.md").read_text()
    after = text.split("### The Decades' deal by hand", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize("seed", [3, 11, 2026])
def test_the_decades_deal_is_rederived_from_the_docs(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: the question deal (the pool also loses the cards kept apart) and the
    action cards follow from fairness.md alone."""
    import shutil
    from contextlib import redirect_stdout

    from gamenight.core import registry
    from gamenight.core.record import RecordSeat, RecordWriter, write_moves
    from gamenight.games import decades

    game = registry.get("decades").game
    options = game.parse_options({})
    seats = [RecordSeat("A", "human"), RecordSeat("B", "human")]
    with (tmp_path / "game.jsonl").open("w", encoding="utf-8") as out:
        table = write_moves(RecordWriter(out), game, options, seed, seats, [])
    data = Path(decades.__file__).parent / "data" / "questions.json"
    shutil.copy(data, tmp_path / "questions.json")
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(compile(_doc_recipe() + _decades_block(), "docs/fairness.md", "exec"), {})
    state: Any = table.state
    questions = [card.id for card in state.questions]
    hands = [sorted(hand) for hand in state.dealt]
    expected = f"questions {questions} team 1 {hands[0]} team 2 {hands[1]}"
    assert printed.getvalue().splitlines()[-1] == expected
