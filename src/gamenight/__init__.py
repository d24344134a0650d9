"""gamenight: play, study and solve a shelf of tabletop games.

The public kernel lives in :mod:`gamenight.core`; each game is a package under
:mod:`gamenight.games`, found through the registry. Every game is driven the
same way: start from options and a dice source, ask who acts and what is
legal, apply actions, and read views and results.

>>> from gamenight.core import SeededDice, registry
>>> game = registry.get("decathlon").game
>>> options = game.parse_options({"events": "110m-hurdles"})
>>> step = game.start(2, options, SeededDice(seed=1))
>>> [type(event).__name__ for event in step.events]
['StartingOrder', 'DisciplineStart', 'Turn', 'Rolled']
>>> (seat,) = game.to_act(step.state)
>>> view = game.view(step.state, seat)
>>> view.phase, view.thrown, view.rethrows_left
('keep-or-rethrow', (1, 5, 5, 2, 1), 5)
>>> game.legal_actions(step.state, seat)
[Freeze(dice=(0, 1, 2, 3, 4)), Rethrow()]

The exact solver values every legal action (here: the expected event score):

>>> from gamenight.games.decathlon.advisor import option_values
>>> {type(a).__name__: round(v, 3) for a, v in option_values(view, game.legal_actions(
...     step.state, seat)).items()}
{'Freeze': 14.0, 'Rethrow': 21.009}

Actions are checked, and a refused action changes nothing:

>>> from gamenight.games.decathlon.actions import Jump
>>> from gamenight.core import IllegalActionError
>>> try:
...     game.apply(step.state, seat, Jump())
... except IllegalActionError as error:
...     print(error)
in the 110 Metre Hurdles you may only freeze the set or rethrow it
>>> after = game.apply(step.state, seat, game.legal_actions(step.state, seat)[0])
>>> [type(event).__name__ for event in after.events][:2]
['Froze', 'AttemptResult']
"""

from __future__ import annotations

__version__ = "0.1.0"

# Not `from typing import TYPE_CHECKING`: every `gamenight.X` import runs this file, and
# `typing` alone is a bare interpreter's start again (`gamenight --help`, issue 46).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from gamenight.core.review import Review


def review(record: Any, *, names: Sequence[str] | None = None, build: bool | None = None) -> Review:
    """Review a finished game (a record, or a path to one): what each decision cost, in
    exact values (issue 42); see :func:`gamenight.core.review.review`."""
    from gamenight.core.review import review as run

    return run(record, names=names, build=build)
