from __future__ import annotations

import pytest

from gamenight.cli.players import SeatSpec, parse_players
from gamenight.core import OptionsError

BOTS = ["random", "greedy", "expert"]


def test_humans_and_bots() -> None:
    seats = parse_players("Ann, Bob ,bot:greedy,bot:greedy", BOTS)
    assert [s.name for s in seats] == ["Ann", "Bob", "Greedy 3", "Greedy 4"]
    assert [s.agent for s in seats] == ["human", "human", "bot:greedy", "bot:greedy"]


def test_team_syntax() -> None:
    seats = parse_players("Red:Ann+Bob,Blue:bot:expert", BOTS)
    assert seats == [
        SeatSpec("Red", members=("Ann", "Bob")),
        SeatSpec("Blue", bot="expert"),
    ]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty seat"),
        ("Ann,,Bob", "empty seat"),
        ("bot:genius", "unknown bot 'genius'"),
        ("Ann,ann", "two seats are named 'ann'"),
        ("Red:", "cannot read seat"),
        ("Red:Ann+", "cannot read seat"),
    ],
)
def test_bad_player_lists_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        parse_players(spec, BOTS)


def test_a_player_name_follows_the_one_text_policy() -> None:
    """Names typed for the terminal are refused as the server refuses them: no control
    codes (an ESC would rewrite the screen), no bidirectional overrides."""
    for bad in ("Ann\x1b[2J", "\u202eevil", "x" * 41):
        with pytest.raises(OptionsError, match="--players: a name"):
            parse_players(f"{bad},Bob", ["random"])
    assert [s.name for s in parse_players("Zoë,李", ["random"])] == ["Zoë", "李"]
