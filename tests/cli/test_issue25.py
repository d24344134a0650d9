"""Issue 25 §2-§5: the line-mode terminal's crashes, integrity defects, leaks and
annoyances, each with a test that would have caught it.

Subprocess tests run this checkout's ``gamenight`` (PYTHONPATH is inherited) with their
own data folder; in-process tests use the ``cli`` fixture or a scripted prompter.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from gamenight.cli.menu import MENU_PROMPT, main_menu
from gamenight.cli.players import parse_players
from gamenight.cli.session import Session
from gamenight.core import registry
from gamenight.core.errors import OptionsError
from gamenight.core.files import FileProblem, check_depth, read_bytes
from gamenight.core.record import read_record, replay
from gamenight.core.seeds import MAX_SEED_DIGITS
from gamenight.games.decades.deck import DeckError, load_deck
from gamenight.sim.ratings import RatingStore, rate_table_game
from gamenight.terminal.ui import Prompter
from gamenight.terminal.words import plural

CliRunner = Callable[[list[str]], tuple[int, str, str]]
GAMENIGHT = Path(sys.executable).parent / "gamenight"
GAMES = {entry.id: str(n) for n, entry in enumerate(registry.available(), start=1)}
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user data folder, for this process and for subprocesses."""
    folder = tmp_path / "data"
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_a: str(folder / "gamenight"))
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return folder / "gamenight"


def run(
    args: list[str] | str, *, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``gamenight ARGS`` (a list), or a bash line using ``gamenight`` (a string)."""
    environ = {**os.environ, **(env or {})}
    if isinstance(args, str):
        command = ["bash", "-c", args.replace("gamenight", str(GAMENIGHT))]
    else:
        command = [str(GAMENIGHT), *args]
    return subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        encoding="utf-8",
        errors="replace",  # a latin-1 run prints latin-1
        env=environ,
        timeout=120,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


# ----- 2.1 a ratings file of the wrong shape ------------------------------------------------
BAD_RATINGS = ["[]", '{"players":{"Ann":1}}', DEEP, '{"players": {"Ann": {"mu": "x"}}}', "\xff"]


@pytest.mark.parametrize("content", BAD_RATINGS, ids=["list", "number", "deep", "str", "bytes"])
def test_a_damaged_ratings_file_never_costs_a_game_its_ending(
    data: Path, content: str, cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = data / "ratings" / "decathlon.json"
    store.parent.mkdir(parents=True)
    store.write_bytes(content.encode("latin-1"))
    monkeypatch.setattr("sys.stdin", io.StringIO("f\nf\n"))
    args = ["play", "decathlon", "--players", "Tess,bot:greedy", "--events", "100m"]
    code, out, err = cli([*args, "--seed", "2"])
    assert code == 0, err
    assert "Final standings" in out and "Seed: 2" in out
    flat = " ".join(out.split())
    assert "was damaged" in flat and "ratings start afresh" in flat
    kept = list(store.parent.glob("decathlon.json.bad-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == content.encode("latin-1")
    assert RatingStore("decathlon").get("Tess").games == 1  # rated afresh, and saved
    code, out, err = cli(["ratings", "decathlon"])
    assert code == 0 and "Tess" in out and err == ""


def test_gamenight_ratings_sets_a_damaged_file_aside_in_one_line(data: Path) -> None:
    store = data / "ratings" / "wurfeltod.json"
    store.parent.mkdir(parents=True)
    store.write_text("[]")
    done = run(["ratings", "wurfeltod"])
    assert done.returncode == 0
    assert "was damaged (Expected `object`, got `array`)" in one_line_error(done)
    assert not store.exists() and len(list(store.parent.glob("*.bad-*"))) == 1


def test_rate_table_game_says_why_it_could_not_save(tmp_path: Path) -> None:
    root = tmp_path / "ratings"
    root.write_text("a file where the folder should be")
    heard: list[str] = []
    seats = parse_players("Ann,bot:greedy", ["greedy"])
    assert rate_table_game("decathlon", seats, [1, 2], root, say=heard.append) is None
    assert len(heard) == 1 and heard[0].startswith("the ratings were not updated")


# ----- 2.2 a non-UTF-8 locale ------------------------------------------------------------------
ASCII = {"PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0"}


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_non_utf8_locale_degrades_the_menu_and_a_game(data: Path, encoding: str) -> None:
    env = {**ASCII, "PYTHONIOENCODING": encoding}
    menu = run([], stdin="q\n", env=env)
    assert menu.returncode == 0 and "Traceback" not in menu.stderr, menu.stderr
    assert "gamenight - games for the table" in menu.stdout  # the em dash, degraded
    game = run(
        ["play", "decathlon", "--players", "Tess,bot:greedy", "--events", "100m", "--seed", "2"],
        stdin="f\nf\n",
        env=env,
    )
    assert game.returncode == 0 and "Traceback" not in game.stderr, game.stderr
    assert "Final standings" in game.stdout
    saves = list((data / "saves").glob("*.jsonl"))
    assert len(saves) == 1 and read_record(saves[0]).finished
    typed = subprocess.run(  # a name typed in UTF-8 at an ASCII terminal: read, not a crash
        [str(GAMENIGHT)],
        input=f"{GAMES['wurfeltod']}\nZo\u00eb\n\n".encode(),  # then the end of input
        capture_output=True,
        env={**os.environ, **env},
        timeout=120,
    )
    assert b"Traceback" not in typed.stderr, typed.stderr
    assert b"Game saved after 0 actions" in typed.stdout  # Zo?? played, then left


def test_a_crash_before_the_first_line_leaves_no_empty_save(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(self: Session) -> None:
        raise UnicodeEncodeError("ascii", "\u2014", 0, 1, "ordinal not in range(128)")

    monkeypatch.setattr(Session, "announce", crash)
    entry = registry.get("wurfeltod")
    console = Console(file=io.StringIO())
    session = Session(entry, parse_players("Ann", []), {}, 5, console, Prompter(console))
    with pytest.raises(UnicodeEncodeError):
        session.build()
    assert list((data / "saves").glob("*")) == []


# ----- 2.3 decks import -------------------------------------------------------------------------
def _deck_json(year: str = "1987", cards: str | None = None) -> str:
    card = (
        '{"id": "a", "questions": [{"category": "music", "text": "q", '
        f'"year": {year}, "source": "s"}}]}}'
    )
    return (
        '{"format": "gamenight-decades-deck", "version": 1, '
        f'"cards": {cards if cards is not None else "[" + card + "]"}}}'
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_deck_json(year="1e400"), "field 'year': number out of range"),
        (_deck_json(cards=DEEP), "JSON nested deeper than 16 levels"),
    ],
    ids=["1e400", "deep"],
)
def test_decks_import_refuses_in_one_line(
    data: Path, tmp_path: Path, text: str, message: str
) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text(text)
    done = run(["decks", "import", str(deck)])
    assert done.returncode == 2 and message in one_line_error(done)


def test_deck_text_takes_the_name_policy_on_import(tmp_path: Path) -> None:
    rows = ["card,category,year,question,source", 'c1,music,1987,"Cleared\x1b[2J?",s']
    deck = tmp_path / "deck.csv"
    deck.write_text("\n".join(rows) + "\n")
    with pytest.raises(DeckError, match=r"row 2.*control characters \(U\+001B\)"):
        load_deck(deck)


def test_deck_text_is_filtered_on_display() -> None:
    from gamenight.terminal.decades_text import line_of

    assert "\x1b" not in line_of("Q: ", ("\x1b[2Jboo", "bold")).plain


# ----- 2.4 closed standard streams --------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("gamenight <&-", "standard input is closed, and the menu needs one"),
        ("gamenight play wurfeltod --players Ann <&-", "standard input is closed"),
        ("gamenight resume --last <&-", "standard input is closed"),
        ("gamenight list >&-", "standard output is closed"),
        ("gamenight >&-", "standard output is closed"),
    ],
)
def test_closed_standard_streams_are_one_line_errors(data: Path, line: str, message: str) -> None:
    done = run(line)
    assert done.returncode == 2 and message in one_line_error(done)
    assert not (data / "saves").exists() or list((data / "saves").iterdir()) == []


def test_a_bot_game_and_list_need_no_standard_input(data: Path) -> None:
    assert run("gamenight list <&-").returncode == 0
    assert run("gamenight play wurfeltod --players bot:greedy --seed 1 <&-").returncode == 0


# ----- 2.5 anything but a regular file ----------------------------------------------------------
def test_a_fifo_in_the_saves_folder_is_never_waited_on(data: Path, tmp_path: Path) -> None:
    saves = data / "saves"
    saves.mkdir(parents=True)
    os.mkfifo(saves / "fifo.jsonl")
    done = run(["saves"])  # a hang here is the bug (run() times out)
    assert done.returncode == 0 and "No saved unfinished games" in done.stdout
    done = run(["resume", "--last"])
    assert done.returncode == 2 and "no saved unfinished game" in one_line_error(done)
    for command in (["resume"], ["replay"]):
        done = run([*command, str(saves / "fifo.jsonl")])
        assert done.returncode == 1 and "not a regular file" in one_line_error(done)
    os.mkfifo(tmp_path / "deck.json")
    done = run(["decks", "import", str(tmp_path / "deck.json")])
    assert done.returncode == 2 and "not a regular file" in one_line_error(done)


def test_read_bytes_refuses_what_it_should_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 100)
    for path, message in [
        (tmp_path / "fifo", "not a regular file"),
        (tmp_path, "is a directory"),
        (tmp_path / "none", "no such file"),
        (big, "too big"),
    ]:
        with pytest.raises(FileProblem, match=message):
            read_bytes(path, limit=10)
    assert read_bytes(big) == b"x" * 100
    with pytest.raises(FileProblem, match="deeper than 3"):
        check_depth('{"a": [[["x"]]]}', 3)
    check_depth('{"a": [["[[[[[["]]}', 3)  # brackets inside strings do not count


# ----- 3.6 one seed limit -----------------------------------------------------------------------
def test_the_longest_seed_plays_resumes_and_replays(tmp_path: Path, cli: CliRunner) -> None:
    longest, record = "9" * MAX_SEED_DIGITS, tmp_path / "g.jsonl"
    args = ["play", "wurfeltod", "--players", "bot:greedy", "--record", str(record)]
    code, _, err = cli([*args, "--seed", longest])
    assert code == 0, err
    assert replay(read_record(record)).actions > 0
    code, _, err = cli([*args, "--seed", longest + "9", "--force"])
    assert code == 2 and f"at most {MAX_SEED_DIGITS} digits (this one has 81)" in err


def test_the_menu_takes_the_same_seed_limit(monkeypatch: pytest.MonkeyPatch, data: Path) -> None:
    longest = "7" * MAX_SEED_DIGITS
    shown = run_menu(monkeypatch, GAMES["wurfeltod"], "bot:greedy", longest + "7", longest, "q")
    assert f"a seed has at most {MAX_SEED_DIGITS} digits" in shown
    assert f"Seed {longest} was chosen with --seed" in shown


# ----- §5 -------------------------------------------------------------------------------------
def run_menu(monkeypatch: pytest.MonkeyPatch, *keys: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(k + "\n" for k in keys)))
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    with contextlib.suppress(EOFError):
        main_menu(console, Prompter(console))
    return out.getvalue()


def _scripted(keys: list[str]) -> Prompter:
    """Scripted keys; "^C" is Ctrl-C and "^D" (or running out) the end of input."""
    console = Console(file=io.StringIO(), width=200, color_system=None)
    answers: Iterator[str] = iter(keys)

    def read(prompt: str) -> str:
        answer = next(answers, "^D")
        console.print(prompt + ("" if answer.startswith("^") else answer))
        if answer == "^C":
            raise KeyboardInterrupt
        if answer == "^D":
            raise EOFError
        return answer

    return Prompter(console, reader=read)


def _shown(prompter: Prompter) -> str:
    file = prompter.console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def test_a_resumed_game_with_a_public_seed_is_not_announced_as_secret(
    data: Path, cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("b p\n"))
    _, out, _ = cli(["play", "wurfeltod", "--players", "Ann", "--seed", "5"])
    assert "Seed 5 was chosen with --seed" in out
    [save] = (data / "saves").glob("*.jsonl")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    _, out, _ = cli(["resume", str(save)])
    assert "Seed 5 was chosen with --seed" in out and "revealed at the end" not in out


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("Ann,Ann\u200b", "two seats are named 'Ann\\u200b' (or names that look the same)"),
        ("Ann,ANN", "two seats are named 'ANN'"),
        ("Zoe\u0301,Zo\u00e9", "two seats are named"),  # one name in NFC and NFD
        ("\u200b\u2060", "a name needs a visible character"),
        ("Ann\nBob", "control characters (U+000A)"),
        ("x" * 1_000_000, "a name is 1 to 40 characters"),
    ],
    ids=["zero-width", "case", "nfc", "invisible", "newline", "huge"],
)
def test_names_follow_the_servers_policy(players: str, message: str) -> None:
    with pytest.raises(OptionsError) as caught:
        parse_players(players, ["greedy"])
    assert message in str(caught.value)
    assert len(str(caught.value)) < 300  # never the huge input in full


def test_an_error_never_echoes_a_huge_input(cli: CliRunner) -> None:
    code, _, err = cli(["play", "wurfeltod", "--players", "bot:" + "x" * 1_000_000])
    assert code == 2 and "unknown bot" in err and len(err) < 500


def test_solo_dice_duel_names_the_maximum(cli: CliRunner) -> None:
    code, out, err = cli(
        ["play", "dice-duel", "--players", "bot:turn-optimal", "--mode", "solo", "--watch"]
    )
    assert code == 0, err
    assert "points of the 1000 possible" in " ".join(out.split())


def test_live_odds_say_what_they_assume(
    cli: CliRunner, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("f\nf\n"))
    code, out, err = cli(
        ["play", "decathlon", "--players", "Tess,bot:random", "--events", "100m", "--seed", "2"]
    )
    assert code == 0, err
    assert "the odds assume every player, bots included, plays for the most points" in (
        " ".join(out.split())
    )


def test_ctrl_c_in_the_set_up_goes_back_one_step(data: Path) -> None:
    entry = registry.get("decathlon")
    helps = [spec.help for spec in entry.game.info.options]
    assert len(helps) == 2  # variant, events

    def label(prompt: str) -> str:
        if prompt == MENU_PROMPT:
            return "menu"
        for word in ("Players", "Seed"):
            if prompt.startswith(word):
                return word.lower()
        return next(f"option {n}" for n, h in enumerate(helps, 1) if prompt.startswith(h))

    steps = [
        ("menu", GAMES["decathlon"]),
        ("option 1", ""),
        ("option 2", "^C"),  # back to the first option
        ("option 1", "^C"),  # back to the menu
        ("menu", GAMES["decathlon"]),
        ("option 1", ""),
        ("option 2", ""),
        ("players", "^C"),  # back to the last option
        ("option 2", ""),
        ("players", "bot:greedy"),
        ("seed", "^C"),  # back to the players
        ("players", "^D"),  # back to the options
        ("option 1", "^C"),
        ("menu", "q"),
    ]
    prompter = _scripted([key for _, key in steps])
    scripted = prompter.reader
    assert scripted is not None
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(label(prompt))
        return scripted(prompt)

    prompter.reader = read
    main_menu(prompter.console, prompter)  # returns: quit at the menu, nothing raised
    assert asked == [where for where, _ in steps]


def test_declining_to_play_without_a_save_goes_back_to_the_menu(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data.mkdir(parents=True)
    (data / "saves").write_text("a file where the folder should be")
    shown = run_menu(monkeypatch, GAMES["wurfeltod"], "Ann", "", "n", "q")
    assert "Play without saving?" in shown
    assert "Back to the menu." in shown
    assert shown.count("number: play that game") == 2
    assert shown.count("Players, e.g.") == 1  # not asked again and again


def test_ctrl_c_in_sim_exits_130(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    import gamenight.sim

    real = gamenight.sim.run_series

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        return dataclasses.replace(real(*args, **kwargs), partial=True)

    monkeypatch.setattr(gamenight.sim, "run_series", interrupted)
    code, out, _ = cli(["sim", "wurfeltod", "--bots", "greedy", "--games", "2"])
    assert code == 130 and "Stopped with Ctrl-C" in out


def test_abandoning_after_ctrl_c_starts_a_new_line() -> None:
    entry = registry.get("wurfeltod")
    prompter = _scripted(["^C", "^C"])
    session = Session(
        entry, parse_players("Ann", []), {}, 5, prompter.console, prompter, autosave=False
    )
    assert session.play(session.build()) is None
    shown = _shown(prompter)
    assert "\nGame abandoned" in shown


def test_plurals() -> None:
    assert plural(1, "action") == "1 action" and plural(3, "die", "dice") == "3 dice"


def test_replay_counts_1_action_and_the_header_keeps_the_chosen_seed(
    tmp_path: Path, cli: CliRunner, monkeypatch: pytest.MonkeyPatch, data: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("b p\n"))
    cli(["play", "wurfeltod", "--players", "Ann", "--seed", "5"])
    [save] = (data / "saves").glob("*.jsonl")
    assert len(read_record(save).actions) == 1
    _, out, _ = cli(["replay", str(save)])
    assert "unfinished: 1 action verified" in " ".join(out.split())
    assert json.loads(save.read_text().splitlines()[0])["seed_chosen"] is True


def test_a_wurfeltod_table_that_cannot_be_written_is_kept_for_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 §5: a read-only cache no longer throws the solve away; the menu's estimate
    and the solver's messages are one function."""
    import numpy as np

    from gamenight.games.wurfeltod.solver import build, table
    from gamenight.games.wurfeltod.solver.boxes import FULL_GAME
    from gamenight.games.wurfeltod.solver.capability import SOLVER

    monkeypatch.setenv(table.CACHE_ENV, str(tmp_path / "cache"))
    solved = np.full(FULL_GAME.state_count, 1234.5)
    monkeypatch.setattr(build, "solve_values", lambda boxes, progress=None: solved)

    def read_only(_table: Any, path: Any) -> Path:  # the folder took the check, not the file
        raise table.ValueTableError(f"cannot write the value table at {path}: read-only")

    monkeypatch.setattr(build, "write_table", read_only)
    try:
        solution = SOLVER.solve({})
        assert solution.note is not None and "kept in memory for this run only" in solution.note
        assert "cannot write the value table" in solution.note
        assert table.require_table().values is solved  # the optimal bot and hints use it
        assert solution.expected_score == 1234.5
    finally:
        table.UNSAVED.clear()  # this process only: the next test sees the disk again
    assert SOLVER.typical_build() == table.build_time_text() == "about 5 s"


def test_a_huge_typed_line_is_never_echoed_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    huge = "x" * 100_000
    shown = run_menu(monkeypatch, GAMES["wurfeltod"], huge, "bot:greedy", huge, "1", "m", "q")
    assert huge[:1000] not in shown
    assert shown.count("✗") == 2  # the players and the seed, each said once, short


def test_fifos_in_the_deck_library_and_the_cache_are_never_waited_on(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = data / "decks"
    library.mkdir(parents=True)
    os.mkfifo(library / f"{'ab' * 32}.json")
    done = run(["decks", "list"])
    assert done.returncode == 0 and "No decks imported yet" in done.stdout  # skipped
    cache = tmp_path / "cache"
    cache.mkdir()
    os.mkfifo(cache / "wurfeltod-values.bin")
    done = run(
        ["play", "wurfeltod", "--players", "bot:optimal"], env={"GAMENIGHT_CACHE_DIR": str(cache)}
    )
    assert done.returncode == 2 and "not a regular file" in one_line_error(done)


_json = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)


@given(
    st.one_of(
        _json.map(lambda v: json.dumps(v).encode()),
        st.binary(max_size=40),
        st.dictionaries(st.text(max_size=5), _json, max_size=3).map(
            lambda players: json.dumps({"players": players}).encode()
        ),
    )
)
@settings(max_examples=200, deadline=None)
def test_any_ratings_file_is_read_or_refused_in_one_line(data: bytes) -> None:
    """Whatever the store holds, reading it gives ratings or a one-line FileProblem."""
    from gamenight.sim.ratings import _decode_store

    try:
        stored = _decode_store(data)
    except FileProblem as problem:
        assert "\n" not in str(problem)
        return
    for rating in stored.players.values():
        assert rating.sigma > 0 and rating.games >= 0


@pytest.mark.parametrize(
    "args",
    [
        ["play", "decathlon", "--players", "Tess,bot:greedy"],
        ["play", "dice-duel", "--players", "Tess,bot:random"],
        ["play", "wurfeltod", "--players", "Tess,bot:greedy"],
        ["play", "decades", "--players", "Red:Tess,Blue:bot:novice"],
    ],
    ids=lambda args: args[1],
)
def test_every_game_shows_its_table_in_ascii(data: Path, args: list[str]) -> None:
    """Each game's board, prompt and help, with ASCII output; the input then runs out and
    the game is saved, as under any locale."""
    done = run([*args, "--seed", "3"], stdin="?\nzz\n", env=ASCII)
    assert "Traceback" not in done.stderr, done.stderr
    assert "Game saved after" in done.stdout
    assert done.stdout.isascii()


def test_every_glyph_the_terminal_prints_has_an_ascii_stand_in() -> None:
    """A new glyph in terminal text needs its stand-in (or it prints as '?')."""
    from gamenight.terminal import glyphs

    source = Path(glyphs.__file__).parent
    files = [*source.glob("*.py"), *(source.parent / "cli").glob("*.py")]
    used = {c for f in files if f.name != "glyphs.py" for c in f.read_text() if ord(c) > 127}
    used -= {"\u0663"}  # in a doctest of what is not a digit
    missing = sorted(f"U+{ord(c):04X}" for c in used if glyphs.stand_in(c) == "?")
    assert missing == []
