"""A terminal game session: agents for humans, narration, saving and resuming.

Saving never loses a game: every action is written and synced to the record
before it takes effect (:class:`~gamenight.core.record.RecordWriter`). When a
write fails the player is told what is saved and where, and may retry, save
the whole game elsewhere, or stop (and resume later). Ctrl-C asks before a
game without a record is abandoned.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs
from rich.console import Console
from rich.text import Text

from gamenight.cli.players import SeatSpec
from gamenight.core.agents import Agent, Decision
from gamenight.core.dice import DICE_SCHEME
from gamenight.core.errors import IllegalActionError, RecordError, RecordWriteError
from gamenight.core.events import Event
from gamenight.core.frames import Frame
from gamenight.core.game import Results, to_json
from gamenight.core.i18n import _, ngettext, said
from gamenight.core.record import RecordSeat, RecordWriter, resume_record
from gamenight.core.registry import GameEntry
from gamenight.core.runner import Match
from gamenight.core.seeds import commitment, derive, fingerprint
from gamenight.sim.ratings import rate_table_game
from gamenight.terminal import ui_for
from gamenight.terminal.ui import (
    CURTAIN_LINES,
    Prompter,
    Seating,
    TerminalUI,
    UndoRequested,
    can_clear,
    plain,
    scene_of,
)


def standings_title(results: Results, names: Sequence[str], short: bool = False) -> Text:
    """The final board's title, with who won (names are text, never markup). ``short``:
    who won alone, for a titled pane of fixed width (the full screen, where the longer
    title was cut off at 80 columns; the board under it heads its own standings).

    >>> standings_title(Results((3.0, 5.0), (2, 1), (1,)), ["Ann", "[b]Bo"]).plain
    'Final standings: [b]Bo wins'
    >>> standings_title(Results((4.0, 4.0), (1, 1), (0, 1)), ["Ann", "Bo"]).plain
    'Final standings: Ann, Bo share the win'
    >>> standings_title(Results((3.0, 5.0), (2, 1), (1,)), ["Ann", "Bo"], short=True).plain
    'Bo wins'
    >>> standings_title(Results((4.0,), (1,), (0,)), ["Ann"]).plain
    'Final standings'
    """
    winners = [str(names[w]) for w in results.winners if w < len(names)]
    if len(results.scores) < 2 or not winners:
        return Text(_("Final standings"))
    if len(winners) > 1:
        joined = ", ".join(winners)
        said = (
            _("{names} share the win").format(names=joined)
            if short
            else _("Final standings: {names} share the win").format(names=joined)
        )
    elif short:
        said = _("{name} wins").format(name=winners[0])
    else:
        said = _("Final standings: {name} wins").format(name=winners[0])
    return plain(said)


class HumanAgent:
    """A human at this terminal; the game's UI turns keystrokes into actions.

    ``hidden``: another human shares the terminal and the game has secrets, so the
    terminal is handed over between turns with the screen *and* scrollback
    cleared, and secret entries are not echoed (T7). Against bots nothing is
    hidden. When :func:`attach_undo` gave it the match, the human may take back
    their last action with ``u`` (see :meth:`may_undo`).
    """

    label = "human"

    def __init__(self, ui: TerminalUI, prompter: Prompter, table: Seating, hidden: bool) -> None:
        self.ui, self.prompter, self.table, self.hidden = ui, prompter, table, hidden
        self.match: Match | None = None
        self.record_path: Path | None = None

    def act(self, decision: Decision) -> Any:
        seat = decision.seat
        name = self.table.names[seat]
        if self.hidden:
            # Hot seat with secrets: hand over, clear, and clear again afterwards. The
            # screen was cleared after the previous seat acted, so what shows now is
            # public (the start-up text, the set-up, the narration): it stays readable
            # until Enter is pressed (Prompter.hand_over asks first, then clears).
            self.prompter.hand_over(name)
        view, legal = decision.view, decision.legal
        while True:
            self.prompter.board(
                plain(_("{name} to act").format(name=name)),
                self._drawing(view, seat),
                scene_of(self.ui, view, seat),
            )
            prompter = self.prompter
            saved = prompter.hide_secrets, prompter.undo
            prompter.hide_secrets, prompter.undo = self.hidden, self.may_undo(seat)
            if prompter.undo:
                prompter.say(plain(_("u takes back your last move"), "dim"))
            try:
                action = self._ask(prompter, view, legal, seat)
            except UndoRequested:
                view, legal = self._undo(seat, view, legal)
                continue
            finally:
                prompter.hide_secrets, prompter.undo = saved
            break
        if self.hidden:
            self.prompter.conceal()
        return action

    def _drawing(self, view: Any, seat: int) -> Callable[[Console], None]:
        """What draws ``seat``'s board of ``view`` (for :meth:`Prompter.board`)."""

        def draw(console: Console) -> None:
            self.ui.show(console, view, seat, self.table)

        return draw

    def _ask(self, prompter: Prompter, view: Any, legal: Sequence[Any], seat: int) -> Any:
        while True:
            action = self.ui.ask(prompter, view, legal, seat, self.table)
            if action in legal:
                return action
            prompter.error(_("that is not a legal choice here; try again"))

    def may_undo(self, seat: int) -> bool:
        """Undo is offered when every opponent is a bot and the game calls the last
        action, which was this seat's, reversible (no dice thrown, nothing revealed
        since: Game.reversible)."""
        table = None if self.match is None else self.match.table
        return (
            table is not None
            and not self.hidden
            and len(self.table.humans) == 1
            and table.can_undo(seat)
        )

    def _undo(self, seat: int, view: Any, legal: Sequence[Any]) -> tuple[Any, Sequence[Any]]:
        """Take back ``seat``'s last action (table and record); the new view and legal."""
        assert self.match is not None and self.match.table is not None
        table = self.match.table
        writer = self.match.record
        if writer is not None and not writer.forget_last_action(seat):
            self.prompter.error(_("the record cannot forget that move, so it stays"))
            return view, legal
        table.undo(seat)
        self.prompter.say(plain(_("Your last move is taken back."), "bold"))
        snap = table.position(seat)
        return snap.view, snap.legal

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        return None


def attach_undo(match: Match, record_path: Path | None) -> None:
    """Let the match's human agents offer undo (they need its table and record)."""
    for agent in match.agents:
        if isinstance(agent, HumanAgent):
            agent.match, agent.record_path = match, record_path


@dataclass
class Session:
    """One game at this terminal.

    ``seed_public``: the seed was chosen by the player (``--seed``), so the game is
    reproducible and not secret; otherwise only the commitment's fingerprint is
    shown until the end. ``writer``: an already opened record (resume).
    """

    entry: GameEntry
    seats: list[SeatSpec]
    options: dict[str, Any]
    seed: int
    console: Console
    prompter: Prompter
    record_path: Path | None = None
    narrate: bool | None = None  # default: narrate when a human plays
    seed_public: bool = False
    force: bool = False  # --force: an existing record at record_path may be replaced
    writer: RecordWriter | None = None
    title: Text | None = None  # printed first by announce (the game and its seats)
    autosave: bool = True  # keep a record in the saves folder when humans play
    dice_scheme: int = DICE_SCHEME  # a resumed save keeps the dice it began with

    @property
    def commitment(self) -> str:
        game = self.entry.game
        return commitment(
            self.seed,
            game.info.id,
            game.info.rules_version,
            to_json(self.options),
            dice=self.dice_scheme,
        )

    def _narrator(self, ui: TerminalUI, table: Seating) -> Callable[[Frame], None]:
        """The terminal's narrator: a table listener that tells the spectator's events."""

        def narrate(frame: Frame) -> None:
            if frame.events:
                ui.show_events(self.console, list(frame.events), table)

        return narrate

    def build(self, *, append: bool = False) -> Match:
        """The match, its agents and its record (an autosave when humans play).

        ``append``: go on with the record at ``record_path`` (resume).
        """
        game = self.entry.game
        ui: TerminalUI = ui_for(self.entry)
        humans = frozenset(i for i, s in enumerate(self.seats) if s.bot is None)
        table = Seating([s.name for s in self.seats], humans)
        hidden = bool(game.info.hidden_info) and len(humans) > 1
        agents: list[Agent] = []
        for index, seat in enumerate(self.seats):
            if seat.bot is None:
                agents.append(HumanAgent(ui, self.prompter, table, hidden))
            else:
                agents.append(self.entry.make_bot(seat.bot, derive(self.seed, "bot", index)))
        if self.writer is None:
            self.writer = self._open_record(bool(humans), append)
        try:
            return self._build_match(agents, ui, table, bool(humans))
        except BaseException:  # nothing played: leave no empty "unfinished" save behind
            self.discard_empty()
            raise

    def _build_match(
        self, agents: list[Agent], ui: TerminalUI, table: Seating, humans: bool
    ) -> Match:
        game = self.entry.game
        if self.writer is not None:
            self.record_path = self.writer.path or self.record_path
            self.writer.on_failure = self._write_failed
            self.writer.seed_chosen = self.seed_public
        seat_infos = [RecordSeat(s.name, s.agent) for s in self.seats]
        match = Match(
            game,
            self.options,
            self.seed,
            seat_infos,
            agents,
            record=self.writer,
            dice_scheme=self.dice_scheme,
        )
        attach_undo(match, self.record_path)
        narrate = humans if self.narrate is None else self.narrate
        if narrate:
            match.observers.append(self._narrator(ui, table))
        self._ui, self._table = ui, table
        self.announce()
        return match

    def announce(self) -> None:
        """Say how the dice are fixed: the commitment's fingerprint (the seed stays
        secret until the end) or, for a chosen seed, that the game is not secret."""
        if self.title is not None:
            self.console.print(self.title)
        hidden = bool(self.entry.game.info.hidden_info)
        if hidden and sum(s.bot is None for s in self.seats) > 1 and not can_clear(self.console):
            self.console.print(
                Text(
                    _(
                        "This terminal cannot clear its screen (TERM=dumb): each hand-over prints "
                        "{n} blank lines instead, and earlier turns stay in the "
                        "scrollback. Do not scroll back; for real secrecy use a terminal that "
                        "clears (or the browser)."
                    ).format(n=CURTAIN_LINES),
                    style="bold",
                )
            )
        if self.seed_public:
            self.console.print(
                Text(
                    _(
                        "Seed {seed} was chosen with --seed: this game is reproducible, not secret."
                    ).format(seed=self.seed),
                    style="dim",
                )
            )
        else:
            self.console.print(
                Text(
                    _(
                        "Dice fixed before play: commitment {fingerprint} "
                        "(the seed is revealed at the end)."
                    ).format(fingerprint=fingerprint(self.commitment)),
                    style="dim",
                )
            )

    def reveal(self) -> None:
        """At the end: the seed and the full commitment, so anyone can check them."""
        lines = [
            _("Seed: {seed}").format(seed=self.seed),
            _("Commitment (sha256): {commitment}").format(commitment=self.commitment),
        ]
        if not self.seed_public:
            lines[0] = _("Seed revealed: {seed}").format(seed=self.seed)
            shown = fingerprint(self.commitment)
            lines.append(
                _("It begins with {fingerprint}, the fingerprint shown at the start.").format(
                    fingerprint=shown
                )
            )
        if self.record_path is not None:
            lines.append(
                _("Check every die: gamenight replay {path}").format(path=self.record_path)
            )
            if self.entry.game.info.reviewer is not None:  # issue 42: the review is offered
                lines.append(
                    _("See what each decision cost: gamenight review {path}").format(
                        path=self.record_path
                    )
                )
        for line in lines:
            self.console.print(Text(line), soft_wrap=True)  # one line: easy to copy

    def finish(self, match: Match) -> Results:
        """Play ``match`` to the end, show the standings and reveal the seed."""
        try:
            if match.state is None:
                match.begin()
            results = match.run()
        finally:  # a game that stops here stays saved; the record is free to resume
            if self.writer is not None:
                self.writer.close()
            self.discard_empty()  # ...unless nothing at all was saved (a crash at once)
        state = match.state
        assert state is not None  # run() played the game to its end
        view = match.game.view(state, None)

        def draw(console: Console) -> None:
            self._ui.show_results(console, results, view, self._table)

        # the winner in the board's title: in view at any size (at 80x24 the standings'
        # own winner line was below the fold)
        title = standings_title(results, self._table.names, short=self.prompter.panes)
        self.prompter.board(title, draw, scene_of(self._ui, view, None))
        self.reveal()
        rate_table_game(  # humans vs bots: ratings (a damaged store never costs the ending)
            self.entry.id, self.seats, results.ranks, say=lambda line: self.prompter.error(line)
        )
        return results

    def play(self, match: Match) -> Results | None:
        """:meth:`finish`, but Ctrl-C (or the end of input) never loses the game
        silently: with a record it says where it is saved and how to resume;
        without one it asks before abandoning. ``None``: the game was left."""
        while True:
            try:
                return self.finish(match)
            except Suspended:
                self.say_saved(match)
                return None
            except (KeyboardInterrupt, EOFError):
                self.console.print()
                if self.writer is not None:
                    self.say_saved(match)
                    return None
                try:
                    answer = self.prompter.ask(_("Abandon this game? [y/N] "))
                except (KeyboardInterrupt, EOFError):
                    self.console.print()  # after the ^C, on a line of its own
                    answer = "y"
                if is_yes(answer):
                    self.console.print(_("Game abandoned (no record was kept)."))
                    return None

    def discard_empty(self) -> None:
        """Close the record and remove it if not one line reached it (an empty file
        would be listed as an unfinished game that cannot be resumed)."""
        writer = self.writer
        if writer is None or writer.path is None or writer.lines_saved:
            return
        writer.close()
        with contextlib.suppress(OSError):
            if writer.path.stat().st_size == 0:
                writer.path.unlink()
                self.writer = None

    def say_saved(self, match: Match) -> None:
        """Where the game is saved (only what was synced) and how to go on."""
        writer = self.writer
        if writer is not None:
            writer.close()
        if writer is None or writer.path is None or writer.lines_saved == 0:
            self.discard_empty()
            self.console.print(_("The game was not saved."))
            return
        n = writer.actions_saved
        self.console.print(
            Text(
                ngettext(
                    "Game saved after {n} action in {path}",
                    "Game saved after {n} actions in {path}",
                    n,
                ).format(n=n, path=writer.path)
                + "\n"
                + _("Resume it with: gamenight resume {path}").format(path=writer.path)
            ),
            soft_wrap=True,
        )

    # ----- the record -------------------------------------------------------------
    def _open_record(self, humans: bool, append: bool) -> RecordWriter | None:
        game = self.entry.game
        if append and self.record_path is not None:
            return resume_record(self.record_path).writer
        if self.record_path is not None:  # --record FILE: its errors are the user's to see
            return RecordWriter.create(self.record_path, force=self.force)
        if not humans or not self.autosave:
            return None
        # The autosave, for every game. For The Decades it holds the secrets (the seed
        # and every answer): a player would have to open it on purpose to peek, like
        # a physical deck, and a lost game is worse (docs/fairness.md, T7).
        folder = saves_folder()
        try:
            return RecordWriter.create(autosave_path(game.info.id))
        except (OSError, RecordError) as exc:
            reason = getattr(exc, "strerror", None) or said(exc)
            self.console.print(
                Text(
                    _("Cannot save games in {folder}: {reason}").format(
                        folder=folder, reason=reason
                    )
                )
            )
        try:
            answer = self.prompter.ask(
                _("Play without saving? [y/N] (or quit and use --record FILE) ")
            )
        except (KeyboardInterrupt, EOFError):
            answer = ""
        if is_yes(answer):
            return None
        raise SaveDeclinedError("no place to save this game; play with --record FILE to choose one")

    def _write_failed(self, writer: RecordWriter, error: RecordWriteError) -> None:
        """A record line could not be saved: say what is safe, then retry, save the
        whole game elsewhere, or stop (raising :class:`Suspended`)."""
        say = self.console.print
        say(Text(f"✗ {said(error)}", style="bold red"))
        if writer.lines_saved:
            say(
                Text(
                    ngettext(
                        "Saved so far: {n} action in {path} "
                        "(resume them with: gamenight resume {path}). "
                        "The game is still here; nothing is lost yet.",
                        "Saved so far: {n} actions in {path} "
                        "(resume them with: gamenight resume {path}). "
                        "The game is still here; nothing is lost yet.",
                        writer.actions_saved,
                    ).format(n=writer.actions_saved, path=writer.path)
                )
            )
        while True:
            try:
                choice = self.prompter.ask(_("Retry (r), save elsewhere (s) or stop (q)? "))
            except (KeyboardInterrupt, EOFError):
                choice = "q"
            choice = choice.strip().lower()[:1]
            if choice == "r":
                return
            if choice == "q":
                raise Suspended
            if choice == "s":
                try:
                    where = self.prompter.ask(_("Save the game to which file? ")).strip()
                except (KeyboardInterrupt, EOFError):
                    continue
                if not where:
                    continue
                target = Path(where).expanduser()
                if target.exists() or target.is_symlink():  # no --force can be given here
                    say(
                        Text(
                            "✗ "
                            + _("{path} already exists; give the name of a new file").format(
                                path=target
                            )
                        )
                    )
                    continue
                try:
                    writer.relocate(target)
                except (RecordError, RecordWriteError) as exc:
                    say(Text(f"✗ {said(exc)}", style="bold red"))
                    continue
                self.record_path = writer.path
                say(
                    Text(
                        _("The whole game so far is saved in {path}; going on there.").format(
                            path=writer.path
                        )
                    )
                )
                return
            say(Text(_("Type r, s or q.")))


def is_yes(answer: str) -> bool:
    """Whether ``answer`` says yes: y/yes, or the player's language's word for it."""
    word = answer.strip().lower()
    return word in {"y", "yes", _("y"), _("yes")}


class SaveDeclinedError(RecordWriteError):
    """No save could be made and the player would not play without one."""


class Suspended(Exception):
    """The player stopped the game after a failed save (it stays saved up to there)."""


def saves_folder() -> Path:
    """Where autosaves live (the user data folder)."""
    return Path(platformdirs.user_data_dir("gamenight")) / "saves"


def autosave_path(game_id: str) -> Path:
    """A fresh autosave file name; raises OSError if the folder cannot be made."""
    folder = saves_folder()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    for n in itertools.count():
        path = folder / f"{game_id}-{stamp}{'-' + str(n) if n else ''}.jsonl"
        if not path.exists():
            return path
    raise AssertionError("unreachable")


def restore(match: Match, actions: Sequence[tuple[int, Any]]) -> None:
    """Re-apply already recorded actions (for resume), without re-recording them."""
    try:
        decoded = [(seat, match.game.decode_action(raw)) for seat, raw in actions]
        match.begin(replayed=decoded)
    except IllegalActionError as exc:  # pragma: no cover - replay checked first
        raise IllegalActionError("cannot resume: {problem}", problem=str(exc)) from None
