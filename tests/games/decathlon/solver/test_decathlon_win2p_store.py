"""The two-player win table on disk (solver/win2p_store.py, win2p_file.py, issue 46): the
error bound is stored with the table and reads back exactly as computed; a format-1 file
(no bound) is upgraded once; a damaged file is one line naming the rebuild command; the
inner tables are read on first use and equal the built ones; the cached summary needs no
numpy.

The bound is a float written into the JSON header by its ``repr``, so it reads back
bit for bit: the tests compare with ``==``, no tolerance.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from gamenight.games.decathlon.solver import win2p, win2p_file, win2p_store
from gamenight.games.decathlon.solver.win2p_file import WinTableCorruptError

CHAIN = ("high-jump", "1500m")  # a race's inner table, a nonzero bound, 0.05 s to build
ATTEMPTS = ("discus",)  # the cheapest chain with an attempts table (under a second)


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(win2p_store.CACHE_ENV, str(tmp_path))
    win2p_store._loaded.clear()


def _built(events: tuple[str, ...]) -> win2p.WinTable:
    table = win2p_store.table_for(events, build=True)
    assert table is not None
    win2p_store._loaded.clear()  # the next table_for reads the file
    return table


def _write_v1(table: win2p.WinTable) -> Path:
    """``table`` as format 1 wrote it (no bound), where format 1 kept it."""
    path = win2p_store.table_path(table.events, version=1)
    arrays: dict[str, np.ndarray] = {f"w{k}": w for k, w in enumerate(table.w)}
    for k, (after, lo) in table.after_first.items():
        arrays[f"after{k}"], arrays[f"lo{k}"] = after, np.array([lo])
    for k, halves in table.halves.items():
        arrays[f"halves{k}"] = halves
    meta = {
        "format": win2p_store.FORMAT,
        "version": 1,
        "events": list(table.events),
        "eps": table.eps,
        "limits": list(table.limits),
    }
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]
    return path


def test_the_stored_bound_reads_back_exactly_as_computed() -> None:
    built = _built(CHAIN)
    computed = built.proven_bound()
    assert 0.0 < computed <= win2p_store.EPS  # truncated leads: a real bound
    assert built.bound == computed
    head = win2p_file.read_head(win2p_store.table_path(CHAIN), CHAIN)
    assert head is not None and head.version == win2p_file.VERSION
    assert head.bound == computed
    loaded = win2p_store.table_for(CHAIN)
    assert loaded is not None and loaded is not built
    assert loaded.stored_bound == computed  # read, not computed again
    assert loaded.bound == loaded.proven_bound()
    for mine, theirs in zip(loaded.w, built.w, strict=True):
        assert np.array_equal(mine, theirs)


def test_inner_tables_are_read_on_first_use_and_equal_the_built_ones() -> None:
    for events in (CHAIN, ATTEMPTS):
        built = _built(events)
        loaded = win2p_store.table_for(events)
        assert loaded is not None
        assert not loaded.after_first and not loaded.halves  # nothing read yet
        for k, (after, lo) in built.after_first.items():
            mine, my_lo = loaded.after_first[k]
            assert np.array_equal(mine, after) and my_lo == lo
        for k, halves in built.halves.items():
            assert np.array_equal(loaded.halves[k], halves)
        assert built.after_first or built.halves


def test_a_format_1_table_gets_its_bound_once_and_is_written_back() -> None:
    built = _built(CHAIN)
    v2 = win2p_store.table_path(CHAIN)
    v2.unlink()
    v1 = _write_v1(built)
    assert win2p_file.read_head(v1, CHAIN).bound is None  # type: ignore[union-attr]
    upgraded = win2p_store.table_for(CHAIN, build=False)  # no build: read and upgraded
    assert upgraded is not None
    assert upgraded.bound == built.bound
    head = win2p_file.read_head(v2, CHAIN)
    assert head is not None and head.bound == built.bound
    for k, (after, lo) in built.after_first.items():  # the inner tables came along
        assert np.array_equal(win2p_store.load(v2, CHAIN).after_first[k][0], after)  # type: ignore[union-attr]
        assert win2p_store.load(v2, CHAIN).after_first[k][1] == lo  # type: ignore[union-attr]


def _damage_member(path: Path, member: str) -> None:
    """Flip a byte inside ``member``'s data: its CRC no longer matches."""
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(member)
    raw = bytearray(path.read_bytes())
    name_len = int.from_bytes(raw[info.header_offset + 26 : info.header_offset + 28], "little")
    extra_len = int.from_bytes(raw[info.header_offset + 28 : info.header_offset + 30], "little")
    data = info.header_offset + 30 + name_len + extra_len
    raw[data + info.compress_size - 3] ^= 0xFF
    path.write_bytes(bytes(raw))


def _one_line(error: WinTableCorruptError, path: Path) -> None:
    text = str(error)
    assert "\n" not in text
    assert str(path) in text
    assert "gamenight solve decathlon --two-player-win --rebuild --event high-jump,1500m" in text


@pytest.mark.parametrize(
    "damage",
    ["truncated", "w0's CRC", "header's CRC", "no bound", "a bound above 1", "garbage"],
)
def test_a_damaged_table_is_one_line_naming_the_rebuild(damage: str) -> None:
    built = _built(CHAIN)
    path = win2p_store.table_path(CHAIN)
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:-100])
    elif damage == "w0's CRC":
        _damage_member(path, "w0.npy")
    elif damage == "header's CRC":
        _damage_member(path, "meta.npy")
    elif damage == "garbage":
        path.write_bytes(b"not a zip\n" * 50)
    else:
        with np.load(path) as data:
            arrays = {name: np.array(data[name]) for name in data.files}
        meta = json.loads(bytes(arrays["meta"]).decode())
        if damage == "no bound":
            del meta["bound"]
        else:
            meta["bound"] = 1.5
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        with path.open("wb") as out:
            np.savez(out, **arrays)  # type: ignore[arg-type]
    with pytest.raises(WinTableCorruptError) as caught:
        win2p_store.table_for(CHAIN)
    _one_line(caught.value, path)
    # the command it names builds the file again
    again = win2p_store.table_for(CHAIN, rebuild=True)
    assert again is not None and again.bound == built.bound
    win2p_store._loaded.clear()
    assert win2p_store.table_for(CHAIN) is not None


def test_an_inner_table_damaged_after_loading_is_one_line_on_first_use() -> None:
    _built(CHAIN)
    path = win2p_store.table_path(CHAIN)
    loaded = win2p_store.table_for(CHAIN)
    assert loaded is not None
    _damage_member(path, "after1.npy")
    with pytest.raises(WinTableCorruptError) as caught:
        loaded.after_first[1]
    _one_line(caught.value, path)


def test_the_cached_summary_imports_no_numpy(tmp_path: Path) -> None:
    """A cached ``solve --two-player-win`` reads the header and W only (the point of
    issue 46): numpy and the event solvers are never imported."""
    _built(CHAIN)
    code = (
        "import sys\n"
        "from gamenight.games.decathlon.solver.capability import SOLVER\n"
        "s = SOLVER.solve({'events': 'high-jump,1500m', 'two-player-win': True})\n"
        "print(s.bound, len(s.values[0]))\n"
        "print(sorted(m for m in sys.modules if m == 'numpy' or m.endswith('.table')))\n"
    )
    env = {**os.environ, win2p_store.CACHE_ENV: str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.splitlines()
    head = win2p_file.read_head(win2p_store.table_path(CHAIN), CHAIN)
    assert head is not None
    assert out == [f"{head.bound} {head.limits[0] + 1}", "[]"]


def test_the_preparation_replaces_a_damaged_table() -> None:
    """A server's build (``GameInfo.preparation``) was asked to build: it builds again
    over a damaged file instead of failing on it."""
    built = _built(CHAIN)
    path = win2p_store.table_path(CHAIN)
    path.write_bytes(b"garbage")
    win2p_store.prepare(lambda done, total: None, ",".join(CHAIN))
    win2p_store._loaded.clear()
    again = win2p_store.table_for(CHAIN, build=False)
    assert again is not None and again.bound == built.bound


def test_live_odds_over_a_damaged_table_show_points_play_only() -> None:
    """The odds are an aid: a damaged table leaves out the win-play series (as when it
    is not built); the winner bot is the one that says so, in one line."""
    from gamenight.core.runner import play_match
    from gamenight.games.decathlon import bots
    from gamenight.games.decathlon.game import GAME
    from gamenight.games.decathlon.odds import POINTS_LABEL, live_odds

    _built(CHAIN)
    win2p_store.table_path(CHAIN).write_bytes(b"garbage")
    shown: list[object] = []

    class Probe(bots.WinnerPointsAgent):
        def act(self, decision):  # type: ignore[no-untyped-def]
            shown.append(live_odds(decision.view))
            return super().act(decision)

    options = GAME.parse_options({"events": "high,1500m"})
    play_match(GAME, [Probe(1), Probe(2)], seed=4, options=options)
    assert shown and all(o is None or (o.also is None and o.label == POINTS_LABEL) for o in shown)  # type: ignore[attr-defined]
    with pytest.raises(WinTableCorruptError):
        play_match(GAME, [bots.WinnerAgent(1), bots.WinnerAgent(2)], seed=4, options=options)
