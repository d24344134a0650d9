"""The browser's message catalogues, read in Python: every language's shared file
(``js/messages/<lang>.js``) and each game's (``js/messages/<lang>/<game-id>.js``), the game
vocabulary the server adds to them, the keys the pages use, and the pseudo-locale built
from English (a test-only language: tests/web/test_pseudo_locale.py).

A catalogue is a plain object literal (``"key": "text"`` or ``"key": {one: ..., other:
...}``, comments, trailing commas), so it is read as JSON after a few rewrites;
test_catalogue.py checks the result against what Chromium itself imports.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from gamenight.core.i18n import pseudo
from gamenight.core.vocabulary import vocabulary
from gamenight.games.decathlon.disciplines import EVENT_IDS

STATIC = Path(__file__).resolve().parents[2] / "src" / "gamenight" / "web" / "static"
MESSAGES = STATIC / "js" / "messages"
SHIPPED = ("en", "de", "pl")
GAMES = ("decathlon", "dice-duel", "wurfeltod", "decades")
PSEUDO = "qps"

Message = str | dict[str, str]

# Keys the pages build at run time (a template literal in t()/tOr()), by prefix, with the
# values they may take; every other key is used literally somewhere in the pages' source.
DYNAMIC: dict[str, tuple[str, ...]] = {
    "lobby.players.": ("player", "team"),
    "lobby.players_exactly.": ("player", "team"),
    "lobby.count.": ("player", "team"),
    "lobby.seat_n.": ("player", "team"),
    "room.status.": ("waiting", "playing", "finished", "closed", "broken"),
    "account.status.": ("waiting", "playing", "finished", "closed", "broken"),
    "conn.": ("connecting", "online", "reconnecting", "refused"),
    "die.colour.": ("red", "black"),
    "review.verdict.": ("inaccuracy", "mistake", "blunder"),
    "review.measure.": ("points", "win", "honours", "hindsight", "turn"),
    "odds.objective.": (  # the labels of games' live odds (games/decathlon/odds.py, win_play.py)
        "chance to win",
        "chance of the most honours (a tie counts for each)",
        "chance to win, both playing for points",
        "chance to win, both playing to win",
    ),
    "error.": (
        "seat_taken",
        "seat_connected",
        "not_claimed",
        "no_room",
        "no_seat",
        "not_host",
        "not_finished",
        "too_large",
        "unavailable",
        "rate_limited",
        "not_seated",
        "not_started",
        "finished",
        "closed",
        "hints_off",
        "no_advice",
        "spectators_off",
        "bad_token",
    ),
    "game.": tuple(f"{g}.{part}" for g in GAMES for part in ("name", "summary")),
    "opt.": (),  # opt.<game-id>.<option>[.<choice>|.help|.default]: the vocabulary's
    "dec.event.": EVENT_IDS,
    "dec.rule.": EVENT_IDS,
    "dec.medal.": ("gold", "silver", "bronze"),
    "dec.status.": ("in", "out", "retired"),
    "dec.act.": ("rethrow", "throw", "jump", "stop", "skip", "retire"),
    "dd.combo.": (
        "two-pairs",
        "three-of-a-kind",
        "small-straight",
        "flush",
        "full-house",
        "four-of-a-kind",
        "large-straight",
    ),
    "dd.source.": ("plate", "set-aside"),
    "wt.cat.": (),  # the vocabulary's boxes
    "dc.phase.": ("keep", "answer", "extend", "card", "target", "over"),
    "dc.cat.": (),
    "dc.card.": (),
    "dc.card_help.": (),
    "dc.outcome.": ("hit", "near", "far", "other-decade", "cancelled"),
    "dc.note.": ("both-blocked", "blocked", "blocks", "no-token", "target"),
    "dc.step.": ("keep", "answer", "extend", "card"),
    "dc.log.chosen.": ("answer", "keep", "extend", "card"),
    "dc.log.chosen_by.": ("answer", "keep", "extend", "card"),
}


def _as_json(source: str) -> str:
    body = source[source.index("export default") + len("export default") :].strip()
    body = body.removesuffix(";")
    out: list[str] = []
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        out.append(line)
    text = "\n".join(out)
    text = re.sub(r"([{,]\s*)(zero|one|two|few|many|other)\s*:", r'\1"\2":', text)
    return re.sub(r",(\s*[}\]])", r"\1", text)


def read(path: Path) -> dict[str, Message]:
    """One catalogue file as a dict (a plural message as a dict of its CLDR forms)."""
    data: Any = json.loads(_as_json(path.read_text(encoding="utf-8")))
    assert isinstance(data, dict), path
    return data


def shared(lang: str) -> dict[str, Message]:
    return read(MESSAGES / f"{lang}.js")


def game(lang: str, game_id: str) -> dict[str, Message]:
    return read(MESSAGES / lang / f"{game_id}.js")


def every_file(lang: str) -> dict[str, dict[str, Message]]:
    """The shared file ("") and each game's, by game id."""
    return {"": shared(lang), **{g: game(lang, g) for g in GAMES}}


def vocabulary_keys() -> dict[str, set[str]]:
    return {g: set(vocabulary(g, "en")) for g in GAMES}


def english_texts() -> list[str]:
    """Every English text a page can show: the catalogues' and the vocabulary's, each
    plural form on its own."""
    texts: list[str] = []
    for messages in every_file("en").values():
        for value in messages.values():
            texts += list(value.values()) if isinstance(value, dict) else [value]
    for g in GAMES:
        texts += list(vocabulary(g, "en").values())
    return texts


def placeholders(message: Message) -> set[str]:
    forms = message.values() if isinstance(message, dict) else [message]
    return {name for form in forms for name in re.findall(r"\{(\w+)\}", form)}


def pseudo_message(message: Message) -> Message:
    if isinstance(message, dict):
        return {form: pseudo(text) for form, text in message.items()}
    return pseudo(message)


def pseudo_module(messages: dict[str, Message]) -> str:
    """An ES module of the pseudo-locale, made from an English catalogue."""
    data = {key: pseudo_message(value) for key, value in messages.items()}
    return "export default " + json.dumps(data, ensure_ascii=False) + ";\n"


def source_files() -> list[Path]:
    """The pages' own source, without its line comments: every module but the
    catalogues, the HTML pages, and the server-rendered parts of the pages
    (web/__init__.py, web/rules.py)."""
    js = [p for p in (STATIC / "js").rglob("*.js") if MESSAGES not in p.parents]
    server = [STATIC.parent / "__init__.py", STATIC.parent / "rules.py"]
    return [*js, *STATIC.glob("*.html"), *server]


def source(path: Path) -> str:
    """A source file without its whole-line comments (examples such as t("key") in them)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith(("//", "#", "*")))


def dynamic_prefixes() -> set[str]:
    """The constant heads of every key built with a template literal: t(`dc.cat.${c}`)."""
    found: set[str] = set()
    for path in source_files():
        text = source(path)
        found |= set(re.findall(r"\b(?:t|tOr)\(\s*`([^`$]*)\$\{", text))
    return found
