"""Dice scheme 2 (one blake2b per eight dice) and the records that still use scheme 1.

Scheme 1 (one hash per die) is how every record of format 1 and 2 was played; those
records and unfinished saves must replay and resume with exactly their own dice.
The recipes below are written from docs/fairness.md, independently of core.dice.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.errors import RecordError
from gamenight.core.record import RecordSeat, RecordWriter, read_record, replay, resume_record
from gamenight.core.runner import Match
from gamenight.core.seeds import derive


def doc_die_v1(seed: int, index: int, sides: int = 6) -> int:
    limit = 256 - 256 % sides
    salt = 0
    while True:
        block = hashlib.blake2b(f"{seed}:{index}:{salt}".encode(), digest_size=16).digest()
        for byte in block:
            if byte < limit:
                return byte % sides + 1
        salt += 1


def doc_die_v2(seed: int, index: int, sides: int = 6) -> int:
    limit = 256 - 256 % sides
    digest = hashlib.blake2b(f"{seed}:{index // 8}".encode(), digest_size=64).digest()
    for byte in digest[8 * (index % 8) : 8 * (index % 8) + 8]:
        if byte < limit:
            return byte % sides + 1
    return doc_die_v1(seed, index, sides)


@given(
    seed=st.integers(min_value=0, max_value=2**128 - 1),
    throws=st.lists(st.integers(min_value=0, max_value=9), max_size=12),
    sides=st.sampled_from([2, 3, 5, 6, 7, 8, 129, 200, 255, 256]),  # big: often all 8 rejected
    scheme=st.sampled_from([1, 2]),
)
def test_every_die_is_the_documented_one_however_the_dice_are_grouped(
    seed: int, throws: list[int], sides: int, scheme: int
) -> None:
    dice = SeededDice(seed=seed, scheme=scheme)
    faces: list[int] = []
    for n in throws:
        thrown, dice = dice.roll(n, sides)
        assert len(thrown) == n
        faces.extend(thrown)
    recipe = doc_die_v2 if scheme == 2 else doc_die_v1
    assert faces == [recipe(seed, i, sides) for i in range(len(faces))]
    assert dice.counter == len(faces) and dice.scheme == scheme


def test_scheme_2_faces_are_fair_over_many_dice() -> None:
    faces, _ = SeededDice(seed=2026).roll(60_000)
    counts = [faces.count(f) for f in range(1, 7)]
    # chi-square with 5 degrees of freedom; 20.5 is its 0.999 quantile
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts)
    assert chi2 < 20.5, counts


GAME_ID = "decathlon"
OPTIONS = {"events": "100m,long-jump"}


def _match(path: Path, scheme: int, seed: int = 11) -> Match:
    entry = registry.get(GAME_ID)
    agents = [entry.make_bot("random", derive(seed, "bot", 0))]
    seats = [RecordSeat("Ann", "bot:random")]
    options = entry.game.parse_options(OPTIONS)
    writer = RecordWriter.create(path)
    return Match(entry.game, options, seed, seats, agents, record=writer, dice_scheme=scheme)


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize(("scheme", "version"), [(1, 2), (2, 4)])
def test_a_record_replays_with_the_dice_it_was_played_with(
    tmp_path: Path, scheme: int, version: int
) -> None:
    path = tmp_path / "g.jsonl"
    match = _match(path, scheme)
    match.run()
    assert match.record is not None
    match.record.close()
    assert _rows(path)[0]["format_version"] == version
    report = replay(read_record(path))
    assert report.finished and report.dice_scheme == scheme
    final: Any = report.final_state  # every built-in game's state has its dice
    assert final.dice.scheme == scheme


def test_the_dice_scheme_cannot_be_swapped_after_the_game(tmp_path: Path) -> None:
    for scheme, other_version in ((1, 3), (2, 2)):
        path = tmp_path / f"g{scheme}.jsonl"
        match = _match(path, scheme)
        match.run()
        assert match.record is not None
        match.record.close()
        rows = _rows(path)
        rows[0]["format_version"] = other_version
        with pytest.raises(RecordError, match="does not match the commitment"):
            replay(read_record(_write(tmp_path / "swapped.jsonl", rows)))


def test_a_save_from_before_scheme_2_resumes_with_its_own_dice(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    match = _match(path, 1)
    match.begin()
    for _ in range(6):  # part of the game, as if the player had quit
        match.step()
    assert match.record is not None
    match.record.close()
    assert not match.finished()

    resumed = resume_record(path)
    assert resumed.report.dice_scheme == 1
    entry = registry.get(GAME_ID)
    again = Match(
        entry.game,
        entry.game.parse_options(OPTIONS),
        11,
        [RecordSeat("Ann", "bot:random")],
        [entry.make_bot("random", derive(11, "bot", 0))],
        record=resumed.writer,
        dice_scheme=resumed.report.dice_scheme,
    )
    again.begin(replayed=[(s, entry.game.decode_action(a)) for s, a, _ in resumed.record.actions])
    again.run()
    resumed.writer.close()
    report = replay(read_record(path))  # every die of the finished game is scheme 1's
    assert report.finished and report.dice_scheme == 1
    assert _rows(path)[0]["format_version"] == 2
