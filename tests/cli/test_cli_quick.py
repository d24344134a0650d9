"""The console script's replay cache (``gamenight.cli.quick``, issue 29): ``--help``,
``--version`` and ``list`` replayed from the cache print exactly what the real command
prints, in every language and on a terminal; a changed file, a damaged entry, output on
stderr or a failure means the real command and nothing replayed."""

from __future__ import annotations

import marshal
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from gamenight.cli import quick
from gamenight.core.languages import LANGUAGES

SLOW = "from gamenight.cli.main import run; run()"
FAST = (
    "import sys\n"
    "from gamenight.cli.quick import run\n"
    "run()\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write('REAL %s' % ('gamenight.cli.main' in sys.modules))\n"
)  # the real command ran (its --help imports no click since issue 46), or a replay
LOCALES = {"en": "en_GB.UTF-8", "de": "de_DE.UTF-8", "pl": "pl_PL.UTF-8"}


def gamenight(code: str, argv: list[str], env: dict[str, str]) -> tuple[bytes, str]:
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.decode()


def env_for(tmp_path: Path, lang: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    return {**env, "LANG": LOCALES[lang], "COLUMNS": "90", "GAMENIGHT_CACHE_DIR": str(tmp_path)}


def test_every_language_is_covered() -> None:
    assert set(LOCALES) == set(LANGUAGES)


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("argv", sorted(quick.QUICK))
def test_the_replay_is_the_real_commands_output(
    tmp_path: Path, lang: str, argv: tuple[str, ...]
) -> None:
    env = env_for(tmp_path, lang)
    real, _ = gamenight(SLOW, list(argv), env)
    first, said = gamenight(FAST, list(argv), env)  # runs the command, stores its text
    assert said.endswith("REAL True")
    again, said = gamenight(FAST, list(argv), env)  # replays it
    assert said.endswith("REAL False")
    assert first == real and again == real
    if argv == ("list",):
        assert b"Wurfeltod" in real


def on_a_terminal(code: str, argv: list[str], env: dict[str, str]) -> bytes:
    """What ``code`` prints with a pseudo-terminal for stdin, stdout and stderr."""
    leader, follower = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", code, *argv], stdin=follower, stdout=follower, stderr=follower,
        env=env,
    )  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert child.wait(timeout=120) == 0
    return b"".join(chunks)


@pytest.mark.parametrize("argv", [["list"], ["--help"]])
def test_on_a_terminal_too(tmp_path: Path, argv: list[str]) -> None:
    env = {**env_for(tmp_path, "de"), "TERM": "xterm-256color"}
    real = on_a_terminal(SLOW, argv, env)
    first = on_a_terminal(FAST, argv, env)
    again = on_a_terminal(FAST, argv, env)
    assert first.endswith(b"REAL True") and again.endswith(b"REAL False")
    assert first.removesuffix(b"REAL True") == real == again.removesuffix(b"REAL False")


def entry(tmp_path: Path, depends_on: Path) -> tuple[str, tuple[object, ...]]:
    key = ("a", "key")
    stamp = quick._stamp(str(depends_on))
    path = tmp_path / "entry.bin"
    path.write_bytes(marshal.dumps((key, [stamp], "stored text\n")))
    return str(path), key


def test_a_changed_dependency_means_the_real_command(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("x = 1\n")
    path, key = entry(tmp_path, source)
    assert quick._replay(path, key) == "stored text\n"
    assert quick._replay(path, ("another", "key")) is None
    source.write_text("x = 22\n")  # another size (and mtime)
    assert quick._replay(path, key) is None
    source.unlink()
    assert quick._replay(path, key) is None


def test_a_damaged_entry_is_ignored_and_replaced(tmp_path: Path) -> None:
    env = env_for(tmp_path, "en")
    real, _ = gamenight(SLOW, ["--version"], env)
    gamenight(FAST, ["--version"], env)
    (stored,) = (tmp_path / "cli").iterdir()
    stored.write_bytes(b"\x00not marshal")
    out, said = gamenight(FAST, ["--version"], env)
    assert out == real and said.endswith("REAL True")  # ran the command again
    out, said = gamenight(FAST, ["--version"], env)
    assert out == real and said.endswith("REAL False")  # and stored it anew


def test_nothing_is_stored_after_stderr_output_or_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def warns(args: list[str]) -> None:
        print("listed")
        print("gamenight: a plug-in is broken", file=sys.stderr)

    def fails(args: list[str]) -> None:
        print("half")
        raise SystemExit(2)

    quick._run_and_store(warns, ["list"], str(tmp_path / "a.bin"), ("k",))
    with pytest.raises(SystemExit):
        quick._run_and_store(fails, ["list"], str(tmp_path / "b.bin"), ("k",))
    assert list(tmp_path.iterdir()) == []
    assert capsys.readouterr().out == "listed\nhalf\n"  # printed all the same


def test_other_commands_and_the_off_switch_skip_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert quick._entry_path(("list", "--bots")) is None
    assert quick._entry_path(("play", "decathlon")) is None
    monkeypatch.setenv("GAMENIGHT_NO_QUICK", "1")
    assert quick._entry_path(("list",)) is None


def test_the_linux_cache_folder_is_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GAMENIGHT_CACHE_DIR", raising=False)
    for xdg in ("", "/tmp/somewhere-else"):
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
        if sys.platform.startswith("linux"):
            assert quick._cache_dir() == quick._platform_cache_dir()


def test_old_entries_are_pruned(tmp_path: Path) -> None:
    for i in range(5):
        entry_file = tmp_path / f"{i}.bin"
        entry_file.write_bytes(b"x")
        os.utime(entry_file, ns=(i * 10**9, i * 10**9))
    (tmp_path / "other.txt").write_text("not an entry")
    quick._prune(str(tmp_path), keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["3.bin", "4.bin", "other.txt"]
