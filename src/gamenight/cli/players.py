"""Parsing the ``--players`` list: who sits at each seat.

Syntax: seats separated by commas. A seat is ``[Label:]who`` where ``who`` is
``bot:NAME`` or one or more human names joined by ``+``.

>>> [s.describe() for s in parse_players("Ann,bot:greedy", ["greedy", "random"])]
['Ann (human)', 'Greedy 2 (bot:greedy)']
>>> [s.describe() for s in parse_players("Red:Ann+Bob,Blue:bot:expert", ["expert"])]
['Red (human: Ann+Bob)', 'Blue (bot:expert)']

Labels and ``+`` name a team's players, so games without teams refuse them:

>>> parse_players("Ann:Bob", ["greedy"], teams=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gamenight.core.errors.OptionsError: --players: 'Ann:Bob' names a team, and this game has no ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamenight.core.errors import OptionsError
from gamenight.core.game import GameInfo
from gamenight.core.i18n import _, ngettext
from gamenight.core.text import MAX_NAME_CHARS, TextError, check_text, clip, name_key


@dataclass(frozen=True)
class SeatSpec:
    name: str
    bot: str | None = None  # None: humans
    members: tuple[str, ...] = ()

    @property
    def agent(self) -> str:
        return f"bot:{self.bot}" if self.bot else "human"

    def describe(self) -> str:
        if self.bot:
            return f"{self.name} (bot:{self.bot})"
        if self.members and self.members != (self.name,):
            return _("{name} (human: {members})").format(
                name=self.name, members="+".join(self.members)
            )
        return _("{name} (human)").format(name=self.name)


def seats_text(info: GameInfo) -> str:
    """How many seats a game takes, in words.

    >>> from gamenight.core import registry
    >>> [seats_text(registry.get(g).game.info) for g in ("decades", "decathlon")]
    ['2 teams', '1-8 players']
    """
    lo, hi = info.min_players, info.max_players
    span = str(lo) if lo == hi else f"{lo}-{hi}"
    if info.seat_noun == "team":
        return ngettext("{span} team", "{span} teams", hi).format(span=span)
    if info.seat_noun == "player":
        return ngettext("{span} player", "{span} players", hi).format(span=span)
    return f"{span} {info.seat_noun}{'' if hi == 1 else 's'}"


def is_team_game(info: GameInfo) -> bool:
    """Whether a seat may hold several humans (``Label:Ann+Bob``)."""
    return info.seat_noun == "team"


def parse_players(spec: str, bots: Sequence[str], *, teams: bool = True) -> list[SeatSpec]:
    """Parse a players list; raises :class:`OptionsError` naming the bad entry.

    ``teams=False`` (a game without teams, see :func:`is_team_game`) refuses a
    label on a human seat and several humans at one seat.
    """
    entries = [part.strip() for part in spec.split(",")]
    if not spec.strip() or any(not e for e in entries):
        raise OptionsError(
            "--players: empty seat in {spec} (example: 'Ann,bot:greedy')", spec=clip(spec)
        )
    seats = [_seat(entry, index, bots) for index, entry in enumerate(entries, start=1)]
    if not teams:
        for entry, seat in zip(entries, seats, strict=True):
            if seat.bot is None and seat.members != (seat.name,):
                example = seat.members[-1]
                raise OptionsError(
                    "--players: {entry} names a team, and this game has no teams "
                    "(write one name per seat, e.g. {example})",
                    entry=clip(entry),
                    example=clip(example),
                )
    # Names that look the same are one name (case, NFKC, invisible characters: name_key)
    seen: set[str] = set()
    for seat in seats:
        key = name_key(seat.name)
        if key not in seen:
            seen.add(key)
        else:
            raise OptionsError(
                "--players: two seats are named {name} (or names that look the "
                "same); give them distinct names",
                name=clip(seat.name),
            )
    return seats


def _seat(entry: str, index: int, bots: Sequence[str]) -> SeatSpec:
    label: str | None = None
    who = entry
    head, sep, rest = entry.partition(":")
    if sep and head.strip().lower() != "bot":
        label, who = head.strip(), rest.strip()
        if not label or not who:
            raise OptionsError(
                "--players: cannot read seat {entry} (use Label:who)", entry=clip(entry)
            )
    head, sep, rest = who.partition(":")
    if sep and head.strip().lower() == "bot":
        bot = rest.strip().lower()
        if bot not in bots:
            raise OptionsError(
                "--players: unknown bot {bot} (this game has: {bots})",
                bot=clip(rest.strip()),
                bots=", ".join(bots),
            )
        return SeatSpec(label or f"{bot.replace('-', ' ').capitalize()} {index}", bot=bot)
    members = tuple(m.strip() for m in who.split("+"))
    if any(not m or ":" in m for m in members):
        raise OptionsError("--players: cannot read seat {entry}", entry=clip(entry))
    for text in (label, *members):
        if text is not None:
            _check_name(text)
    return SeatSpec(label or "+".join(members), members=members)


def _check_name(text: str) -> None:
    """The one policy for user text (:mod:`gamenight.core.text`), as the server's names."""
    try:
        check_text(text, what="a name", limit=MAX_NAME_CHARS)
    except TextError as exc:
        raise OptionsError("--players: {problem}", problem=exc) from None
    if not name_key(text).strip():
        raise OptionsError("--players: a name needs a visible character")
