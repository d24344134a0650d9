"""The table answers who acts from the step that made its state (issue 29: computed once
per action for the table, its frames and the runner); after any run of actions and
undos it must agree with the game asked afresh."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.table import Table


@settings(max_examples=25, deadline=None)
@given(game_id=st.sampled_from(["decades", "decathlon", "wurfeltod"]), seed=st.integers(0, 999))
def test_who_acts_agrees_with_the_game_through_actions_and_undos(game_id: str, seed: int) -> None:
    game = registry.get(game_id).game
    rng = random.Random(seed)
    table: Table = Table.start(game, 2, game.parse_options(), SeededDice(seed=seed))
    undos = 0
    for _ in range(150):
        assert table.to_act() == game.to_act(table.state)
        assert table.finished == game.is_terminal(table.state)
        assert table.position(None).to_act == game.to_act(table.state)
        if table.finished:
            break
        last = table.moves()[-1][0] if table.seq else None
        if last is not None and table.can_undo(last) and rng.random() < 0.3:
            table.undo(last)
            undos += 1
            continue
        seat = rng.choice(table.to_act())
        table.submit(seat, rng.choice(table.position(seat).legal))
    if game_id == "decades":
        assert undos > 0 or table.seq < 10  # the undo path was exercised
