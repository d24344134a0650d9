"""Advice: a solver's valuation of every legal option at one decision, as data.

A game that can advise registers ``advise(view, seat, legal) -> Advice``. The
terminal renders an :class:`Advice` as a table; the browser renders the same
object from JSON. Nothing here knows how it is shown.

Each :class:`Objective` is one column (expected points, a probability, ...);
every :class:`Option` carries one value per objective (``None`` where that
objective does not apply). Options are listed best first for the first
objective, and each objective names its own best option.

>>> advice = Advice(
...     objectives=(Objective(name="expected result", unit="points", best=0),),
...     options=(Option(action={"type": "stop"}, label="stop", values=(12.0,)),
...              Option(action={"type": "roll"}, label="roll again", values=(11.5,))),
... )
>>> advice.best_option.label
'stop'
>>> msgspec.json.decode(msgspec.json.encode(advice), type=Advice) == advice
True
"""

from __future__ import annotations

import msgspec


class Objective(msgspec.Struct, frozen=True, kw_only=True):
    """One column of values: what is maximised, in which unit, and the best option."""

    name: str  # e.g. "expected result", "P(result >= 23)", "expected honours"
    unit: str  # "points", "probability", "honours", ...
    best: int  # index into Advice.options of this objective's best option
    note: str = ""  # e.g. whose posted result a target refers to


class Option(msgspec.Struct, frozen=True, kw_only=True):
    """One legal option: the action (as the game's action JSON), its label, its values."""

    action: object  # JSON builtins: what Game.decode_action reads back
    label: str
    values: tuple[float | None, ...]


class Advice(msgspec.Struct, frozen=True, kw_only=True):
    """Every legal option at a decision with its values; the first objective leads."""

    objectives: tuple[Objective, ...]
    options: tuple[Option, ...]
    note: str = ""

    @property
    def best_option(self) -> Option:
        """The option the first (leading) objective recommends."""
        return self.options[self.objectives[0].best]
