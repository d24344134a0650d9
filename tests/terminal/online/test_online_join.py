"""``gamenight join`` and ``gamenight host`` against a real server process (issue 41):
a whole game in the line mode with the fair-dice check, the seat kept 0600 and taken
back, a server restarted under a client, and one-line refusals in three languages."""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from online_helpers import DUEL_KEYS, GAMENIGHT, TIMEOUT_S, Player, api, env, make_room, server

from gamenight.server.testing import ProcessServer, free_port


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProcessServer]:
    srv = server(tmp_path_factory.mktemp("online-server")).start()
    yield srv
    srv.stop()


def run_cli(
    args: list[str], home: Path, lang: str = "en", stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GAMENIGHT, *args], input=stdin, capture_output=True, text=True,
        env=env(home, lang), timeout=TIMEOUT_S,
    )  # fmt: skip


def test_line_mode_join_plays_a_bot_room_to_the_end_and_checks_the_dice(
    live: ProcessServer, tmp_path: Path
) -> None:
    room = make_room(live.url, "dice-duel", ["human", "bot:random"])
    link = f"{live.url}{room['invite']}"
    player = Player(["join", link, "--name", "Tess", "--word", "lucky"], env(tmp_path))
    player.wait_for(lambda t: "Tess to act" in t, "the first question")
    # while the game runs the seat is kept, readable by its owner only (tokens are secrets)
    kept = tmp_path / "data" / "gamenight" / "online-seats.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    saved = json.loads(kept.read_text())[0]
    assert saved["commitment"] == room["commitment"] and saved["seat"] == 0
    assert len(saved["token"]) == 43 and saved["contribution"].endswith(" lucky")
    player.feed(DUEL_KEYS)
    assert player.finish() == 0, player.text[-3000:]
    out = player.text
    assert "Final standings" in out
    assert "Fair dice: checked." in out
    assert f"matches the commitment {room['commitment'][:12]} noted before the game" in out
    assert "Your own contribution is in the record, unchanged." in out
    final = api(live.url, "GET", f"/api/rooms/{room['code']}")
    assert final["status"] == "finished"
    assert final["contributions"][0]["value"] == saved["contribution"]
    # the record is kept for `gamenight replay`, which checks every die
    record = next((tmp_path / "data" / "gamenight" / "online").glob("*.jsonl"))
    replay = run_cli(["replay", str(record)], tmp_path)
    assert replay.returncode == 0 and "the seed matches the commitment" in replay.stdout
    assert json.loads(kept.read_text()) == []  # the game is over: the seat is forgotten


def test_a_later_join_takes_the_seat_back_with_its_token(
    live: ProcessServer, tmp_path: Path
) -> None:
    room = make_room(live.url, "dice-duel", ["human", "bot:random"])
    link = f"{live.url}{room['invite']}"
    first = Player(["join", link, "--name", "Tess"], env(tmp_path))
    first.wait_for(lambda t: "Tess to act" in t, "the first question")
    first.proc.terminate()  # the terminal is closed mid-game
    first.finish()
    again = Player(["join", room["code"], "--server", live.url], env(tmp_path))
    again.wait_for(lambda t: "Tess to act" in t, "the seat taken back")
    again.feed(DUEL_KEYS)
    assert again.finish() == 0, again.text[-3000:]
    assert "Your own contribution is in the record, unchanged." in again.text
    seats = api(live.url, "GET", f"/api/rooms/{room['code']}")["seats"]
    assert seats[0]["name"] == "Tess"  # one claim: the same seat, not a second player


def test_the_server_restarted_mid_game_under_a_terminal_client(tmp_path: Path) -> None:
    port = free_port()
    first = server(tmp_path, port).start()
    try:
        room = make_room(first.url, "dice-duel", ["human", "bot:random"])
        player = Player(["join", f"{first.url}{room['invite']}", "--name", "Tess"], env(tmp_path))
        player.wait_for(lambda t: "Tess to act" in t, "the first question")
        player.feed("s\nn\n")  # a turn played, then the server goes away under the client
        player.wait_for(lambda t: t.count("Tess to act") >= 2, "the second question")
    finally:
        first.kill()
    player.feed("s\nn\n")  # typed while the server is gone: refused by the cut, asked again
    player.wait_for(lambda t: "Connection lost" in t, "the cut noticed")
    second = server(tmp_path, port).start()  # the same database: the room comes back
    try:
        player.wait_for(lambda t: t.count("Tess to act") >= 3, "the game going on")
        player.feed(DUEL_KEYS)
        assert player.finish() == 0, player.text[-3000:]
        assert "Fair dice: checked." in player.text
        assert "Your own contribution is in the record, unchanged." in player.text
        assert api(second.url, "GET", f"/api/rooms/{room['code']}")["status"] == "finished"
    finally:
        second.stop()


def _one_line_refusal(argv: list[str], home: Path) -> str:
    """Run the CLI in this process (as the console script does); its one error line."""
    from gamenight.cli.main import run

    err = io.StringIO()
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(home)
    try:
        with (
            contextlib.redirect_stderr(err),
            contextlib.redirect_stdout(io.StringIO()),
            pytest.raises(SystemExit) as exited,
        ):
            run(argv)
    finally:
        if old is None:
            os.environ.pop("XDG_DATA_HOME", None)
        else:
            os.environ["XDG_DATA_HOME"] = old
    text = err.getvalue()
    assert exited.value.code == 2, (argv, text)
    assert "Traceback" not in text
    assert text.count("\n") == 1 and text.startswith("gamenight: error: "), (argv, text)
    return text


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    target=st.one_of(
        st.text(max_size=80),
        st.builds(lambda s: "http://" + s, st.text(max_size=40)),
        st.builds(
            lambda s: "http://127.0.0.1:1/r/" + s,
            st.text(alphabet="abcXYZ09-_", min_size=1, max_size=20),
        ),
        st.sampled_from(
            [
                "",
                "-",
                "http://",
                "https://x:99999/r/a",
                "http://u:p@h/r/a",
                "ws://h/r/a",
                "http://[::1/r/a",
                "http://h/x/abc",
                "\x1b[2J",
                "http://h/r/a\x00",
            ]
        ),
    )
)
def test_join_refuses_any_bad_link_in_one_line(
    target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GAMENIGHT_SERVER", raising=False)
    if target.startswith("-"):
        target = "x" + target  # an option name is click's to refuse (also one line)
    _one_line_refusal(["join", target], tmp_path)


def test_unreachable_server_unknown_room_and_refused_seat_are_one_line(
    live: ProcessServer, tmp_path: Path
) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    line = _one_line_refusal(["join", f"{closed}/r/abc"], tmp_path)
    assert "cannot reach the server" in line
    line = _one_line_refusal(["join", "nosuchroom", "--server", live.url], tmp_path)
    assert "the server refused" in line
    room = make_room(live.url, "dice-duel", ["human", "bot:random"])
    api(live.url, "POST", f"/api/rooms/{room['code']}/seats/0/claim", {"name": "Ann"})
    line = _one_line_refusal(
        ["join", f"{live.url}{room['invite']}"], tmp_path
    )  # nobody's seat left
    assert "no free seat" in line
    line = _one_line_refusal(["host", "nosuchgame", "--server", live.url], tmp_path)
    assert "no game 'nosuchgame'" in line
    line = _one_line_refusal(
        ["host", "dice-duel", "--server", live.url, "--seats", "human,bot:nosuch"], tmp_path
    )
    assert "the server refused" in line


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "cannot reach the server"), ("de", "Server"), ("pl", "serwer")],
)
def test_refusals_are_in_the_players_language(lang: str, words: str, tmp_path: Path) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    done = run_cli(["--lang", lang, "join", f"{closed}/r/abc"], tmp_path, lang)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert words in done.stderr, done.stderr
    if lang != "en":
        assert "cannot reach" not in done.stderr
    done = run_cli(["--lang", lang, "join", "abc"], tmp_path, lang)
    assert done.returncode == 2 and "GAMENIGHT_SERVER" in done.stderr
    if lang != "en":
        assert "needs its server" not in done.stderr


def test_host_prints_the_invite_and_keeps_the_host_token_private(
    live: ProcessServer, tmp_path: Path
) -> None:
    done = run_cli(
        ["host", "dice-duel", "--server", live.url, "--seats", "human,random", "--hints"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    link = next(w for w in done.stdout.split() if "/r/" in w)
    code = link.rsplit("/", 1)[1]
    assert link == f"{live.url}/r/{code}" and f"Room code: {code}" in done.stdout
    info = api(live.url, "GET", f"/api/rooms/{code}")
    assert info["room_options"]["hints"] is True and info["seats"][1]["kind"] == "bot"
    kept = tmp_path / "data" / "gamenight" / "online-seats.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert len(json.loads(kept.read_text())[0]["host_token"]) == 43
    assert info["commitment"][:12] in done.stdout


def test_a_seat_the_host_freed_is_refused_in_one_line_and_forgotten(
    live: ProcessServer, tmp_path: Path
) -> None:
    import time
    import urllib.error
    import urllib.request

    room = make_room(live.url, "dice-duel", ["human", "bot:random"])
    link = f"{live.url}{room['invite']}"
    first = Player(["join", link, "--name", "Tess"], env(tmp_path))
    first.wait_for(lambda t: "Tess to act" in t, "the first question")
    first.proc.terminate()  # away: the host may free the seat for someone else
    first.finish()
    release = urllib.request.Request(
        f"{live.url}/api/rooms/{room['code']}/seats/0/release",
        headers={"Authorization": f"Bearer {room['host_token']}"},
        method="POST",
    )
    deadline = time.monotonic() + TIMEOUT_S
    while True:  # until the server has seen the socket go (409 seat_connected before)
        try:
            urllib.request.urlopen(release, timeout=30).close()
            break
        except urllib.error.HTTPError as exc:
            assert exc.code == 409 and time.monotonic() < deadline
            time.sleep(0.1)  # a polling interval, not a wait for something
    refused = run_cli(["join", link], tmp_path)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith("gamenight: error: the room refused this seat")
    # the seat kept on disk is forgotten: the next join claims a free seat, if any
    kept = json.loads((tmp_path / "data" / "gamenight" / "online-seats.json").read_text())
    assert all(entry["code"] != room["code"] for entry in kept)


def test_a_chat_line_typed_at_a_question_reaches_the_table(
    live: ProcessServer, tmp_path: Path
) -> None:
    """Chat from ``join``: a line beginning with / at any question is said to the room,
    shown as text to the other terminal (markup stays text), shown once to its sender
    (the server's echo is not printed again), and the question is asked again; a bare
    / is one line of help. The move is then still taken as typed."""
    room = make_room(live.url, "dice-duel", ["human", "human"])
    link = f"{live.url}{room['invite']}"
    tess = Player(["join", link, "--name", "Tess"], env(tmp_path / "tess"))
    tess.wait_for(lambda t: "you are Tess" in t, "Tess seated")
    bo = Player(["join", link, "--name", "Bo"], env(tmp_path / "bo"))
    try:
        bo.wait_for(lambda t: "you are Bo" in t, "Bo seated")
        tess.wait_for(lambda t: "Tess to act" in t or "Bo to act" in bo.text, "the first question")
        actor, other, name = (tess, bo, "Tess") if "Tess to act" in tess.text else (bo, tess, "Bo")
        assert "To chat, type / and your message" in actor.text
        actor.feed("/good luck [b]x[/b]\n")
        other.wait_for(lambda t: f"{name}: good luck [b]x[/b]" in t, "the chat line")
        actor.feed("/\n")
        actor.wait_for(lambda t: "type your message after /" in t, "the help line")
        actor.feed("s\n")  # the question was asked again: the move is taken
        next_name = "Bo" if name == "Tess" else "Tess"
        other.wait_for(lambda t: f"{next_name} to act" in t, "the other's turn")
        time.sleep(1)  # the echo, if it were printed, would be here by now
        assert actor.text.count(f"{name}: good luck") == 1, actor.text[-2000:]
    finally:
        for player in (tess, bo):
            player.proc.kill()
            player.proc.wait(10)
