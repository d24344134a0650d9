"""Declarative game options with validation and clear errors.

A game declares its options as :class:`OptionSpec` values. Raw values may come
from the command line (strings) or from a record (JSON values); both normalise
to the same JSON value, so records stay canonical.

>>> spec = OptionSpec("variant", "choice", "scoring", default="points",
...                   choices=("points", "championship"))
>>> spec.parse("championship")
'championship'
>>> spec.parse("golf")
Traceback (most recent call last):
...
gamenight.core.errors.OptionsError: option 'variant': 'golf' is not one of points, championship
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from gamenight.core.errors import OptionsError

OptionKind = Literal["choice", "multi", "int", "str", "bool", "per-seat"]
Options = dict[str, Any]


class OptionSpec:
    """One option: its name, kind, help text, default and allowed values.

    ``multi`` options take a comma-separated string or a list of choices; the
    result keeps the order of ``choices`` and drops duplicates.

    ``per-seat`` options are one of ``choices`` for each seat, in seat order, written
    comma-separated (The Decades' board ``sides``: ``"A,B"``); the value stays that text,
    each part spelt as in ``choices`` (case aside). A front end offers one choice per
    entry of the default, so it renders them without knowing the game; how many a game
    takes it checks itself (``Game.check_options``).

    >>> OptionSpec("sides", "per-seat", "a side per team", "A,B", ("A", "B")).parse("b, a")
    'B,A'

    ``seats`` (choice options) gives the seat counts ``(lowest, highest)`` a choice
    allows when it narrows the game's own range (a solo mode: ``{"solo": (1, 1)}``);
    :meth:`gamenight.core.game.Game.seat_range` combines them, and front ends offer
    only those counts.

    A frozen value as a frozen dataclass would be (fields, equality, hash, repr,
    ``match``), written out: ``gamenight --help`` and every command import this
    module, and a frozen dataclass, with the dataclasses module, costs ~1% of ``solve
    decathlon --json`` (issue 29), a msgspec Struct the msgspec import ``--help``
    does without.

    >>> spec = OptionSpec("events", "multi", "events to solve", choices=("100m",))
    >>> spec
    OptionSpec(name='events', kind='multi', help='events to solve', default=None, \
choices=('100m',), minimum=None, maximum=None, aliases={}, seats={})
    >>> spec == OptionSpec("events", "multi", "events to solve", choices=("100m",))
    True
    >>> spec.name = "x"
    Traceback (most recent call last):
    AttributeError: cannot assign to field 'name'
    """

    __match_args__ = (
        *("name", "kind", "help", "default", "choices"),
        *("minimum", "maximum", "aliases", "seats"),
    )
    __slots__ = __match_args__

    name: str
    kind: OptionKind
    help: str
    default: Any
    choices: tuple[str, ...]
    minimum: int | None
    maximum: int | None
    aliases: Mapping[str, str]
    seats: Mapping[str, tuple[int, int]]

    def __init__(
        self,
        name: str,
        kind: OptionKind,
        help: str,
        default: Any = None,
        choices: tuple[str, ...] = (),
        minimum: int | None = None,
        maximum: int | None = None,
        aliases: Mapping[str, str] | None = None,  # None: a new {}
        seats: Mapping[str, tuple[int, int]] | None = None,  # None: a new {}
    ) -> None:
        aliases = {} if aliases is None else aliases
        seats = {} if seats is None else seats
        values = (name, kind, help, default, choices, minimum, maximum, aliases, seats)
        for field, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, field, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, field) for field in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[OptionSpec], tuple[Any, ...]]:
        return (type(self), self._values())  # pickle and copy rebuild it by __init__

    def parse(self, raw: object) -> Any:
        """Normalise ``raw`` or raise :class:`OptionsError` naming the problem."""
        where = self.name
        if self.kind == "choice":
            return self._choice(raw, where)
        if self.kind == "multi":
            return self._multi(raw, where)
        if self.kind == "per-seat":
            return self._per_seat(raw, where)
        if self.kind == "int":
            return self._int(raw, where)
        if self.kind == "bool":
            return self._bool(raw, where)
        return self._text(raw, where)

    def _multi(self, raw: object, where: str) -> list[str]:
        items: Sequence[object]
        if isinstance(raw, str):
            items = [part.strip() for part in raw.split(",") if part.strip()]
        elif isinstance(raw, list | tuple):
            items = list(raw)
        else:
            raise OptionsError(
                "option '{option}': expected a comma-separated list, got {raw}",
                option=where,
                raw=repr(raw),
            )
        if not items:
            raise OptionsError(
                "option '{option}': choose at least one of {choices}",
                option=where,
                choices=", ".join(self.choices),
            )
        picked = {self._choice(item, where) for item in items}
        return [c for c in self.choices if c in picked]

    def _int(self, raw: object, where: str) -> int:
        value: int
        if isinstance(raw, bool):
            raise OptionsError(
                "option '{option}': expected a whole number, got {raw}",
                option=where,
                raw=repr(raw),
            )
        if isinstance(raw, int):
            value = raw
        elif isinstance(raw, str) and re.fullmatch(r"-?[0-9]+", raw.strip()):
            value = int(raw.strip())
        else:
            raise OptionsError(
                "option '{option}': expected a whole number, got {raw}",
                option=where,
                raw=repr(raw),
            )
        if self.minimum is not None and value < self.minimum:
            raise OptionsError(
                "option '{option}': {value} is below the minimum {minimum}",
                option=where,
                value=value,
                minimum=self.minimum,
            )
        if self.maximum is not None and value > self.maximum:
            raise OptionsError(
                "option '{option}': {value} is above the maximum {maximum}",
                option=where,
                value=value,
                maximum=self.maximum,
            )
        return value

    def _bool(self, raw: object, where: str) -> bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in {"1", "yes", "true", "on"}:
            return True
        if text in {"0", "no", "false", "off"}:
            return False
        raise OptionsError(
            "option '{option}': expected yes or no, got {raw}", option=where, raw=repr(raw)
        )

    @staticmethod
    def _text(raw: object, where: str) -> str:
        if not isinstance(raw, str):
            raise OptionsError(
                "option '{option}': expected text, got {raw}", option=where, raw=repr(raw)
            )
        return raw

    def _per_seat(self, raw: object, where: str) -> str:
        """A ``per-seat`` value: each comma-separated part one of ``choices`` (case aside)."""
        parts = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(parts, list | tuple) or not parts:
            raise OptionsError(
                "option '{option}': expected one of {choices}, got {raw}",
                option=where,
                choices=", ".join(self.choices),
                raw=repr(raw),
            )
        spelt = {c.lower(): c for c in self.choices}
        seats: list[str] = []
        for part in parts:
            key = part.strip().lower() if isinstance(part, str) else part
            if key not in spelt:
                raise OptionsError(
                    "option '{option}': {raw} is not one of {choices}",
                    option=where,
                    raw=repr(part),
                    choices=", ".join(self.choices),
                )
            seats.append(spelt[key])
        return ",".join(seats)

    def _choice(self, raw: object, where: str) -> str:
        if not isinstance(raw, str):
            raise OptionsError(
                "option '{option}': expected one of {choices}, got {raw}",
                option=where,
                choices=", ".join(self.choices),
                raw=repr(raw),
            )
        key = raw.strip().lower()
        key = self.aliases.get(key, key)
        if key not in self.choices:
            raise OptionsError(
                "option '{option}': {raw} is not one of {choices}",
                option=where,
                raw=repr(raw),
                choices=", ".join(self.choices),
            )
        return key


def parse_options(specs: Sequence[OptionSpec], raw: Mapping[str, object], game: str) -> Options:
    """Validate ``raw`` against ``specs`` and fill in defaults.

    Unknown option names are refused, naming the options the game does have.
    """
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(raw) - set(by_name))
    if unknown:
        if not by_name:
            raise OptionsError(
                "{game} has no option '{option}' (its options: none)", game=game, option=unknown[0]
            )
        raise OptionsError(
            "{game} has no option '{option}' (its options: {known})",
            game=game,
            option=unknown[0],
            known=", ".join(by_name),
        )
    result: Options = {}
    for spec in specs:
        if spec.name in raw and raw[spec.name] is not None:
            result[spec.name] = spec.parse(raw[spec.name])
        else:
            result[spec.name] = spec.default
    return result
