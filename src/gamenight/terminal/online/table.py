"""An online room played at this terminal: the frames of the room's socket drawn by
the game's own :class:`~gamenight.terminal.ui.TerminalUI`, the seat's moves sent back.

The same code runs in the line mode and on the full screen: it only talks to a
:class:`~gamenight.terminal.ui.Prompter` and its console (the full screen's run it in
the app's worker thread). Nothing here decides a rule: the server's ``legal`` list is
what may be played, the server's ``view`` is what this seat may know. Views, actions
and events are decoded with the game's own msgspec types (docs/schemas/<game>.json),
so a game's terminal UI draws an online room exactly as a local one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from rich.console import Console
from rich.text import Text

from gamenight.core.advice import Advice
from gamenight.core.game import Results, to_json
from gamenight.core.i18n import _, ngettext
from gamenight.core.odds import Odds
from gamenight.core.registry import GameEntry
from gamenight.core.schema import view_type
from gamenight.core.seeds import fingerprint
from gamenight.terminal import ui_for
from gamenight.terminal.advice import show_advice
from gamenight.terminal.odds import assumption, odds_cells
from gamenight.terminal.online import OnlineError, seats
from gamenight.terminal.online.api import Api
from gamenight.terminal.online.fair import check, header_of
from gamenight.terminal.online.link import Link
from gamenight.terminal.ui import Prompter, Seating, TerminalUI, plain

CHAT_PREFIX = "/"  # a line beginning so is said to the table: no game's keys begin with it
MAX_CHAT = 300  # code points in a chat line (docs/protocol.md, "Text: names and chat")
MAX_CATCH_UP = 40  # events told again after a reload; earlier ones are counted only
POLL_S = 0.5  # how often a waiting table looks whether the player is leaving


class Left(Exception):
    """The player left the table (Ctrl-C on the full screen while others act)."""


class OnlineTable:
    """One seat (``saved``) of the room ``code`` on ``api``'s server, played through
    ``prompter``. :meth:`play` returns when the game is over (or raises when the player
    leaves: the seat stays theirs, ``gamenight join`` takes it back)."""

    def __init__(
        self,
        entry: GameEntry,
        api: Api,
        link: Link,
        saved: seats.SavedSeat,
        console: Console,
        prompter: Prompter,
    ) -> None:
        self.entry, self.api, self.link, self.saved = entry, api, link, saved
        self.console, self.prompter = console, prompter
        self.game = entry.game
        self.ui: TerminalUI = ui_for(entry)
        self.seat: int | None = saved.seat
        self.room: dict[str, Any] = {}
        self.seq = -1
        self.view: Any = None
        self.legal: list[Any] = []
        self.to_act: tuple[int, ...] = ()
        self.finished = False
        self.results: Results | None = None
        self.pending: int | None = None  # the id of an act not yet answered
        self.status = ""
        self.checked: bool | None = None  # the fair-dice check's verdict, once made
        self.announced = False
        self._view_type = view_type(self.game)
        # this terminal is this seat's alone: nobody shares it, nothing is typed unseen
        prompter.hide_secrets = False
        prompter.table_line = self.chat
        self.own_chat: set[int] = set()  # ids of this seat's chat lines, shown when sent
        self._hints()

    # ----- what the room allows ---------------------------------------------------------
    def _hints(self) -> None:
        """A game UI's own hint is replaced: in an online room a hint is the server's
        (``hint`` → ``advice``), and only where the room offers hints (docs/protocol.md,
        "Hints"); elsewhere ``?`` shows the keys alone."""
        if hasattr(self.ui, "hint"):
            setattr(self.ui, "hint", self._server_hint)  # noqa: B010 - any game's UI

    def _server_hint(self, view: Any, legal: Sequence[Any]) -> None:
        options = self.room.get("room_options") or {}
        if not options.get("hints"):
            self.console.print(Text(_("This room offers no hints."), style="dim"))
            return None
        answer = self.link.request({"type": "hint"}, frozenset({"advice"}))
        if answer is None or answer.get("type") == "error":
            message = None if answer is None else answer.get("message")
            self.console.print(
                Text(str(message or _("No hint came from the server.")), style="dim")
            )
            return None
        try:
            advice = msgspec.convert(answer.get("advice"), Advice)
        except msgspec.ValidationError:
            return None
        show_advice(self.console, advice)
        return None

    # ----- who sits where ---------------------------------------------------------------
    def seating(self) -> Seating:
        names: list[str] = []
        humans: set[int] = set()
        for i, s in enumerate(self.room.get("seats") or []):
            name = str(s.get("name") or s.get("bot") or _("seat {n}").format(n=i + 1))
            names.append(name)
            if s.get("kind") == "human":
                humans.add(i)
        return Seating(names, frozenset(humans))

    # ----- frames ----------------------------------------------------------------------
    def handle(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "snapshot":
            self._snapshot(frame)
        elif kind == "events":
            self._update(frame)
            self._narrate(frame.get("events") or [], stamped=False)
        elif kind == "ack":
            if frame.get("id") == self.pending:
                self.pending = None
        elif kind == "error":
            self._error(frame)
        elif kind == "room":
            self._room(frame.get("room") or {})
        elif kind == "chat":
            if frame.get("id") in self.own_chat:  # this seat's own line: shown when sent
                self.own_chat.discard(frame["id"])
                return
            self._say(str(frame.get("name") or ""), str(frame.get("text", "")))
        elif kind == "odds":
            self._odds(frame.get("odds"))

    def chat(self, line: str) -> bool:
        """A line typed at any question that begins with ``/`` is said to the table
        (the room's ``chat``), not taken as an answer; True if it was one. Its text is
        checked as the server checks it (1 to 300 characters); the server's refusal
        (``chat_invalid``, too many lines) comes back as an error line."""
        if not line.startswith(CHAT_PREFIX):
            return False
        text = line[len(CHAT_PREFIX) :].strip()
        if not text:
            self.prompter.error(_("type your message after /, like this: /good luck"))
        elif len(text) > MAX_CHAT:
            self.prompter.error(_("a chat line has at most {n} characters").format(n=MAX_CHAT))
        else:
            self.own_chat.add(self.link.send({"type": "chat", "text": text}))
            me = self.seating().names[self.seat] if self.seat is not None else ""
            self._say(me, text)
        return True

    def _say(self, who: str, text: str) -> None:
        """A chat line, plain text (never markup, never control codes: ``plain``)."""
        self.console.print(Text.assemble(plain(who, "bold"), ": ", plain(text)))

    def _snapshot(self, frame: dict[str, Any]) -> None:
        self.pending = None  # a new connection: what was in flight is in the snapshot or not
        self.seat = frame.get("seat")
        self._room(frame.get("room") or {}, quiet=frame.get("view") is not None)
        if not self.announced:
            self.announce()
            self.announced = True
        self._update(frame)
        self._narrate(frame.get("events") or [], stamped=True)
        if frame.get("odds"):
            self._odds(frame["odds"].get("odds"))

    def _update(self, frame: dict[str, Any]) -> None:
        seq = frame.get("seq")
        if isinstance(seq, int):
            self.seq = seq
        raw_view = frame.get("view")
        try:
            self.view = None if raw_view is None else msgspec.convert(raw_view, self._view_type)
            self.legal = [self.game.decode_action(a) for a in frame.get("legal") or []]
            if frame.get("results") is not None:
                self.results = msgspec.convert(frame["results"], Results)
        except (msgspec.ValidationError, ValueError) as exc:
            raise OnlineError(
                _("the server's {game} is not this installation's: {problem}").format(
                    game=self.game.info.id, problem=str(exc).splitlines()[0][:200]
                )
            ) from None
        self.to_act = tuple(frame.get("to_act") or ())
        self.finished = bool(frame.get("finished"))

    def _narrate(self, stamped_events: list[Any], *, stamped: bool) -> None:
        raw = [e.get("event") for e in stamped_events] if stamped else list(stamped_events)
        if len(raw) > MAX_CATCH_UP:
            self.console.print(
                Text(
                    _("({n} earlier events not shown)").format(n=len(raw) - MAX_CATCH_UP),
                    style="dim",
                )
            )
            raw = raw[-MAX_CATCH_UP:]
        events = []
        for item in raw:
            with contextlib.suppress(msgspec.ValidationError):  # an unknown kind: not told
                events.append(msgspec.convert(item, self.game.event_type))
        if events:
            self.ui.show_events(self.console, events, self.seating())

    def _error(self, frame: dict[str, Any]) -> None:
        if frame.get("id") is not None and frame.get("id") == self.pending:
            self.pending = None
        if frame.get("code") == "stale":
            return  # the position moved on: its events are here or coming; ask again
        message = " ".join(str(frame.get("message") or frame.get("code")).split())
        self.prompter.error(message)

    def _room(self, room: dict[str, Any], *, quiet: bool = False) -> None:
        if not room:
            return
        self.room = room
        status = str(room.get("status", ""))
        changed, self.status = status != self.status, status
        if status == "waiting" and not quiet:
            waiting = [
                str(s.get("name") or _("seat {n}").format(n=i + 1))
                for i, s in enumerate(room.get("seats") or [])
                if s.get("kind") == "human" and not (s.get("claimed") and s.get("contributed"))
            ]
            line = ngettext(
                "Waiting for players: {count} seat still to be taken.",
                "Waiting for players: {count} seats still to be taken.",
                len(waiting),
            ).format(count=len(waiting))
            self.console.print(Text(line, style="dim"))
        elif changed and status in ("closed", "broken"):
            raise OnlineError(
                _("the room {code} is {status}: {notes}").format(
                    code=room.get("code", ""),
                    status=status,
                    notes=" ".join(room.get("notes") or []),
                )
            )

    def _odds(self, raw: Any) -> None:
        if not raw or not (self.room.get("room_options") or {}).get("odds"):
            return
        try:
            odds = msgspec.convert(raw, Odds)
        except msgspec.ValidationError:
            return
        self.console.print(
            Text(
                _("Win odds: {cells}").format(cells=odds_cells(odds, self.seating().names)),
                style="dim",
            )
        )

    # ----- playing ---------------------------------------------------------------------
    def announce(self) -> None:
        """The game, the seat and the commitment noted at first sight."""
        table = self.seating()
        me = "" if self.seat is None else table.names[self.seat]
        self.console.print(
            Text.assemble(
                (self.entry.name, "bold"),
                " · ",
                plain(_("room {code}").format(code=self.saved.code)),
                " · ",
                plain(_("you are {name}").format(name=me) if me else _("watching")),
            )
        )
        if self.saved.commitment:
            self.console.print(
                Text(
                    _(
                        "Dice fixed before play: commitment {fingerprint} (the seed is revealed "
                        "at the end); your own contribution is part of the dice."
                    ).format(fingerprint=fingerprint(self.saved.commitment)),
                    style="dim",
                )
            )
        if (self.room.get("room_options") or {}).get("odds"):
            self.console.print(Text(assumption(), style="dim"))
        if self.seat is not None:
            self.console.print(
                Text(_("To chat, type / and your message at any question."), style="dim")
            )

    def my_turn(self) -> bool:
        return (
            not self.finished
            and self.seat is not None
            and self.seat in self.to_act
            and self.view is not None
            and self.pending is None
            and bool(self.legal)
        )

    def act(self) -> None:
        """Ask this seat's move with the game's own keys and send it for the seq shown."""
        seat = self.seat
        assert seat is not None
        table = self.seating()
        view, legal = self.view, self.legal

        def draw(console: Console) -> None:
            self.ui.show(console, view, seat, table)

        self.prompter.board(plain(_("{name} to act").format(name=table.names[seat])), draw)
        while True:
            action = self.ui.ask(self.prompter, view, legal, seat, table)
            if action in legal:
                break
            self.prompter.error(_("that is not a legal choice here; try again"))
        self.pending = self.link.send(
            {"type": "act", "action": to_json(action), "expected_seq": self.seq}
        )

    def play(self, leaving: Callable[[], bool] = lambda: False) -> None:
        """Until the game is over: take each frame, and act when it is this seat's turn
        and nothing newer is waiting."""
        while not self.finished:
            frame = self.link.receive(timeout=POLL_S)
            if frame is None:
                if leaving():
                    raise Left
                continue
            self.handle(frame)
            if self.my_turn() and not self.link.pending():
                self.act()
        self.end()

    # ----- the end ---------------------------------------------------------------------
    def end(self) -> None:
        """The standings, then the fair-dice check (the seat's own, as the browser's)."""
        table = self.seating()
        if self.results is not None and self.view is not None:
            results, view = self.results, self.view

            def draw(console: Console) -> None:
                self.ui.show_results(console, results, view, table)

            self.prompter.board(Text(_("Final standings")), draw)
        self.check_dice()

    def check_dice(self) -> None:
        """Fetch the record and check it; say the verdict, keep a copy to replay."""
        try:
            record = self.api.record(self.saved.code)
        except OnlineError as exc:
            self.prompter.error(
                _("The record could not be fetched, so the dice were not checked: {reason}").format(
                    reason=str(exc)
                )
            )
            self.checked = False
            return
        mine = None
        if self.seat is not None and self.saved.contribution is not None:
            mine = (self.seat, self.saved.contribution)
        found = check(record, self.saved.commitment, mine)
        with contextlib.suppress(ValueError, KeyError, TypeError):
            head = header_of(record)
            for line in (
                _("Seed revealed: {seed}").format(seed=int(str(head["seed"]))),
                _("Commitment (sha256): {commitment}").format(commitment=str(head["commitment"])),
            ):
                self.console.print(Text(line), soft_wrap=True)  # one line: easy to copy
        self.checked = found.ok
        verdict = _("Fair dice: checked.") if found.ok else _("Fair dice: the check FAILED.")
        self.console.print(Text(verdict, style="bold green" if found.ok else "bold red"))
        for line in found.lines:
            self.console.print(Text("  " + line))
        path = keep_record(self.saved, record)
        if path is not None:
            self.console.print(
                Text(_("Check every die: gamenight replay {path}").format(path=path)),
                soft_wrap=True,
            )


def keep_record(saved: seats.SavedSeat, record: str) -> str | None:
    """The finished room's record in the saves folder's ``online`` folder (its path), so
    ``gamenight replay`` can check every die; None if it cannot be written."""
    folder = seats.folder() / "online"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{saved.game or 'game'}-{saved.code}.jsonl"
        path.write_text(record if record.endswith("\n") else record + "\n", encoding="utf-8")
    except OSError:
        return None
    return str(path)
