"""Option values for Kniffel Dice Duel: what the turn-optimal bot plays, and the hint.

Every legal option is valued by its expected chip value this turn, by exact
expectimax over the remaining rolls and every keep choice (:mod:`.expectimax`).
What a chip is worth:

* its face value, plus the 20-point last-chip bonus (K6) when it is the last
  chip on the plate;
* a Kniffel is worth its best award (the best chip, or in solo the best two, K7,
  from plate or set-aside) plus an estimate of the extra turn: the expected
  chip value of a fresh turn with the same chips on offer (the chip just taken
  is ignored), solved as a fixed point because that turn may bring another
  Kniffel. An award that empties the plate ends the game, so earns no extra turn.

* in multiplayer, taking the plate's last chip ends the game (K6): when that
  leaves the player behind, the chip is worth its points minus :data:`LOSS`
  (more than any turn brings), so the bot declines it (K4 revised: stopping is
  worth 0), or rolls on for something else, rather than end the game behind.

Everything else beyond this turn (bonuses for sets, what opponents need) is ignored.
:func:`option_values` values every legal option, :func:`best_action` is the
turn-optimal bot's choice and :func:`advise` the same as data for any front end.

>>> from gamenight.core.dice import ScriptedDice
>>> from gamenight.games.dice_duel.game import GAME
>>> state = GAME.start(2, GAME.parse_options(), ScriptedDice(values=(1, 2, 3, 4, 5, 6))).state
>>> view = GAME.view(state, 0)
>>> advice = advise(view, 0, view.legal())
>>> advice.best_option.label, advice.best_option.values
('take Large straight', (50.0,))
>>> GAME.decode_action(advice.best_option.action) == best_action(view, view.legal())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from gamenight.core.advice import Advice, Objective, Option
from gamenight.core.game import to_json
from gamenight.core.i18n import N_
from gamenight.games.dice_duel.combinations import INDEX, LABEL, VALUES
from gamenight.games.dice_duel.expectimax import KEEP_INDEX, ChipValues, TurnTables, turn_tables
from gamenight.games.dice_duel.game import DiceDuelView
from gamenight.games.dice_duel.rules import Action, Roll, Stop, Take, take_options
from gamenight.games.dice_duel.scoring import LAST_CHIP_BONUS, score
from gamenight.solve.ties import best_of

Pile = tuple[int, ...]
NONE = float("-inf")
LOSS = 1000.0  # what ending the game behind costs: more than any one turn can bring


def chip_worth(combination_index: int, source: str, plate: Pile) -> float:
    """A chip's worth to the taker: face value, +20 if it is the plate's last chip (K6)."""
    last = source == "plate" and sum(plate) == 1
    return float(VALUES[combination_index] + (LAST_CHIP_BONUS if last else 0))


@lru_cache(maxsize=65536)
def kniffel_award(plate: Pile, set_aside: Pile, picks: int) -> tuple[float, float]:
    """Best total worth of a Kniffel award of ``picks`` chips (K2, K7).

    Returns ``(plate survives, plate emptied)``: the best award that leaves chips
    on the plate (an extra turn follows) and the best that empties it (the game
    ends); ``-inf`` where impossible. As in the rules, once the plate is empty a
    remaining solo pick may still come from the set-aside pile.
    """
    if picks == 0 or not (any(plate) or any(set_aside)):
        return (0.0, NONE) if any(plate) else (NONE, 0.0)
    on, off = NONE, NONE
    for i in range(len(VALUES)):
        for source, pile in (("plate", plate), ("set-aside", set_aside)):
            if not pile[i]:
                continue
            worth = chip_worth(i, source, plate)
            after = kniffel_award(*_without(plate, set_aside, i, source), picks - 1)
            on, off = max(on, worth + after[0]), max(off, worth + after[1])
    return on, off


def _without(plate: Pile, set_aside: Pile, i: int, source: str) -> tuple[Pile, Pile]:
    """The plate and set-aside pile after one chip of combination ``i`` left ``source``."""
    pile = list(plate if source == "plate" else set_aside)
    pile[i] -= 1
    return (tuple(pile), set_aside) if source == "plate" else (plate, tuple(pile))


def ends_behind(view: DiceDuelView, i: int) -> bool:
    """Whether taking a plate chip of combination ``i`` ends the game (it is the plate's
    last chip, K6) with the player to act behind someone (multiplayer; a tie is no loss).

    >>> view = DiceDuelView(None, "multi", 2, 0, 0, 9, "pick", (6, 6, 6, 1, 2), (), (), 3, 0,
    ...     0, ("three-of-a-kind",), False, (0, 1, 0, 0, 0, 0, 0), (0,) * 7,
    ...     ((1, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 1)), (score((1,) + (0,) * 6, False),
    ...     score((0,) * 6 + (1,), False)), False, None, "")
    >>> ends_behind(view, 1)  # 5 + 10 + 20 = 35 against 50
    True
    """
    if view.mode == "solo" or sum(view.plate) != 1 or not view.plate[i]:
        return False
    held = list(view.chips[view.current])
    held[i] += 1
    mine = score(held, True).total
    return any(s.total > mine for p, s in enumerate(view.scores) if p != view.current)


def worth_here(view: DiceDuelView, i: int, source: str) -> float:
    """:func:`chip_worth`, less :data:`LOSS` for a chip that ends the game behind."""
    worth = chip_worth(i, source, view.plate)
    return worth - LOSS if source == "plate" and ends_behind(view, i) else worth


def _kniffel_picks(view: DiceDuelView) -> int:
    """Chips the current Kniffel award still takes."""
    return (2 if view.mode == "solo" else 1) - view.picks


def tables_for(view: DiceDuelView) -> TurnTables:
    """The expectimax tables for the chips on offer in ``view``."""
    chips = tuple(worth_here(view, i, "plate") if n else 0.0 for i, n in enumerate(view.plate))
    wanted = 2 if view.mode == "solo" else 1
    on, off = kniffel_award(view.plate, view.set_aside, wanted)
    last = [i for i, n in enumerate(view.plate) if n]
    if len(last) == 1 and ends_behind(view, last[0]):
        off -= LOSS  # multiplayer: the award that empties the plate is that last chip
    return turn_tables(ChipValues(chips, on, off))


def option_values(view: DiceDuelView, legal: Sequence[Action] | None = None) -> dict[Action, float]:
    """The expected chip value this turn of every legal option (in ``legal``'s order)."""
    options = list(view.legal() if legal is None else legal)
    if not options:
        return {}
    tables = tables_for(view)
    values: dict[Action, float] = {}
    for action in options:
        if isinstance(action, Roll):
            kept = tuple(sorted(view.faces[i] for i in action.keep))
            values[action] = float(tables.after[view.rolls_left][KEEP_INDEX[kept]])
        elif isinstance(action, Take):
            values[action] = _take_value(view, action, tables.extra_turn)
        else:
            values[action] = 0.0
    return values


def _take_value(view: DiceDuelView, take: Take, extra_turn: float) -> float:
    i = INDEX[take.combination]
    worth = worth_here(view, i, take.source)
    if not view.kniffel:
        return worth
    plate, set_aside = _without(view.plate, view.set_aside, i, take.source)
    on, off = kniffel_award(plate, set_aside, _kniffel_picks(view) - 1)
    return worth + max(on + extra_turn, off)


def best_action(view: DiceDuelView, legal: Sequence[Action]) -> Action:
    """The option of highest value (the turn-optimal bot's choice).

    Ties go to taking (a set-aside chip first: the plate's twin can still be won
    later without a Kniffel), then stopping, then the first roll listed.
    """
    return _best(option_values(view, legal), legal)


def _best(values: dict[Action, float], legal: Sequence[Action]) -> Action:
    # The one tie rule (gamenight.solve.ties) over the options in preference order.
    ranked = sorted(legal, key=_preference)
    return best_of(ranked, [values[a] for a in ranked])


def _preference(action: Action) -> int:
    if isinstance(action, Take):
        return 0 if action.source == "set-aside" else 1
    return 2 if isinstance(action, Stop) else 3


# ----- advice: the values as data -----------------------------------------------------------

# marked for the catalogue: the terminal says them in the player's language
OBJECTIVE = N_("expected chip value")
NOTE = N_(
    "this turn only, as the turn-optimal bot counts it: a chip's points, +20 for the "
    "plate's last chip, and a Kniffel's extra turn; taking the last chip while behind "
    "ends the game lost (-1000), so no chip (0) is better; later turns and bonuses are ignored"
)


def option_key(action: Action, view: DiceDuelView) -> str:
    """Actions that keep the same faces are one option (a key to group them by).

    >>> from gamenight.games.dice_duel.rules import Roll
    >>> view = DiceDuelView(None, "multi", 2, 0, 0, 1, "roll", (6, 2, 6, 3, 1), (), (), 1, 2,
    ...     0, (), False, (4,) * 7, (0,) * 7, ((0,) * 7,) * 2, (), False, None, "")
    >>> option_key(Roll(keep=(0,)), view) == option_key(Roll(keep=(2,)), view)
    True
    """
    if isinstance(action, Roll):
        return "keep " + " ".join(str(f) for f in sorted(view.faces[i] for i in action.keep))
    return label(action, view)


def label(action: Action, view: DiceDuelView) -> str:
    """A short phrase for an action, in words (front ends may add their own keys)."""
    if isinstance(action, Roll):
        if not action.keep:
            return "roll all five"
        kept = " ".join(str(view.faces[i]) for i in action.keep)
        dice = " ".join(str(i + 1) for i in action.keep)
        return f"keep {kept} (dice {dice}) and roll"
    if isinstance(action, Take):
        where = " from the set-aside pile" if action.source == "set-aside" else ""
        return f"take {LABEL[action.combination]}{where}"
    if take_options(view.faces, view.plate, view.set_aside):
        return "take no chip (decline it)"  # K4 revised
    return "stop without a chip"


def advise(view: DiceDuelView, seat: int | None, legal: Sequence[Action]) -> Advice | None:
    """Every legal option with its expected chip value this turn, best first.

    Keeps of the same faces at other positions are one option (the first listed
    stands for them). The first option is the turn-optimal bot's choice. Nothing
    in Dice Duel is secret, so ``seat`` changes nothing. ``None`` when there is
    nothing to choose.
    """
    if not legal:
        return None
    values = option_values(view, legal)
    best = _best(values, legal)
    shown: dict[str, Action] = {option_key(best, view): best}
    for action in legal:
        shown.setdefault(option_key(action, view), action)
    order = sorted(shown.values(), key=lambda a: (a != best, -values[a], _preference(a)))
    options = tuple(
        Option(action=to_json(a), label=label(a, view), values=(float(values[a]),)) for a in order
    )
    return Advice(
        objectives=(Objective(name=OBJECTIVE, unit="points", best=0, note=NOTE),),
        options=options,
    )
