"""Every registered game keeps the kernel's promises (core.testing), under random play.

Per-game folders test each game's own rules; this file holds all of them to the
same contract, so a new game is checked the moment it is registered.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamenight.core import OptionsError, SeededDice, registry
from gamenight.core.testing import check_replay, check_round_trips, check_table, random_playout

# Seat counts and options worth varying for a game (others stay at their defaults); a
# game not named here (a plug-in) plays its fewest and most seats with default options.
SETUPS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "decathlon": [
        (1, {"events": "shot-put,high-jump"}),
        (3, {"events": "100m,long-jump,pole-vault", "variant": "championship"}),
        (2, {"events": "discus,javelin,1500m"}),
    ],
    "dice-duel": [(1, {"mode": "solo"}), (2, {}), (4, {})],
    "wurfeltod": [(1, {}), (2, {})],
    "decades": [(2, {}), (2, {"track": "40", "sides": "B,A"})],
}


GAME_IDS = [entry.id for entry in registry.available()]  # every registered game


def setups(game_id: str) -> list[tuple[int, dict[str, Any]]]:
    if game_id in SETUPS:
        return SETUPS[game_id]
    info = registry.get(game_id).game.info
    return [(n, {}) for n in sorted({info.min_players, info.max_players})]


def test_every_named_setup_is_a_registered_game() -> None:
    assert set(SETUPS) <= set(GAME_IDS)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_play_keeps_the_contract(game_id: str, data: st.DataObject) -> None:
    game = registry.get(game_id).game
    seats, raw = data.draw(st.sampled_from(setups(game_id)))
    seed = data.draw(st.integers(0, 2**31 - 1))
    options = game.parse_options(raw)
    final, history = random_playout(game, seats, options, seed)
    check_round_trips(game, final, history)
    check_replay(game, seats, options, seed, history, final)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_the_table_keeps_its_promises(game_id: str, data: st.DataObject) -> None:
    """Seq, snapshots, refusals, per-seat streams and redaction (core.table)."""
    game = registry.get(game_id).game
    seats, raw = data.draw(st.sampled_from(setups(game_id)))
    # A 128-bit seed, as drawn for real games, so finding it in a stream is no coincidence.
    seed = data.draw(st.integers(2**100, 2**128 - 1))
    check_table(game, seats, game.parse_options(raw), seed)


OPTION_JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 500), st.text(max_size=12),
    st.lists(st.text(max_size=8), max_size=3), st.just("100m,hurdles"), st.just("solo"),
    st.just("championship"), st.just("B,A"), st.just("/nonexistent.csv"),
)  # fmt: skip


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_options_are_accepted_or_refused_clearly(game_id: str, data: st.DataObject) -> None:
    game = registry.get(game_id).game
    names = [spec.name for spec in game.info.options] + ["colour"]
    raw = data.draw(st.dictionaries(st.sampled_from(names), OPTION_JUNK, max_size=3))
    seats = data.draw(st.integers(0, 9))
    try:
        options = game.parse_options(raw)
        game.start(seats, options, SeededDice(seed=1))
    except OptionsError as error:
        assert str(error)  # a message that names the problem


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_check_setup_says_what_start_would(game_id: str, data: st.DataObject) -> None:
    """``check_setup`` (what a server checks before it commits to a room) refuses exactly
    the setups ``start`` refuses, and ``seat_range`` (what a lobby offers) names exactly
    the seat counts it accepts."""
    game = registry.get(game_id).game
    names = [spec.name for spec in game.info.options]
    raw = (
        data.draw(st.dictionaries(st.sampled_from(names), OPTION_JUNK, max_size=3)) if names else {}
    )
    seats = data.draw(st.integers(0, 9))
    try:
        options = game.parse_options(raw)
    except OptionsError:
        return
    lo, hi = game.seat_range(options)
    try:
        game.check_setup(seats, options)
    except OptionsError as refused:
        assert str(refused) and "\n" not in str(refused)
        assert not lo <= seats <= hi
        with pytest.raises(OptionsError):
            game.start(seats, options, SeededDice(seed=1))
        return
    assert lo <= seats <= hi
    game.start(seats, options, SeededDice(seed=1))  # no refusal once the check passed


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_option_choice_allows_some_seat_count(game_id: str) -> None:
    game = registry.get(game_id).game
    for spec in game.info.options:
        assert set(spec.seats) <= set(spec.choices), spec.name
        for choice in spec.seats:
            lo, hi = game.seat_range(game.parse_options({spec.name: choice}))
            assert lo <= hi, (spec.name, choice)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_named_capabilities_have_the_documented_signatures(game_id: str) -> None:
    """Capabilities are named by strings ("module:attribute"), which mypy cannot follow:
    what each names must take the arguments its callers pass."""
    import inspect

    entry = registry.get(game_id)
    for bot in entry.bot_infos.values():
        inspect.signature(registry.load_callable(bot.factory)).bind(1)  # (seed)
    if entry.game.info.advisor is not None:
        inspect.signature(registry.load_callable(entry.game.info.advisor)).bind(None, 0, [])
    if entry.game.info.odds is not None:
        inspect.signature(registry.load_callable(entry.game.info.odds)).bind(None)
    if entry.game.info.solver is not None:
        solve = registry.get(game_id).solver.solve  # type: ignore[union-attr]  # not None here
        inspect.signature(solve).bind({}, rebuild=False, progress=lambda done, total: None)
    info = entry.game.info
    for path, args in ((info.codec, ({},)), (info.actions, ({},)), (info.stage, (None,))):
        if path is not None:
            inspect.signature(registry.load_callable(path)).bind(*args)
    if info.terminal is not None:
        ui = registry.load_callable(info.terminal)()  # a TerminalUI: these four methods
        for method in ("show", "show_events", "ask", "show_results"):
            assert callable(getattr(ui, method)), (info.terminal, method)
    if entry.game.info.preparation is not None:  # prepare(progress) -> None
        inspect.signature(registry.load_callable(entry.game.info.preparation)).bind(
            lambda d, t: None
        )
    if info.reviewer is not None:  # reviewer(options, players, build) -> Reviewer
        inspect.signature(registry.load_callable(info.reviewer)).bind({}, 2, False)
    names = {spec.name: spec for spec in entry.game.info.options}
    for catalogue in entry.game.info.catalogues:  # () -> entries, for a "str" option
        assert names[catalogue.option].kind == "str", catalogue
        assert names[catalogue.option].default in catalogue.defaults, catalogue
        inspect.signature(registry.load_callable(catalogue.entries)).bind()
