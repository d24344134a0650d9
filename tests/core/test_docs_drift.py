"""Issue 45: what the docs state about the code is checked against the code."""

from __future__ import annotations

import re
from pathlib import Path

import gamenight.core as core
from gamenight.core.record import FORMAT_VERSION, SUPPORTED_VERSIONS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_architecture_states_the_record_format_the_code_writes() -> None:
    text = (DOCS / "architecture.md").read_text()
    stated = re.findall(r"JSON Lines \(format version (\d+)", text)
    assert stated == [str(FORMAT_VERSION)]
    assert max(SUPPORTED_VERSIONS) == FORMAT_VERSION


def test_plug_in_authors_get_umpire_and_bot_info_from_core() -> None:
    from gamenight.core.game import BotInfo
    from gamenight.core.umpire import Umpire

    assert core.Umpire is Umpire and core.BotInfo is BotInfo
    assert {"Umpire", "BotInfo"} <= set(core.__all__)
