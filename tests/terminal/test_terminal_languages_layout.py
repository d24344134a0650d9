"""The terminal's tables in German and Polish at the widths the full screen gives them (the
log is 30 columns at 80x24): longer words without a space to wrap at ("100-m-Lauf",
"Disziplin") are folded, never cut with Rich's ellipsis. The pseudo-locale run
(full/test_full_pseudo.py) cannot see these: its lengthened words have spaces."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from gamenight.core.i18n import use_language
from gamenight.games.decathlon.disciplines import EVENT_IDS
from gamenight.terminal.decathlon import score_sheet


def rendered(renderable: object, width: int) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


@pytest.mark.parametrize("variant", ["points", "championship"])
@pytest.mark.parametrize("lang", ["de", "pl"])
@pytest.mark.parametrize("width", [29, 30, 40])  # 29: the log at 80x24
def test_the_score_sheet_folds_long_words(lang: str, variant: str, width: int) -> None:
    rows = [(17, 7), (23, None)] + [(None, None)] * (len(EVENT_IDS) - 2)
    with use_language(lang):
        text = rendered(score_sheet(EVENT_IDS, rows, ["Ann", "Greedy 2"], variant), width)
    assert "…" not in text, text
    assert "17" in text and "23" in text


@pytest.mark.parametrize(("lang", "row"), [("en", "80s"), ("de", "80er"), ("pl", "80.")])
def test_the_decades_board_names_its_rows_in_the_language(lang: str, row: str) -> None:
    """The decade rows are named the language's way (the board said "80s" in German and
    Polish); the compact board, for the 80x24 panel and 40-column terminals, keeps 40."""
    from gamenight.terminal.decades import board_grid

    with use_language(lang):
        compact = rendered(board_grid("A", [("music", 1987)], (), "Red", compact=True), 40)
        wide = rendered(board_grid("A", [], (), "Red"), 80)
    lines = compact.splitlines()
    suffix = row[2:]
    assert [line.split()[0] for line in lines[1:9:2]] == [f"{d}{suffix}" for d in DECADE_ROWS]
    assert max(len(line.rstrip()) for line in lines) <= 40, compact
    assert f"1980{suffix} 80" in wide


DECADE_ROWS = ("80", "90", "00", "10")
