"""The Decades as a :class:`~gamenight.core.game.Game`: the engine behind every front end.

>>> from gamenight.core.dice import SeededDice
>>> step = GAME.start(2, GAME.parse_options(), SeededDice(seed=1))
>>> GAME.to_act(step.state), step.state.phase
((0, 1), 'keep')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from gamenight.core.catalogue import CatalogueInfo
from gamenight.core.dice import DiceSource
from gamenight.core.errors import OptionsError
from gamenight.core.game import BotInfo, Game, GameInfo, Results, Transition
from gamenight.core.i18n import N_
from gamenight.core.options import Options, OptionSpec
from gamenight.games.decades import rules
from gamenight.games.decades.actions import Answer, Extend, Hidden, Keep, PlayCard
from gamenight.games.decades.boards import SIDES, parse_sides
from gamenight.games.decades.events import DecadesEvent
from gamenight.games.decades.questions import DEFAULT_NAMES, DeckError
from gamenight.games.decades.rules import SECRET_STEPS, STEP_OF, Action, DecadesState
from gamenight.games.decades.view import DecadesView, view

if TYPE_CHECKING:
    from gamenight.games.decades.deck import Deck

__all__ = ["GAME", "DecadesGame", "deck_for"]


# The deck module and the library are imported on first use, never at import: listing the
# games (`gamenight list`) reads no deck (issue 29; a test checks sys.modules).
def deck_for(option: str) -> Deck:
    """The deck an option names (:func:`gamenight.games.decades.library.deck_for`; envs
    and bots reach it here)."""
    from gamenight.games.decades import library

    return library.deck_for(option)


def deck_option(raw: str) -> str:
    """The canonical ``deck`` option: "" for the shipped deck (English), ``shipped-de``
    or ``shipped-pl`` for it in German or Polish, else the full id of a library deck.

    A file path is refused: a game never opens an outside file.
    """
    from gamenight.games.decades import library

    text = raw.strip()
    if text.lower() in DEFAULT_NAMES:
        return ""
    if text.lower().startswith(library.SHIPPED_PREFIX):  # the shipped deck in a language
        language = library.shipped_language(text)
        return library.SHIPPED_IDS.get(language, "")  # shipped-en is the default: ""
    if "/" in text or "\\" in text or text.lower().endswith((".json", ".csv")):
        raise DeckError(
            "{quoted} is a file; import it first with `gamenight decks import {text}`, "
            "then name the deck by its id",
            quoted=repr(text),
            text=text,
        )
    ident = library.resolve_id(text)
    library.load_deck_by_id(ident)  # it must load
    return ident


class DecadesGame(Game[DecadesState, Action, DecadesView, DecadesEvent]):
    info: ClassVar[GameInfo] = GameInfo(
        id="decades",
        name="The Decades",
        min_players=2,  # T1: two teams
        bots=(
            BotInfo(
                "novice",
                N_("remembers years loosely (sd 6 years); places tokens and cards exactly"),
                "gamenight.games.decades.bots:novice",
                rating=20.0,
            ),
            BotInfo(
                "casual",
                N_("remembers years fairly well (sd 3 years)"),
                "gamenight.games.decades.bots:casual",
                rating=25.0,
            ),
            BotInfo(
                "expert",
                N_("remembers years closely (sd 1.5 years); beat novice 999 times in 1,000"),
                "gamenight.games.decades.bots:expert",
                rating=30.0,
            ),
        ),
        max_players=2,
        vocabulary="gamenight.games.decades.vocabulary:VOCABULARY",
        rules_version="1",
        summary=(
            "Two teams secretly bet on the year of six events a round, stretch their "
            "answers with extension tokens and sabotage each other with action cards."
        ),
        options=(
            OptionSpec(
                "deck",
                "str",
                N_(
                    "question deck id from `gamenight decks list`; empty: the shipped deck "
                    "(shipped-de, shipped-pl: in German, Polish)"
                ),
                "",
            ),
            OptionSpec(
                "track",
                "int",
                N_("length of the score track (1 to 1000)"),
                100,
                minimum=1,
                maximum=1000,
            ),  # T6
            # T1; per-seat: front ends offer a side per team without knowing the game
            OptionSpec(
                "sides", "per-seat", N_("board side per team, like A,B"), "A,B", tuple(SIDES)
            ),
        ),
        seat_noun="team",
        hidden_info=True,  # T7: hot-seat play must hide each team's entries
        terminal="gamenight.terminal.decades:UI",  # a name only: games import no front end
        codec="gamenight.games.decades.codec:make",
        chance="gamenight.core.chance:dice_chance",
        reviewer="gamenight.games.decades.review:reviewer",
        simultaneous=True,  # both teams answer and choose cards at once
        catalogues=(
            CatalogueInfo(
                "deck",
                "gamenight.games.decades.library:catalogue",
                noun="deck",
                defaults=DEFAULT_NAMES,
                default_label="the shipped deck",
                default_language="en",  # shipped-de, shipped-pl: the catalogue's entries
            ),
        ),
    )
    state_type: ClassVar[type[msgspec.Struct]] = DecadesState
    action_type: ClassVar[Any] = Action
    event_type: ClassVar[Any] = DecadesEvent

    def check_options(self, options: Options) -> None:
        try:
            options["sides"] = ",".join(parse_sides(options["sides"]))
        except ValueError as exc:
            raise OptionsError("option 'sides': {problem}", problem=exc) from None
        try:
            options["deck"] = deck_option(str(options["deck"]))
        except DeckError as exc:
            raise OptionsError("option 'deck': {problem}", problem=exc) from None

    def _start(
        self, players: int, options: Options, dice: DiceSource
    ) -> Transition[DecadesState, DecadesEvent]:
        return rules.start(players, options, dice)

    def to_act(self, state: DecadesState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_actions(self, state: DecadesState, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def _apply(
        self, state: DecadesState, seat: int, action: Action
    ) -> Transition[DecadesState, DecadesEvent]:
        return rules.apply(state, seat, action)

    def results(self, state: DecadesState) -> Results:
        if not state.finished:
            raise ValueError("the Decades game is not over yet")
        return Results.from_scores(
            list(state.scores),
            {"early_win": state.early_win, "rounds_played": len(state.log)},
        )

    def view(self, state: DecadesState, seat: int | None) -> DecadesView:
        return view(state, seat)

    # ----- content a record carries -------------------------------------------------
    def attachments(self, options: Options) -> dict[str, Any]:
        """A user deck travels with the record (its id and canonical content), so a
        replay works on a machine without it. The shipped deck needs nothing."""
        from gamenight.games.decades import library

        option = deck_option(str(options.get("deck", "")))
        if not option or option.startswith(library.SHIPPED_PREFIX):
            return {}
        ident, content = library.deck_content(option)
        return {"deck": {"id": ident, "content": content}}

    def attach(self, attachments: dict[str, Any]) -> None:
        """Make a record's deck loadable by its id for this process; the content must
        hash to the id. Raises :class:`OptionsError` for anything else."""
        from gamenight.games.decades import library

        if not attachments:
            return
        entry = attachments.get("deck")
        unknown = sorted(set(attachments) - {"deck"})
        if unknown or not isinstance(entry, dict):
            raise OptionsError(
                "{game} records carry only a deck, not {unknown}",
                game=self._name(),
                unknown=str(unknown),
            )
        try:
            # attach_deck checks both and refuses bad ones
            library.attach_deck(entry.get("id"), entry.get("content"))  # type: ignore[arg-type]
        except DeckError as exc:
            raise OptionsError("the record's deck: {problem}", problem=exc) from None

    def public_action(self, state: DecadesState, seat: int, action: Action) -> Action:
        """How ``seat``'s action looks to the other team and spectators now (T7).

        * Kept cards stay :class:`Hidden` until every one of them has been played.
        * While ``seat`` has a choice waiting for the reveal, *all* its actions of
          that step show as :class:`Hidden`. Redacting only the waiting one is not
          possible from the action alone, and redacting only actions equal to it
          would tell which year (tokens, card) it is.
        * Everything else is public: revealed choices and targets.

        >>> from gamenight.core.dice import SeededDice
        >>> state = GAME.start(2, GAME.parse_options(), SeededDice(seed=1)).state
        >>> keep = GAME.legal_actions(state, 0)[0]
        >>> GAME.public_action(state, 0, keep)
        Hidden(step='keep')
        """
        if isinstance(action, Keep):
            done = state.phase != "keep" and not state.hands[seat]
            return action if done else Hidden("keep")
        if isinstance(action, Answer | Extend | PlayCard):
            step = SECRET_STEPS[STEP_OF[type(action)]]
            if state.pending[seat] is not None and state.phase == step:
                return Hidden(step)
        return action

    def reversible(self, before: DecadesState, after: DecadesState) -> bool:
        """Undo is allowed only when the action changed nothing but the acting team's
        own waiting choice or its open target: no reveal, no new question, no scoring,
        no dice (BGA's rule: never across a reveal or a draw)."""
        if before.dice != after.dice:
            return False
        unrevealed = msgspec.structs.replace(after, pending=before.pending, targets=before.targets)
        return unrevealed == before


GAME = DecadesGame()
