"""The one game API that every game implements and every front end uses.

A game is a stateless object (one per game, e.g. ``decathlon.GAME``) whose
methods are pure functions of immutable states:

* :meth:`Game.start` builds the initial state from options and a dice source;
* :meth:`Game.to_act` names the seats that may act (several for simultaneous
  choices);
* :meth:`Game.legal_actions` lists what a seat may do now;
* :meth:`Game.apply` returns a :class:`Transition`: the new state and the
  events the action caused, or raises :class:`IllegalActionError`;
* :meth:`Game.view` is what one seat (or a spectator) may know;
* :meth:`Game.results` scores a finished game.

States and actions are frozen ``msgspec`` structs, so they are hashable, cheap
to copy, and round-trip through JSON.

``Game`` is generic over its state, action, view and event types
(``Game[DecathlonState, Action, DecathlonView, DecathlonEvent]``), so mypy follows
a game's types through the table, its steps and frames, and its agents. A front
end that serves any game holds an :data:`AnyGame`: states, actions and views are
structs it passes back unopened, events are :class:`Event`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic

import msgspec
from typing_extensions import TypeVar

from gamenight.core.catalogue import CatalogueInfo
from gamenight.core.dice import DiceSource
from gamenight.core.errors import IllegalActionError, OptionsError, Term
from gamenight.core.events import Event
from gamenight.core.i18n import N_
from gamenight.core.options import Options, OptionSpec, parse_options

S = TypeVar("S", bound=msgspec.Struct)
A = TypeVar("A", bound=msgspec.Struct)
V = TypeVar("V", bound=msgspec.Struct, default=msgspec.Struct)
E = TypeVar("E", bound=Event, default=Event)
S_co = TypeVar("S_co", bound=msgspec.Struct, covariant=True)
E_co = TypeVar("E_co", bound=Event, covariant=True, default=Event)


class GameInfo(msgspec.Struct, frozen=True):
    """Metadata a front end needs before a game exists."""

    id: str
    name: str
    min_players: int
    max_players: int
    rules_version: str
    summary: str
    options: tuple[OptionSpec, ...] = ()
    seat_noun: str = "player"
    hidden_info: bool = False  # seats hold secrets: hot-seat play must hide entries
    # Capabilities, named as "module:attribute" so nothing heavy is imported to list them.
    bots: tuple[BotInfo, ...] = ()
    advisor: str | None = None  # advise(view, seat, legal) -> Advice | None
    solver: str | None = None  # a gamenight.core.solver.Solver
    odds: str | None = None  # odds(view) -> Odds | None (gamenight.core.odds), live win odds
    chance: str | None = None  # chance(game) -> gamenight.core.chance.Chance: explicit dice
    # What front ends and learners find a game's own modules by (a game without one gets
    # their generic fallback). Strings only: a game names, never imports, a front end.
    terminal: str | None = None  # a gamenight.terminal.ui.TerminalUI class (UI())
    codec: str | None = None  # codec(options) -> gamenight.core.codec.Codec, for envs
    actions: str | None = None  # actions(options) -> every action, fixed order (generic codec)
    stage: str | None = None  # stage(view) -> str | None: the part of the game (e.g. event)
    simultaneous: bool = False  # several seats may choose at once (a parallel env)
    # Catalogues and preparation (issue 22): what front ends offer without naming a game.
    catalogues: tuple[CatalogueInfo, ...] = ()  # options whose values name catalogue entries
    # prepare(progress: (done, total) -> None[, target: str]) -> None, once (per target)
    preparation: str | None = None
    # Issue 26: the terms both front ends show (a Mapping[str, str], stable key -> English),
    # translated with the key as gettext context: gamenight.core.vocabulary.vocabulary().
    vocabulary: str | None = None
    # Issue 42: reviewer(options, players, build) -> gamenight.core.review.Reviewer, the
    # exact values a finished game's review measures each decision with.
    reviewer: str | None = None
    # Issue 45: benchmarks() -> tuple[gamenight.core.solver.Benchmark, ...], the yardsticks
    # of one-seat play the regret harness (gamenight.envs.evaluate) offers for the game.
    benchmarks: str | None = None


class BotInfo(msgspec.Struct, frozen=True):
    """A bot a game offers: its name, one line on what it does and how strong it is,
    and where its factory ``(seed: int) -> Agent`` lives ("module:attribute").

    ``rating`` says the bot may sit in rated rooms (None: a room with it is not rated)
    and is its declared OpenSkill mu there, used only when no fit exists: the game's
    ``ladder.json`` (``gamenight fit-bots``) holds the ratings fitted from the bots'
    games, per pool (docs/accounts.md, "Bots on the leaderboards")."""

    name: str
    summary: str
    factory: str
    rating: float | None = None


class Transition(msgspec.Struct, Generic[S_co, E_co], frozen=True, gc=False):
    """The result of an action: the new state and what happened (the game's events)."""

    state: S_co
    events: tuple[E_co, ...]


class Results(msgspec.Struct, frozen=True):
    """Final scores per seat, competition ranks (ties share) and the winners."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    detail: dict[str, Any] = {}

    @classmethod
    def from_scores(
        cls, scores: Sequence[float], detail: Mapping[str, Any] | None = None
    ) -> Results:
        """Rank by score, higher is better; equal scores share a rank.

        >>> Results.from_scores([10, 30, 30, 5]).ranks
        (3, 1, 1, 4)
        >>> Results.from_scores([10, 30, 30, 5]).winners
        (1, 2)
        """
        ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
        winners = tuple(i for i, r in enumerate(ranks) if r == 1)
        return cls(tuple(scores), ranks, winners, dict(detail or {}))


class Game(ABC, Generic[S, A, V, E]):
    """Base class of every game. Subclasses are stateless; states carry everything."""

    info: ClassVar[GameInfo]
    state_type: ClassVar[type[msgspec.Struct]]
    action_type: ClassVar[Any]  # the union of the game's action structs
    event_type: ClassVar[Any] = Event  # the union of the game's Event subclasses

    # ----- options -------------------------------------------------------
    def parse_options(self, raw: Mapping[str, object] | None = None) -> Options:
        """Validate options (defaults filled in); raises :class:`OptionsError`."""
        options = parse_options(self.info.options, raw or {}, self.info.id)
        self.check_options(options)
        return options

    def check_options(self, options: Options) -> None:
        """Cross-option checks; override to refuse combinations."""

    def check_players(self, players: int) -> None:
        """The game's seat range whatever the options (:meth:`check_setup` says more)."""
        lo, hi = self.info.min_players, self.info.max_players
        if not lo <= players <= hi:
            raise self._seats_refused(lo, hi, players, "")

    def seat_range(self, options: Options) -> tuple[int, int]:
        """The seat counts ``(lowest, highest)`` that parsed ``options`` allow: the game's
        range narrowed by each chosen option's ``OptionSpec.seats``. Empty (lowest >
        highest) if the options allow none."""
        lo, hi = self.info.min_players, self.info.max_players
        for spec in self.info.options:
            narrowed = spec.seats.get(str(options.get(spec.name))) if spec.seats else None
            if narrowed is not None:
                lo, hi = max(lo, narrowed[0]), min(hi, narrowed[1])
        return lo, hi

    def older_rules(self, rules_version: str) -> Game[Any, Any, Any, Any] | None:
        """This game under an earlier ``rules_version`` (its ``info.rules_version`` says
        so), to replay and resume records made under it; None when it cannot (the
        default). A game whose rules change keeps its old reading here."""
        return None

    def score_unit(self, options: Options) -> str:
        """What a final score counts, for axis labels and tables: "points" unless the
        game says otherwise (the Decathlon's Championship: "honours"). Parsed options.
        English, marked ``N_``: a table a player reads shows ``_(unit)``; files keep it."""
        return N_("points")

    def check_setup(self, players: int, options: Options) -> None:
        """Refuse (:class:`OptionsError`, one line) exactly the setups :meth:`start` would
        refuse, without starting: a front end checks a setup before it commits to one
        (a server room, a saved session). ``options`` must be parsed. The default checks
        :meth:`seat_range`; a game whose start refuses more says so here too."""
        lo, hi = self.seat_range(options)
        if lo <= players <= hi:
            return
        self.check_players(players)  # outside the game's own range: the plain message
        narrowing = [
            f"{spec.name} {options.get(spec.name)}"
            for spec in self.info.options
            if spec.seats and options.get(spec.name) in spec.seats
        ]
        raise self._seats_refused(lo, hi, players, ", ".join(narrowing))

    def _seats_refused(self, lo: int, hi: int, players: int, narrowing: str) -> OptionsError:
        """The refusal of ``players`` seats where ``lo``..``hi`` are allowed (``narrowing``:
        the options that narrow the range, if any): one whole sentence per shape, so each
        language words it its own way."""
        game, opts, n = self._name(), narrowing, players
        if self.info.seat_noun == "team":
            if narrowing and lo == hi:
                return OptionsError(
                    "{game} takes {lo} teams with {options}, not {n}",
                    game=game,
                    lo=lo,
                    options=opts,
                    n=n,
                )
            if narrowing:
                return OptionsError(
                    "{game} takes {lo} to {hi} teams with {options}, not {n}",
                    game=game,
                    lo=lo,
                    hi=hi,
                    options=opts,
                    n=n,
                )
            if lo == hi:
                return OptionsError("{game} takes {lo} teams, not {n}", game=game, lo=lo, n=n)
            return OptionsError(
                "{game} takes {lo} to {hi} teams, not {n}", game=game, lo=lo, hi=hi, n=n
            )
        if narrowing and lo == hi:
            return OptionsError(
                "{game} takes {lo} players with {options}, not {n}",
                game=game,
                lo=lo,
                options=opts,
                n=n,
            )
        if narrowing:
            return OptionsError(
                "{game} takes {lo} to {hi} players with {options}, not {n}",
                game=game,
                lo=lo,
                hi=hi,
                options=opts,
                n=n,
            )
        if lo == hi:
            return OptionsError("{game} takes {lo} players, not {n}", game=game, lo=lo, n=n)
        return OptionsError(
            "{game} takes {lo} to {hi} players, not {n}", game=game, lo=lo, hi=hi, n=n
        )

    # ----- the state machine ----------------------------------------------
    def start(self, players: int, options: Options, dice: DiceSource) -> Transition[S, E]:
        """The initial state for ``players`` seats. ``options`` must be parsed."""
        self.check_setup(players, options)
        return self._start(players, options, dice)

    @abstractmethod
    def _start(self, players: int, options: Options, dice: DiceSource) -> Transition[S, E]: ...

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]:
        """The seats that may act now; empty exactly when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[A]:
        """Every action ``seat`` may take now (empty if it may not act)."""

    def apply(self, state: S, seat: int, action: A) -> Transition[S, E]:
        """Apply ``action`` by ``seat``; raises :class:`IllegalActionError`."""
        self.check_action(self.to_act(state), seat, action)
        return self._apply(state, seat, action)

    def check_action(self, acting: tuple[int, ...], seat: int, action: object) -> None:
        """:meth:`apply`'s checks where ``acting`` are the seats to act (a table, which
        knows them, checks with this and calls :meth:`_apply`): raises
        :class:`IllegalActionError` unless ``seat`` acts and ``action`` is the game's."""
        if not acting:
            raise IllegalActionError("the game is over; no more actions")
        if seat not in acting:
            raise IllegalActionError("it is not seat {seat}'s turn to act", seat=seat)
        if not isinstance(action, self._action_classes):
            raise IllegalActionError(
                "{action} is not a {game} action", action=repr(action), game=self._name()
            )

    @abstractmethod
    def _apply(self, state: S, seat: int, action: A) -> Transition[S, E]: ...

    def _name(self) -> Term:
        """The game's name, as a term the player's language says (its vocabulary's)."""
        return Term("game." + self.info.id + ".name", self.info.name)  # key made: not extracted

    @cached_property
    def _action_classes(self) -> tuple[type, ...]:
        # apply is hot: the union's struct classes are listed once per game object
        # (hashing a typing union for a cache lookup costs more than the check)
        members = getattr(self.action_type, "__args__", (self.action_type,))
        return tuple(m for m in members if isinstance(m, type) and issubclass(m, msgspec.Struct))

    @cached_property
    def _action_types(self) -> frozenset[type]:
        # the exact action classes: a table checks ``type(action) in`` them first
        return frozenset(self._action_classes)

    def is_terminal(self, state: S) -> bool:
        return not self.to_act(state)

    @abstractmethod
    def results(self, state: S) -> Results:
        """Final results; raises :class:`ValueError` if the game is not over."""

    # ----- what a seat may know ------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """What ``seat`` may know (``None``: a spectator). Never holds the dice source."""

    def public_action(self, state: S, seat: int, action: A) -> A:
        """How ``seat``'s ``action`` looks to everyone else while ``state`` is current.

        Override for secret actions (a hidden choice before its reveal); the
        default says actions are public.
        """
        return action

    def reversible(self, before: S, after: S) -> bool:
        """Whether the move from ``before`` to ``after`` may be taken back (undo):
        no dice were thrown. Games with reveals or draws say more."""
        dice = getattr(before, "dice", None)
        later = getattr(after, "dice", None)
        return dice is later or dice == later  # the same object: nothing thrown, no compare

    # ----- content a record carries ---------------------------------------------
    def attachments(self, options: Options) -> dict[str, Any]:
        """Content these ``options`` name that another machine may not have (e.g. a
        user deck named by its id), so a record replays anywhere. Default: none."""
        return {}

    def attach(self, attachments: dict[str, Any]) -> None:
        """Make a record's :meth:`attachments` available before the game starts
        (replay, resume). Must refuse bad content with :class:`OptionsError`.
        Default: nothing to attach."""

    # ----- JSON ------------------------------------------------------------------
    def decode_action(self, raw: object) -> A:
        """An action from JSON builtins; malformed input raises IllegalActionError."""
        try:
            action: A = msgspec.convert(raw, self.action_type)
        except msgspec.ValidationError as exc:
            raise IllegalActionError(
                "malformed {game} action: {problem}", game=self.info.id, problem=str(exc)
            ) from None
        return action

    def decode_state(self, raw: object) -> S:
        try:
            # state_type is a ClassVar, which cannot name S
            state: S = msgspec.convert(raw, self.state_type)  # type: ignore[assignment]
        except msgspec.ValidationError as exc:
            raise ValueError(f"malformed {self.info.id} state: {exc}") from None
        return state


def to_json(value: Any) -> Any:
    """JSON builtins (dicts, lists, str, numbers) for a state, action, event, view or results.

    >>> to_json(Results.from_scores([3, 1]))
    {'scores': [3, 1], 'ranks': [1, 2], 'winners': [0], 'detail': {}}
    """
    return msgspec.json.decode(msgspec.json.encode(value))


AnyGame = Game[msgspec.Struct, msgspec.Struct, msgspec.Struct, Event]
"""A game whose types a front end does not know (the registry's, a server room's):
states, actions and views are structs it hands back to the same game, events are
:class:`Event`. No ``Any`` at the seams."""
