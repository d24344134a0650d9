"""The English catalogue is complete: every message key the pages use is in en.js (the
shared strings) or in a game's own messages/en/<game-id>.js."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "gamenight" / "web" / "static"


MESSAGES = STATIC / "js" / "messages"
GAME_PREFIXES = {"decathlon": "dec", "dice-duel": "dd", "wurfeltod": "wt", "decades": "dc"}


def _keys(path: Path) -> set[str]:
    return set(re.findall(r'^\s*"([^"]+)":', path.read_text(encoding="utf-8"), re.MULTILINE))


def _catalogue() -> set[str]:
    keys = _keys(MESSAGES / "en.js")
    for path in (MESSAGES / "en").glob("*.js"):
        keys |= _keys(path)
    return keys


def test_each_games_strings_are_in_its_own_file() -> None:
    """A game's strings (its prefix, and opt.<game-id>. for its lobby options) live in
    messages/en/<game-id>.js, so a new game edits no shared catalogue."""
    files = {path.stem: _keys(path) for path in (MESSAGES / "en").glob("*.js")}
    assert sorted(files) == sorted(GAME_PREFIXES)
    shared = _keys(MESSAGES / "en.js")
    for game, prefix in GAME_PREFIXES.items():
        own = (f"{prefix}.", f"opt.{game}.")
        assert [k for k in shared if k.startswith(own)] == [], game
        assert [k for k in files[game] if not k.startswith(own)] == [], game


def test_every_literal_key_is_in_english() -> None:
    keys = _catalogue()
    used: set[str] = set()
    for path in (STATIC / "js").rglob("*.js"):
        if path.name == "i18n.js":
            continue
        used |= set(re.findall(r'\bt\(\s*"([^"]+)"', path.read_text(encoding="utf-8")))
    for path in STATIC.glob("*.html"):
        used |= set(
            re.findall(r'data-i18n(?:-label|-placeholder)?="([^"]+)"', path.read_text("utf-8"))
        )
    assert used, "no message keys found"
    assert sorted(used - keys) == []


def test_computed_keys_have_every_value() -> None:
    keys = _catalogue()
    for prefix, values in {
        "dd.combo.": [
            "two-pairs",
            "three-of-a-kind",
            "small-straight",
            "flush",
            "full-house",
            "four-of-a-kind",
            "large-straight",
        ],
        "dec.event.": [
            "100m",
            "long-jump",
            "shot-put",
            "high-jump",
            "400m",
            "110m-hurdles",
            "discus",
            "pole-vault",
            "javelin",
            "1500m",
        ],
        "dec.rule.": [
            "100m",
            "long-jump",
            "shot-put",
            "high-jump",
            "400m",
            "110m-hurdles",
            "discus",
            "pole-vault",
            "javelin",
            "1500m",
        ],
        "conn.": ["connecting", "online", "reconnecting", "refused"],
        "room.status.": ["waiting", "playing", "finished", "closed", "broken"],
        "dc.phase.": ["keep", "answer", "extend", "card", "target", "over"],
    }.items():
        missing = [v for v in values if prefix + v not in keys]
        assert not missing, (prefix, missing)


def test_no_inner_html_anywhere() -> None:
    """User text is inserted with textContent only."""
    for path in (STATIC / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, path
        assert "eval(" not in text and "new Function" not in text, path
