"""The rules' refusals reach a player in the player's language (issue 26): every
IllegalActionError is raised with a literal English sentence (its msgid, extracted by
`make messages`) and named fields, so `i18n.said` can say it in German and Polish; an
f-string or a sentence glued from pieces would reach a German player in English."""

from __future__ import annotations

import ast
import contextlib
import importlib
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.errors import (
    IllegalActionError,
    OptionsError,
    Sentence,
    StaleActionError,
    Term,
)
from gamenight.core.i18n import said, use_language
from gamenight.core.options import OptionSpec
from gamenight.core.testing import _mutants

ROOT = Path(__file__).resolve().parents[2]
FIELD = re.compile(r"\{(\w+)[^{}]*\}")


def _sentence_classes() -> set[str]:
    """The name of every Sentence subclass in gamenight (each module imported) that is
    raised with its sentence (one with its own constructor, such as MissingExtraError,
    builds the sentence itself), so a new error class a player can read is checked
    without being listed here (issue 41)."""
    for path in sorted((ROOT / "src" / "gamenight").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT / "src").with_suffix("").parts)
        if module.endswith("__main__") or ".envs." in module:
            continue
        with contextlib.suppress(ImportError):  # an extra this installation lacks
            importlib.import_module(module.removesuffix(".__init__"))
    found, todo = set(), [Sentence]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__init__ is Sentence.__init__:
                found.add(sub.__name__)
            todo.append(sub)
    return found


RAISERS = _sentence_classes()


def _calls() -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted((ROOT / "src" / "gamenight").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in RAISERS
            ):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return found


def test_every_refusal_is_a_literal_sentence_with_named_fields() -> None:
    calls = _calls()
    assert len(calls) > 50  # the four games' rules and the core's
    bad = []
    for where, call in calls:
        if len(call.args) != 1 or not (
            isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)
        ):
            bad.append(f"{where}: the message must be one string literal (no f-string)")
            continue
        if any(k.arg is None for k in call.keywords):  # **fields: checked where built
            continue
        named = {str(k.arg) for k in call.keywords}
        wanted = set(FIELD.findall(call.args[0].value))
        if named != wanted:
            bad.append(f"{where}: fields {sorted(named)} but placeholders {sorted(wanted)}")
    assert not bad, bad


def test_a_refusal_is_said_in_the_language_and_stays_english_in_str() -> None:
    error = IllegalActionError(
        "at height {height} in the {event} you may jump, skip or retire",
        height=10,
        event=Term("dec.event.high-jump", "High Jump"),
    )
    assert str(error) == "at height 10 in the High Jump you may jump, skip or retire"
    with use_language("de"):
        assert said(error) == "Hochsprung, Höhe 10: du darfst springen, auslassen oder aufgeben"
    with use_language("pl"):
        assert "skok wzwyż" in said(error).lower() and "High Jump" not in said(error)
    assert said(error) == str(error)
    again = pickle.loads(pickle.dumps(error))  # from a worker process: still translatable
    assert type(again) is IllegalActionError and again.fields == error.fields
    stale = StaleActionError("that move was made for position {made}; the table is at {seq}",
                             made=3, seq=4)  # fmt: skip
    with use_language("pl"):
        assert "3" in said(stale) and "position" not in said(stale)


ENGLISH_WORDS = {"the", "you", "dice", "must", "may", "token", "freeze", "turn", "rethrow"}


def refusals(game_id: str, seeds: int = 3) -> list[IllegalActionError]:
    """The rules' refusals met in random games: at each position every seat tries actions
    legal elsewhere (earlier positions, other seats) and near misses of its own."""
    game = registry.get(game_id).game
    found: list[IllegalActionError] = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.start(2, game.parse_options(), SeededDice(seed=seed)).state
        seen: list[Any] = []
        while game.to_act(state):
            acting = game.to_act(state)
            for seat in range(2):
                own = game.legal_actions(state, seat) if seat in acting else []
                tries = [*rng.sample(seen, min(4, len(seen))), *_mutants(own, rng)]
                for action in tries:
                    if action in own:
                        continue
                    try:
                        game.apply(state, seat, action)
                    except IllegalActionError as error:
                        found.append(error)
            seat = rng.choice(acting)
            legal = game.legal_actions(state, seat)
            seen = (seen + legal)[-40:]
            state = game.apply(state, seat, rng.choice(legal)).state
    return found


ENGLISH_WORDS = {"the", "you", "dice", "must", "may", "token", "freeze", "turn", "rethrow"}


def _words(text: str) -> set[str]:
    """The words of ``text`` outside quotes (a quoted id such as 'remove-token' is typed)."""
    return set(re.split(r"\W+", re.sub(r"'[^']*'", "", text).lower()))


@pytest.mark.parametrize("lang", ["de", "pl"])
@pytest.mark.parametrize("game", ["decathlon", "dice-duel", "wurfeltod", "decades"])
def test_every_refusal_met_in_play_is_translated(game: str, lang: str) -> None:
    """Every reason the rules give in random games is said without English words."""
    reasons: dict[str, str] = {}
    for error in refusals(game):
        with use_language(lang):
            reasons[error.message] = said(error)
    assert len(reasons) >= 3, reasons
    english = {
        message: text
        for message, text in reasons.items()
        if text == message or ENGLISH_WORDS & _words(text)
    }
    assert not english, english


def _bad_values(spec: OptionSpec) -> list[object]:
    """Values each kind of option refuses (each of its refusals at least once)."""
    if spec.kind == "int":
        low = [spec.minimum - 1] if spec.minimum is not None else []
        high = [spec.maximum + 1] if spec.maximum is not None else []
        return ["x", True, *low, *high]
    if spec.kind == "multi":
        return [3, "", "nope"]
    if spec.kind == "choice":
        return [3, "nope"]
    if spec.kind == "bool":
        return ["maybe"]
    return [3]


def option_refusals() -> list[OptionsError]:
    """Every game's refusals of its options and line-ups: each option given values of
    the wrong kind or out of range, an unknown option, and seat counts out of range."""
    found: list[OptionsError] = []
    for entry in registry.available():
        game = entry.game
        tries: list[dict[str, object]] = [{"no-such-option": 1}]
        tries += [{spec.name: bad} for spec in game.info.options for bad in _bad_values(spec)]
        for raw in tries:
            with pytest.raises(OptionsError) as caught:
                game.parse_options(raw)
            found.append(caught.value)
        for spec in game.info.options:
            for choice in spec.seats:
                options = game.parse_options({spec.name: choice})
                lo, hi = game.seat_range(options)
                for players in {lo - 1, hi + 1} - {0}:
                    with pytest.raises(OptionsError) as caught:
                        game.check_setup(players, options)
                    found.append(caught.value)
        with pytest.raises(OptionsError) as caught:
            game.check_setup(game.info.max_players + 1, game.parse_options())
        found.append(caught.value)
    return found


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_every_refused_option_is_translated(lang: str) -> None:
    """Every game's refusal of a bad option or seat count is said without English
    words (and its English is the same sentence str() gives for logs)."""
    reasons: dict[str, str] = {}
    for error in option_refusals():
        assert said(error) == str(error)
        with use_language(lang):
            reasons[error.message] = said(error)
    assert len(reasons) >= 10, reasons
    english = {m: t for m, t in reasons.items() if t == m or OPTION_WORDS & _words(t)}
    assert not english, english


OPTION_WORDS = {"the", "takes", "players", "expected", "is", "not", "has", "got", "below", "above"}


def test_an_options_error_keeps_its_fields_across_processes_and_quotes_its_cause() -> None:
    cause = OptionsError("option '{option}': expected yes or no, got {raw}", option="x", raw="'?'")
    error = OptionsError("--players: {problem}", problem=cause)
    assert str(error) == "--players: option 'x': expected yes or no, got '?'"
    with use_language("de"):
        assert (
            said(error) == "--players: Option „x“: erwartet wird ja oder nein (yes/no), nicht '?'"
        )
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is OptionsError and str(again) == str(error)


def test_make_messages_extracts_every_sentence_class() -> None:
    """Each class raised with a sentence is a keyword of `make messages` (Makefile
    KEYWORDS): otherwise its sentences never reach the catalogues (issue 41)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    block = re.search(r"^KEYWORDS :=((?:.*\\\n)*.*)$", makefile, re.MULTILINE)
    assert block
    keywords = {k.split(":")[0] for k in re.findall(r"-k (\S+)", block.group(1))}
    raised = {call.func.id for _, call in _calls() if isinstance(call.func, ast.Name)}
    assert raised - keywords == set()
