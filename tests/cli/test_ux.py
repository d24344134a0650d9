"""Issue 10, the command line and the session: names are text, bots described, options
generic, undo, hidden hand-over, progress, help and version."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_process import python_stdout
from rich.console import Console

from gamenight.cli.players import parse_players
from gamenight.cli.session import HumanAgent, Session
from gamenight.core import Decision, registry
from gamenight.core.errors import OptionsError
from gamenight.core.record import read_record, replay
from gamenight.terminal.ui import CLEAR_SCROLLBACK, Prompter, Seating

CliRunner = Callable[[list[str]], tuple[int, str, str]]  # the `cli` fixture
MARKUP_NAMES = {
    "decathlon": ["--players", "[/]:bot:greedy,[bold red]Ann[/]:bot:random", "--events", "100m"],
    "dice-duel": ["--players", "[/]:bot:turn-optimal,[bold red]Ann[/]:bot:random"],
    "wurfeltod": ["--players", "[/]:bot:greedy,[bold red]Ann[/]:bot:random"],
    "decades": ["--players", "[/]:bot:novice,[bold red]Ann[/]:bot:expert"],
}


# ----- 1. user text is data ---------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(MARKUP_NAMES))
def test_markup_player_names_show_literally(game: str, cli: CliRunner) -> None:
    code, out, err = cli(["play", game, *MARKUP_NAMES[game], "--seed", "3", "--watch"])
    assert code == 0, err
    assert "[/] (bot:" in out.splitlines()[0]  # the banner
    assert "[bold red]Ann[/]" in out.split("Final standings")[1]


def test_the_hand_over_prints_names_as_text() -> None:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    prompter = Prompter(console, reader=lambda _prompt: "")
    agent = HumanAgent(_StubUI(), prompter, Seating(["[/]", "[b]x[/b]"], frozenset({0, 1})), True)
    agent.act(Decision[Any, Any]("decades", 0, "view", ["legal"]))
    assert "[/] to act" in console.file.getvalue()  # type: ignore[attr-defined]


def test_names_a_team_only_where_there_are_teams(cli: CliRunner) -> None:
    code, _, err = cli(["play", "decathlon", "--players", "Ann:Bob"])
    assert code == 2
    assert err.strip() == (
        "gamenight: error: --players: 'Ann:Bob' names a team, and this game has no teams "
        "(write one name per seat, e.g. 'Bob')"
    )
    with pytest.raises(OptionsError, match="'Ann\\+Bob' names a team"):
        parse_players("Ann+Bob", ["greedy"], teams=False)
    seats = parse_players("Red:Ann+Bob,Blue:bot:greedy", ["greedy"], teams=True)
    assert [s.name for s in seats] == ["Red", "Blue"]
    assert parse_players("Robo:bot:greedy", ["greedy"], teams=False)[0].name == "Robo"


# ----- 6. bots described; list is cheap; progress; help and version -------------------------
def test_list_bots_describes_every_bot_in_one_line(cli: CliRunner) -> None:
    code, out, _ = cli(["list", "--bots"])
    assert code == 0
    for entry in registry.available():
        assert entry.name in out
        for name, info in entry.bot_infos.items():
            assert name in out
            assert info.summary.split()[0] in out


def test_list_imports_no_bot_and_no_numpy() -> None:
    script = (
        "import sys\n"
        "from gamenight.cli.main import run\n"
        "try:\n"
        "    run(['list', '--bots', '--options'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = sorted(m for m in sys.modules if m in ('numpy', 'llvmlite') or\n"
        "               m.startswith('gamenight.games.') and ('bots' in m or 'solver' in m))\n"
        "print('HEAVY', heavy)\n"
    )
    stdout = python_stdout(script)
    assert "HEAVY []" in stdout


def test_sim_shows_a_progress_bar_when_it_takes_a_while(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("gamenight.cli.simulate.PROGRESS_AFTER_SECONDS", 0.0)
    calls: list[tuple[int, int]] = []
    import gamenight.sim

    real = gamenight.sim.run_series

    def spy(*args: Any, progress: Callable[[int, int], None], **kwargs: Any) -> Any:
        def both(done: int, total: int) -> None:
            calls.append((done, total))
            progress(done, total)

        return real(*args, progress=both, **kwargs)

    monkeypatch.setattr("gamenight.sim.run_series", spy)
    code, out, err = cli(["sim", "wurfeltod", "--bots", "greedy,random", "--games", "3", "--json"])
    assert code == 0, err
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert json.loads(out)["games"] == 3  # the bar never mixes into the report


def test_help_and_version(cli: CliRunner) -> None:
    code, out, _ = cli(["-h"])
    assert code == 0 and "Usage: gamenight" in out and "play" in out
    code, out, _ = cli(["--version"])
    assert code == 0 and out.startswith("gamenight, version ")
    code, out, _ = cli(["play", "-h"])
    assert code == 0 and "--NAME VALUE" in out


# ----- 7. game options without per-game code ----------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "check"),
    [
        (["decathlon", "--players", "bot:greedy", "--variant", "championship", "--events=100m"],
         {"variant": "championship", "events": ["100m"]}),
        (["decathlon", "--players", "bot:greedy", "-o", "events=shot-put"],
         {"events": ["shot-put"]}),
        (["dice-duel", "--players", "bot:turn-optimal", "--mode", "solo"], {"mode": "solo"}),
        (["decades", "--players", "bot:novice,bot:novice", "--track", "30"], {"track": 30}),
    ],
)  # fmt: skip
def test_any_game_option_is_a_flag(
    argv: list[str], check: dict[str, Any], cli: CliRunner, tmp_path: Path
) -> None:
    record = tmp_path / "r.jsonl"
    code, _, err = cli(["play", *argv, "--seed", "2", "--record", str(record)])
    assert code == 0, err
    options = read_record(record).options
    assert {k: options[k] for k in check} == check


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "decathlon", "--players", "bot:greedy", "--mode", "solo"],
         "Reiner Knizia's Decathlon has no option --mode (its options: --variant, --events)"),
        (["play", "wurfeltod", "--players", "bot:greedy", "--variant", "x"],
         "Wurfeltod has no option --variant (its options: none)"),
        (["play", "decathlon", "--players", "bot:greedy", "--events"],
         "option --events needs a value"),
        (["play", "decathlon", "--players", "bot:greedy", "stray"], "unexpected argument 'stray'"),
        (["sim", "dice-duel", "--bots", "random", "--modes", "solo"],
         "Kniffel Dice Duel has no option --modes"),
        (["sim", "decathlon", "--bots", "random", "-o", "nope=1"], "has no option 'nope'"),
        (["play", "decathlon", "--players", "bot:greedy", "--variant", "golf"],
         "'golf' is not one of points, championship"),
    ],
)  # fmt: skip
def test_unknown_or_bad_game_options_are_one_line(
    argv: list[str], message: str, cli: CliRunner
) -> None:
    code, out, err = cli(argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and out == ""


# ----- 4. hidden hand-over ---------------------------------------------------------------------
class _StubUI:
    """A game UI that asks one secret question and accepts any answer."""

    def show(self, console: Console, view: object, seat: int | None, table: object) -> None:
        console.print(f"SECRET OF SEAT {seat}")

    def ask(self, prompter: Prompter, view: object, legal: Any, seat: int, table: object) -> Any:
        prompter.ask("Year? ", secret=True)
        return legal[0]

    def show_events(self, console: Console, events: object, table: object) -> None:
        return None

    def show_results(self, console: Console, results: object, view: object, table: object) -> None:
        return None

    def parse_command(self, text: str, view: object, legal: object) -> Any:
        return text


@pytest.mark.parametrize("humans", [1, 2])
def test_secrets_are_hidden_only_from_another_human(
    humans: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system=None)
    hidden: list[str] = []

    def secret_reader(prompt: str) -> str:
        hidden.append(prompt)
        return "1987"

    monkeypatch.setattr("sys.stdin", io.StringIO("\n1990\n"))
    prompter = Prompter(console, secret_reader=secret_reader)
    table = Seating(["Red", "Blue"], frozenset(range(humans)))
    agent = HumanAgent(_StubUI(), prompter, table, hidden=humans > 1)
    assert agent.act(Decision[Any, Any]("decades", 0, None, ["x"])) == "x"
    assert len(hidden) == (1 if humans > 1 else 0)
    shown = out.getvalue()
    if humans > 1:  # hand-over: screen and scrollback cleared before and after
        assert shown.count(CLEAR_SCROLLBACK) == 2
        assert shown.rindex(CLEAR_SCROLLBACK) > shown.index("SECRET OF SEAT 0")
    else:
        assert CLEAR_SCROLLBACK not in shown and "Pass the terminal" not in shown


# ----- 5. undo -------------------------------------------------------------------------------
def _scripted(keys: list[str]) -> Prompter:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    answers: Iterator[str] = iter(keys)

    def read(prompt: str) -> str:
        try:
            answer = next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None
        console.print(prompt + answer)
        return answer

    return Prompter(console, reader=read)


def _long_jump(keys: list[str], players: str, path: Path | None) -> tuple[Session, str]:
    entry = registry.get("decathlon")
    prompter = _scripted(keys)
    options = entry.game.parse_options({"events": "long-jump"})
    seats = parse_players(players, list(entry.bots))
    session = Session(entry, seats, options, 11, prompter.console, prompter, path)
    match = session.build()
    with pytest.raises(KeyboardInterrupt):
        session.finish(match)
    return session, prompter.console.file.getvalue()  # type: ignore[attr-defined]


def test_undo_takes_back_a_move_and_its_record_line(tmp_path: Path) -> None:
    """Seed 11 throws 2 4 1 1 1 for the run-up: freezing dice throws nothing, so it may be
    taken back; a rethrow throws dice, so it may not."""
    path = tmp_path / "undo.jsonl"
    _, shown = _long_jump(["3", "u", "35", "u", "35", "r", "u"], "Ann", path)
    assert shown.count("Your last move is taken back.") == 2
    assert "u takes back your last move" in shown
    record = read_record(path)
    assert [(seat, action) for seat, action, _ in record.actions] == [
        (0, {"type": "freeze", "dice": [2, 4]}),
        (0, {"type": "rethrow"}),
    ]
    report = replay(record, str(path), require_finished=False)
    assert report.actions == 2
    assert "✗" in shown.split("(run-up, rethrow)")[1]  # u after dice: just a typo now


def test_no_undo_against_another_human(tmp_path: Path) -> None:
    _, shown = _long_jump(["3", "u"], "Ann,Bob", tmp_path / "two.jsonl")
    assert "taken back" not in shown and "u takes back" not in shown


def test_undo_without_a_record(tmp_path: Path) -> None:
    _, shown = _long_jump(["3", "u"], "Ann,bot:greedy", None)
    assert "Your last move is taken back." in shown
