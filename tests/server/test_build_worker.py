"""The preparation worker (``python -m gamenight.server.build GAME``) runs any game's
``GameInfo.preparation`` and speaks the same stdout protocol whatever the game."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest

from gamenight.core import registry
from gamenight.server import build


def prepare_in_four(progress: Callable[[int, int], None]) -> None:
    for done in range(5):
        progress(done, 4)
        progress(done, 4)  # a repeat within the same percent is not told again


def prepare_badly(progress: Callable[[int, int], None]) -> None:
    progress(1, 10)
    raise OSError("no space left on device\nmore detail")


def _fake(monkeypatch: pytest.MonkeyPatch, preparation: str | None) -> None:
    info = SimpleNamespace(preparation=preparation)
    entry = SimpleNamespace(name="Fake Game", game=SimpleNamespace(info=info))
    monkeypatch.setattr(registry, "get", lambda game: entry)


def test_a_preparation_reports_progress_once_per_percent(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake(monkeypatch, f"{__name__}:prepare_in_four")
    assert build.main(["fake"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"progress {d} 4" for d in range(5)]


def test_a_failed_preparation_is_one_error_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake(monkeypatch, f"{__name__}:prepare_badly")
    assert build.main(["fake"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "progress 1 10",
        "error no space left on device",
    ]


def test_nothing_to_prepare_and_no_such_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert build.main(["dice-duel"]) == 2
    assert capsys.readouterr().out == "error Kniffel Dice Duel has nothing to prepare\n"
    assert build.main(["chess"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("error ") and out.count("\n") == 1
    assert build.main([]) == 2


def test_wurfeltod_declares_its_value_table_as_its_preparation() -> None:
    info = registry.get("wurfeltod").game.info
    assert info.preparation == "gamenight.games.wurfeltod.solver.capability:prepare"
    decathlon = registry.get("decathlon").game.info  # the two-player win table (issue 27)
    assert decathlon.preparation == "gamenight.games.decathlon.solver.win2p_store:prepare"
    prepared = {e.id for e in registry.available() if e.game.info.preparation}
    assert prepared == {"wurfeltod", "decathlon"}
