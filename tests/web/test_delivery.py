"""Delivery over real HTTP (issue 40, 9): gzip, content-versioned files cached for good,
pages revalidated, a plug-in's own files served, and a changed file changing its URL."""

from __future__ import annotations

import re
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from gamenight.server.app import create_app
from gamenight.server.config import Config
from gamenight.server.testing import free_port
from gamenight.web import assets
from web.webui import Server

VERSIONED = re.compile(r'src="(/v/([0-9a-f]{16})/static/js/room\.js)"')


def _get(url: str, **headers: str) -> httpx.Response:
    return httpx.get(url, headers=headers, timeout=30)


def _room_script(base: str) -> tuple[str, str]:
    """The room page's script URL and the bundle version in it."""
    page = _get(f"{base}/r/NOSUCH")
    found = VERSIONED.search(page.text)
    assert found, page.text[:500]
    return found.group(1), found.group(2)


def test_pages_are_revalidated_and_link_versioned_files(server: Server) -> None:
    for path in ("/", "/replay", "/rules?game=toy", "/r/NOSUCH"):
        page = _get(server.url + path, **{"Accept-Encoding": "gzip"})
        assert page.headers["cache-control"] == "no-cache", path
        assert page.headers["x-content-type-options"] == "nosniff", path
        assert page.headers.get("content-encoding") == "gzip", path  # the middleware's
        assert 'href="/static/' not in page.text and 'src="/static/' not in page.text, path
        assert re.search(r'href="/v/[0-9a-f]{16}/static/css/app\.css"', page.text), path


def test_versioned_files_are_immutable_and_gzipped(server: Server) -> None:
    script, _version = _room_script(server.url)
    raw = (Path(assets.STATIC) / "js" / "room.js").read_bytes()
    zipped = httpx.get(server.url + script, headers={"Accept-Encoding": "gzip"}, timeout=30)
    assert zipped.status_code == 200
    assert zipped.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.headers["content-type"].startswith("text/javascript")
    assert zipped.headers["x-content-type-options"] == "nosniff"
    assert "accept-encoding" in zipped.headers["vary"].lower()
    assert int(zipped.headers["content-length"]) < len(raw) // 2  # the bytes on the wire
    assert zipped.content == raw  # httpx undoes the gzip: the same file
    plain = httpx.get(server.url + script, headers={"Accept-Encoding": "identity"}, timeout=30)
    assert "content-encoding" not in plain.headers and plain.content == raw


def test_plain_names_are_revalidated_with_an_etag(server: Server) -> None:
    first = _get(server.url + "/static/js/net.js")
    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    again = _get(server.url + "/static/js/net.js", **{"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert _get(server.url + "/static/js/nothing.js").status_code == 404
    assert _get(server.url + "/static/../pyproject.toml").status_code == 404


def test_another_version_gets_todays_file_revalidated(server: Server) -> None:
    old = _get(server.url + "/v/0000000000000000/static/js/room.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"


def test_api_answers_are_gzipped(server: Server) -> None:
    games = _get(server.url + "/api/games", **{"Accept-Encoding": "gzip"})
    assert games.status_code == 200 and games.headers["content-encoding"] == "gzip"


def test_installed_js_names_each_games_files_from_the_registry(server: Server) -> None:
    script, version = _room_script(server.url)
    installed = _get(f"{server.url}/v/{version}/static/js/games/installed.js").text
    # the toy plug-in's board and messages, from its package (tests/plugins/toy)
    assert '"toy":{"board":"games/toy/board.js"' in installed
    assert '"de":"games/toy/messages/de.js"' in installed
    # gamenight's own games keep theirs beside the shared modules
    assert '"decathlon":{"board":"js/games/decathlon.js"' in installed
    toy = Path(__file__).parents[1] / "plugins" / "toy" / "gamenight_toy" / "web" / "board.js"
    board = _get(f"{server.url}/v/{version}/static/games/toy/board.js")
    assert board.status_code == 200 and board.content == toy.read_bytes()
    assert board.headers["cache-control"] == "public, max-age=31536000, immutable"
    del script


def test_the_version_is_the_same_in_every_process(server: Server) -> None:
    """The server process's version is the one this process computes: a hash of the bytes,
    not of a start time or a path."""
    assert _room_script(server.url)[1] == assets.bundle().version


def _version_of(tmp_path: Path, name: str) -> tuple[str, bytes]:
    """A fresh app in this process (which reads the patched STATIC) under uvicorn: the
    version its room page names and its app.css."""
    port = free_port()
    app = create_app(Config(db_url=f"sqlite:///{tmp_path / name}.sqlite3", build_tables=False))
    served = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not served.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        base = f"http://127.0.0.1:{port}"
        _script, version = _room_script(base)
        body = _get(f"{base}/v/{version}/static/css/app.css").content
    finally:
        served.should_exit = True
        thread.join(timeout=10)
    return version, body


def test_a_changed_file_changes_the_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "static"
    shutil.copytree(assets.STATIC, copy)
    monkeypatch.setattr(assets, "STATIC", copy)
    first, _ = _version_of(tmp_path, "a")
    same, _ = _version_of(tmp_path, "b")
    css = copy / "css" / "app.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* changed */\n", encoding="utf-8")
    changed, body = _version_of(tmp_path, "c")
    assert first == same  # stable over restarts
    assert changed != first and body.endswith(b"/* changed */\n")


def test_only_a_plugins_listed_files_are_served(tmp_path: Path) -> None:
    """A plug-in's web/ folder gives its .js and friends, never its Python or dot files."""

    class Entry:
        id = "fake"

        def web_files(self) -> dict[str, bytes]:
            return {"board.js": b"export default {};", "messages/en.js": b"export default {};"}

    fake: Any = Entry()
    made = assets.bundle(entries=[fake])
    assert "games/fake/board.js" in made.files and "games/fake/messages/en.js" in made.files
    installed = made.files[assets.INSTALLED].body.decode()
    assert (
        '"fake":{"board":"games/fake/board.js","messages":{"en":"games/fake/messages/en.js"}}'
        in installed
    )


def test_pages_preload_their_whole_module_graph(server: Server) -> None:
    """Every module a page's script imports, however deep, is named in the page, so the
    browser fetches them at once, not one level of imports per round trip; a table page
    adds its game's board and words, and no other game's."""
    created = httpx.post(
        f"{server.url}/api/rooms",
        json={"game": "dice-duel", "seats": ["human", "bot:random"]},
        timeout=30,
    ).json()
    text = _get(f"{server.url}/r/{created['code']}").text
    preloads = re.findall(r'<link rel="modulepreload" href="/v/[0-9a-f]{16}/static/([^"]+)">', text)
    assert {"js/i18n.js", "js/parts/common.js", "js/games/installed.js"} <= set(preloads)
    assert "js/games/dice-duel.js" in preloads and "js/messages/en/dice-duel.js" in preloads
    assert not {"js/games/decathlon.js", "js/games/wurfeltod.js", "js/games/decades.js"} & set(
        preloads
    )
    assert "js/room.js" not in preloads  # its own script tag asks for it
    lobby = _get(server.url + "/").text
    assert 'rel="modulepreload"' in lobby and "js/games/dice-duel.js" not in lobby
