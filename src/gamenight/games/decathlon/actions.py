"""The player's choices, one frozen struct per verb (a tagged union).

Freezing and the stop/continue choice after it are separate decisions:

* :class:`Freeze` -- ``dice`` are 0-based positions among the dice just thrown.
  In the set events (sprints D4, hurdles D5) it freezes the whole set, so it
  lists every position; in the Long Jump (D6), Discus and Javelin (D10) it
  lists at least one die.
* :class:`Rethrow` -- rethrow the set (D4, D5) or the unfrozen dice (D6, D10).
* :class:`Jump` -- end the run-up and jump (D6), or go for the bar (D8, D9).
* :class:`Stop` -- end the attempt with the dice frozen so far (D7, D10).
* :class:`Throw` -- throw the next Shot Put die (D7).
* :class:`Skip` / :class:`Retire` -- pass the bar / leave the event (D8, D9).
* :class:`Vault` -- throw ``dice`` dice (1..8) for the next Pole Vault jump (D9).
"""

from __future__ import annotations

import msgspec


class Freeze(msgspec.Struct, frozen=True, gc=False, tag="freeze"):
    dice: tuple[int, ...]


class Rethrow(msgspec.Struct, frozen=True, gc=False, tag="rethrow"):
    pass


class Jump(msgspec.Struct, frozen=True, gc=False, tag="jump"):
    pass


class Stop(msgspec.Struct, frozen=True, gc=False, tag="stop"):
    pass


class Throw(msgspec.Struct, frozen=True, gc=False, tag="throw"):
    pass


class Skip(msgspec.Struct, frozen=True, gc=False, tag="skip"):
    pass


class Retire(msgspec.Struct, frozen=True, gc=False, tag="retire"):
    pass


class Vault(msgspec.Struct, frozen=True, gc=False, tag="vault"):
    dice: int


Action = Freeze | Rethrow | Jump | Stop | Throw | Skip | Retire | Vault
