"""Game review (issue 42): what each decision of a finished game cost, from exact values.

A game that can value its decisions exactly names a *reviewer* in
``GameInfo.reviewer`` (``"module:reviewer"``): ``reviewer(options, players, build)``
returns a :class:`Reviewer` (or raises :class:`~gamenight.core.errors.BuildNeededError`
when the table it needs is not built and ``build`` is false). This module replays a
record once and asks the reviewer, at every decision, the value of each legal option
in each of its :class:`Measure` s; everything else is computed here, for every game
the same way:

* **loss** per measure: the best option's value minus the taken option's;
* **luck** (first measure, the expected final score): what the dice changed. With
  ``E`` a seat's expected final score under optimal play, a decision moves it from
  ``E`` (the best option's value) to ``q`` (the taken option's), the dice from ``q``
  to the ``E`` of the seat's next decision (or to its final score). So, exactly,
  ``final = start - sum(losses) + sum(luck)``;
* **accuracy** of a seat: ``100 * (1 - sum(loss) / scale)`` in the judged measure,
  where ``scale`` is what optimal play is worth there (the expected score of optimal
  play, per game or per stage; 1 for a chance to win): the share of it the
  decisions kept (docs/solvers.md, "Game review");
* **verdicts**: a loss of at least the judged measure's thresholds is an
  inaccuracy, a mistake or a blunder;
* **the graph**: each seat's expected final score (or, where the reviewer gives
  seat values per option, e.g. win chances) before and after every decision, the
  moves marked ``decision`` or ``chance``.

Everything is a frozen msgspec struct, so it round-trips through JSON for the browser.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal, Protocol, cast

import msgspec

from gamenight.core.errors import BuildNeededError, RecordError, Term
from gamenight.core.game import AnyGame, to_json
from gamenight.core.i18n import N_

Verdict = Literal["", "inaccuracy", "mistake", "blunder"]
PointKind = Literal["start", "decision", "chance"]
VERDICTS: tuple[Verdict, ...] = ("inaccuracy", "mistake", "blunder")
TINY = 1e-9  # a loss below this is float noise from equal options (the one tie rule)


class Measure(msgspec.Struct, frozen=True, kw_only=True):
    """One objective losses are measured in; its ``name`` says which (English, ``N_``)."""

    key: str  # "points", "win", "honours", "hindsight", "turn"
    name: str  # e.g. "expected final score"
    unit: str  # "points", "probability", "honours"
    # A loss of at least these is an inaccuracy, a mistake, a blunder (empty: no verdicts).
    thresholds: tuple[float, ...] = ()


class Valued(msgspec.Struct, frozen=True, kw_only=True):
    """A reviewer's answer at one decision: per legal action (in ``legal``'s order) its
    label and its value in each measure (None where the measure does not apply)."""

    labels: tuple[str, ...]
    values: tuple[tuple[float | None, ...], ...]
    # Optional: per legal action, every seat's graph value after it (win chances).
    seats: tuple[tuple[float, ...], ...] | None = None


class Reviewer(Protocol):
    """A game's exact valuation of its decisions (see the module text)."""

    measures: tuple[Measure, ...]  # the first is the expected final score (luck, graph)
    judged: int  # the measure verdicts and accuracy use
    hindsight: bool  # values use what the player could not know (The Decades)
    graph: str  # "score" (expected final score), "win" (seat values), "" (no graph)
    note: str  # e.g. a table that is not built yet

    def decision(self, state: Any, seat: int, legal: Sequence[Any], end: Any) -> Valued | None:
        """Every legal option's values at ``seat``'s decision in ``state`` (``end``: the
        game's final state, for hindsight); None where the decision has no exact value."""

    def start(self, state: Any) -> tuple[float, ...] | None:
        """Each seat's expected final score before any dice (None: no score track)."""

    def final(self, state: Any) -> tuple[float, ...]:
        """Each seat's final score in the first measure's unit."""

    def scale(self, stage: str | None) -> float | None:
        """What optimal play is worth in the judged measure, in one stage (None: the
        whole game): the denominator of accuracy. None: the summed best values of the
        player's decisions there (hindsight, where no expected value exists)."""


# ----- the result ------------------------------------------------------------------------
class OptionValue(msgspec.Struct, frozen=True):
    label: str
    values: tuple[float | None, ...]
    action: Any = None  # the game's action JSON (the browser names it as its table does)


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """One reviewed decision: action number ``at`` (1-based; the position before it is
    ``at - 1``) by ``seat``; its options with their values, which was taken, which was
    best in each measure, and the loss in each."""

    at: int
    seat: int
    stage: str | None
    options: tuple[OptionValue, ...]
    taken: int
    best: tuple[int | None, ...]
    loss: tuple[float | None, ...]
    stake: float | None  # best minus worst, judged measure
    verdict: Verdict = ""


class Point(msgspec.Struct, frozen=True):
    """A point of the graph: position ``at`` (actions applied), how it was reached
    (``decision`` or ``chance``), each seat's value (None: not known yet)."""

    at: int
    kind: PointKind
    values: tuple[float | None, ...]


class StageAccuracy(msgspec.Struct, frozen=True):
    stage: str
    accuracy: float | None
    decisions: int


class PlayerReview(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    name: str
    decisions: int  # valued decisions with more than one option
    accuracy: float | None  # percent; None: no decision had anything at stake
    stages: tuple[StageAccuracy, ...]
    inaccuracies: int
    mistakes: int
    blunders: int
    loss: tuple[float, ...]  # summed, per measure
    luck: float | None  # summed, first measure (None: no score track)
    start: float | None
    final: float | None
    costliest: tuple[int, ...]  # indices into Review.decisions, costliest first (at most 3)


class Review(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    seats: int
    measures: tuple[Measure, ...]
    judged: int
    hindsight: bool
    graph: str
    graph_unit: str
    points: tuple[Point, ...]
    decisions: tuple[Decision, ...]
    players: tuple[PlayerReview, ...]
    note: str = ""
    # What the game's preparation could build for exact values still missing (e.g. the
    # Decathlon's win table: its events); a server builds it in the background.
    waiting: str | None = None


class NoReviewError(RecordError):
    """The game has no exact values to review with."""


# ----- the engine -------------------------------------------------------------------------
def reviewer_for(
    game: AnyGame, options: Any, players: int, *, build: bool | None = None
) -> Reviewer:
    """The game's reviewer (its ``GameInfo.reviewer``); raises NoReviewError without one
    and BuildNeededError when its table is missing and ``build`` is false."""
    from gamenight.core.registry import load_callable

    path = game.info.reviewer
    if path is None:
        name_key = f"game.{game.info.id}.name"  # the game's name in its vocabulary
        raise NoReviewError(
            "{game} has no exact values to review a game with",
            game=Term(name_key, game.info.name),
        )
    made = load_callable(path)(options, players, build)
    return cast(Reviewer, made)  # contract-tested: (options, players, build) -> Reviewer


def review(record: Any, *, names: Sequence[str] | None = None, build: bool | None = None) -> Review:
    """Review a finished game from its record (a :class:`~gamenight.core.record.Record`
    or a path to one). Raises RecordError (one line) for a bad or unfinished record,
    NoReviewError for a game without exact values, BuildNeededError when a table
    is missing (``build=True`` builds it; None builds only what is cheap)."""
    from gamenight.core.record import Record, read_record, replay

    name = "record"
    if not isinstance(record, Record):
        path = Path(record)
        name = str(path)
        record = read_record(path)
    steps: list[Any] = []
    report = replay(record, name, visitors=[steps.append])
    seat_names = names if names is not None else [s.name for s in record.seats]
    table = report.table
    assert table is not None
    options = table.game.parse_options(record.options)
    return review_steps(table.game, options, steps, seat_names, build=build)


def review_steps(
    game: AnyGame,
    options: Any,
    steps: Sequence[Any],
    names: Sequence[str],
    *,
    build: bool | None = None,
    reviewer: Reviewer | None = None,
) -> Review:
    """Review a game from its steps (the start first, as a replay hands them out)."""
    players = len(names)
    judge = reviewer if reviewer is not None else reviewer_for(game, options, players, build=build)
    stage_of = _stage_function(game)
    end = steps[-1].state
    course = _Course.begin(judge, players, judge.start(steps[0].state))
    final = judge.final(end)
    decisions: list[Decision] = []
    for before, step in pairwise(steps):
        found = _decision(game, judge, stage_of, before.state, step, end)
        if found is not None:
            decision, valued = found
            course.decided(step.seq, decision.seat, valued, decision.taken, decision.best)
            decisions.append(decision)
    course.ended(final, len(steps) - 1, lambda: game.results(end).winners)
    players_review = tuple(
        _player(seat, names[seat], decisions, judge, course.start, final, course.luck)
        for seat in range(players)
    )
    unit = judge.measures[0].unit if judge.graph == "score" else "probability"
    return Review(
        game=game.info.id,
        seats=players,
        measures=judge.measures,
        judged=judge.judged,
        hindsight=judge.hindsight,
        graph=judge.graph if course.points else "",
        graph_unit=unit,
        points=tuple(course.points),
        decisions=tuple(decisions),
        players=players_review,
        note=judge.note,
        waiting=getattr(judge, "waiting", None),
    )


def _decision(
    game: AnyGame, judge: Reviewer, stage_of: Any, state: Any, step: Any, end: Any
) -> tuple[Decision, Valued] | None:
    """The review of ``step``'s decision from ``state`` (None: no decision to value, a
    hidden or unknown choice, or one the reviewer cannot value) and its valuation."""
    seat, action = step.seat, step.action
    if seat is None or action is None:
        return None
    legal = game.legal_actions(state, seat)
    if action not in legal:
        return None  # a hidden or unknown choice: nothing to value
    valued = judge.decision(state, seat, legal, end)
    if valued is None:
        return None
    taken = legal.index(action)
    best = tuple(_best(valued.values, m) for m in range(len(judge.measures)))
    loss = tuple(
        None
        if b is None or valued.values[taken][m] is None
        else max(0.0, _v(valued.values[b][m]) - _v(valued.values[taken][m]))
        for m, b in enumerate(best)
    )
    decision = Decision(
        at=step.seq,
        seat=seat,
        stage=_stage(stage_of, game, state),
        options=tuple(
            OptionValue(label, values, to_json(option))
            for label, values, option in zip(valued.labels, valued.values, legal, strict=True)
        ),
        taken=taken,
        best=best,
        loss=loss,
        stake=_stake(valued.values, judge.judged),
        verdict=_verdict(loss[judge.judged], judge.measures[judge.judged].thresholds),
    )
    return decision, valued


class _Course:
    """What a review draws as the game goes: each seat's last known value (the first
    measure), its luck so far (the dice's moves of that value), and the graph's points."""

    def __init__(self, judge: Reviewer, players: int, start: tuple[float, ...] | None) -> None:
        self.judge, self.players, self.start = judge, players, start
        self.current: list[float | None] = list(start) if start is not None else [None] * players
        self.luck = [0.0] * players
        self.points: list[Point] = []

    @classmethod
    def begin(cls, judge: Reviewer, players: int, start: tuple[float, ...] | None) -> _Course:
        course = cls(judge, players, start)
        if judge.graph == "score" and start is not None:
            course.points.append(Point(0, "start", tuple(course.current)))
        return course

    def decided(
        self, seq: int, seat: int, valued: Valued, taken: int, best: tuple[int | None, ...]
    ) -> None:
        """A decision at action ``seq``: the dice moved the seat's value from the last
        known one to this decision's best; its choice moved it to the option taken."""
        judge, current, points = self.judge, self.current, self.points
        b0 = best[0]
        if self.start is not None and b0 is not None and current[seat] is not None:
            here = _v(valued.values[b0][0])
            self.luck[seat] += here - _v(current[seat])
            current[seat] = here
            if judge.graph == "score":
                points.append(Point(seq - 1, "chance", tuple(current)))
            current[seat] = valued.values[taken][0]
            if judge.graph == "score":
                points.append(Point(seq, "decision", tuple(current)))
        if judge.graph == "win" and valued.seats is not None:
            top = best[judge.judged]
            if top is not None:
                points.append(Point(seq - 1, "chance", valued.seats[top]))
                points.append(Point(seq, "decision", valued.seats[taken]))

    def ended(
        self, final: tuple[float, ...], last: int, winners: Callable[[], tuple[int, ...]]
    ) -> None:
        """The game ended at step ``last`` with the ``final`` values: the last luck, and
        the graph's last point (the win graph: the ``winners()`` share the win)."""
        if self.start is not None:
            for seat in range(self.players):
                if self.current[seat] is not None:
                    self.luck[seat] += final[seat] - _v(self.current[seat])
            if self.judge.graph == "score":
                self.points.append(Point(last, "chance", tuple(float(f) for f in final)))
        if self.judge.graph == "win" and self.points:
            won = winners()
            share = tuple((1.0 / len(won) if s in won else 0.0) for s in range(self.players))
            self.points.append(Point(last, "chance", share))


def _v(value: float | None) -> float:
    assert value is not None
    return value


def _best(values: Sequence[Sequence[float | None]], measure: int) -> int | None:
    """The first option of the highest value in ``measure`` (None: no option has one)."""
    best: int | None = None
    for i, row in enumerate(values):
        v = row[measure]
        if v is not None and (best is None or v > _v(values[best][measure]) + TINY):
            best = i
    return best


def _stake(values: Sequence[Sequence[float | None]], measure: int) -> float | None:
    known = [row[measure] for row in values if row[measure] is not None]
    if len(known) < 2:
        return None
    return max(_v(v) for v in known) - min(_v(v) for v in known)


def _verdict(loss: float | None, thresholds: Sequence[float]) -> Verdict:
    """The worst verdict whose threshold ``loss`` reaches.

    >>> _verdict(0.6, (0.5, 1.5, 4.0)), _verdict(4.0, (0.5, 1.5, 4.0)), _verdict(0.1, (0.5,))
    ('inaccuracy', 'blunder', '')
    """
    verdict: Verdict = ""
    if loss is None:
        return verdict
    for name, threshold in zip(VERDICTS, thresholds, strict=False):
        if loss >= threshold - TINY:
            verdict = name
    return verdict


def accuracy(losses: Sequence[float], scale: float) -> float | None:
    """``100 * (1 - sum(losses) / scale)``, at least 0: the share of what optimal play
    was worth (``scale``: the expected score of optimal play, or 1 for a chance) that
    the player's decisions kept. None with nothing to judge.

    >>> accuracy([0.5, 1.5], 200.0)
    99.0
    >>> accuracy([], 200.0) is None
    True
    """
    if not losses or scale <= TINY:
        return None
    return max(0.0, 100.0 * (1.0 - sum(losses) / scale))


def _player(
    seat: int,
    name: str,
    decisions: Sequence[Decision],
    judge: Reviewer,
    start: tuple[float, ...] | None,
    final: tuple[float, ...],
    luck: Sequence[float],
) -> PlayerReview:
    mine = [(i, d) for i, d in enumerate(decisions) if d.seat == seat]
    judged = judge.judged

    def lost(ds: Sequence[Decision]) -> list[float]:
        return [d.loss[judged] or 0.0 for d in ds if d.loss[judged] is not None]

    def scale(stage: str | None, ds: Sequence[Decision]) -> float:
        found = judge.scale(stage)
        if found is not None:
            return found
        best = [d.best[judged] for d in ds]
        return sum(
            abs(d.options[b].values[judged] or 0.0)
            for d, b in zip(ds, best, strict=True)
            if b is not None
        )

    stages: dict[str, list[Decision]] = {}
    for _, d in mine:
        if d.stage is not None:
            stages.setdefault(d.stage, []).append(d)
    by_stage = tuple(
        StageAccuracy(stage, accuracy(lost(ds), scale(stage, ds)), len(ds))
        for stage, ds in stages.items()
    )
    costly = sorted(
        (pair for pair in mine if (pair[1].loss[judged] or 0.0) > TINY),
        key=lambda pair: -(pair[1].loss[judged] or 0.0),
    )
    totals = tuple(sum(d.loss[m] or 0.0 for _, d in mine) for m in range(len(judge.measures)))
    return PlayerReview(
        seat=seat,
        name=name,
        decisions=sum(1 for _, d in mine if len(d.options) > 1),
        accuracy=accuracy(lost([d for _, d in mine]), scale(None, [d for _, d in mine])),
        stages=by_stage,
        inaccuracies=sum(1 for _, d in mine if d.verdict == "inaccuracy"),
        mistakes=sum(1 for _, d in mine if d.verdict == "mistake"),
        blunders=sum(1 for _, d in mine if d.verdict == "blunder"),
        loss=totals,
        luck=luck[seat] if start is not None else None,
        start=start[seat] if start is not None else None,
        final=final[seat] if final else None,
        costliest=tuple(i for i, _ in costly[:3]),
    )


def in_language(found: Review, lang: str) -> Review:
    """``found`` with its stage names (the English a game's ``stage`` capability gives,
    its terms' English) said in ``lang`` through the game's vocabulary; everything else
    is data and stays as it is.

    >>> from gamenight.core.review import Review, StageAccuracy, PlayerReview
    >>> player = PlayerReview(seat=0, name="Ann", decisions=1, accuracy=90.0,
    ...     stages=(StageAccuracy("Shot Put", 90.0, 1),), inaccuracies=0, mistakes=0,
    ...     blunders=0, loss=(1.0,), luck=None, start=None, final=None, costliest=())
    >>> shown = Review(game="decathlon", seats=1, measures=(), judged=0, hindsight=False,
    ...     graph="", graph_unit="points", points=(), decisions=(), players=(player,))
    >>> in_language(shown, "pl").players[0].stages[0].stage
    'Pchnięcie kulą'
    """
    from gamenight.core.vocabulary import vocabulary

    if lang == "en":
        return found
    english, said = vocabulary(found.game, "en"), vocabulary(found.game, lang)
    names = {english[key]: said[key] for key in english}
    if not names:
        return found

    def name(stage: str | None) -> str | None:
        return None if stage is None else names.get(stage, stage)

    replace = msgspec.structs.replace
    return replace(
        found,
        decisions=tuple(replace(d, stage=name(d.stage)) for d in found.decisions),
        players=tuple(
            replace(p, stages=tuple(replace(s, stage=name(s.stage) or "") for s in p.stages))
            for p in found.players
        ),
    )


def _stage_function(game: AnyGame) -> Callable[[object], str | None] | None:
    from gamenight.core.registry import stage_function

    return stage_function(game.info.stage)


def _stage(stage_of: Any, game: AnyGame, state: Any) -> str | None:
    if stage_of is None:
        return None
    found: str | None = stage_of(game.view(state, None))
    return found


__all__ = [
    "BuildNeededError",
    "Decision",
    "Measure",
    "NoReviewError",
    "OptionValue",
    "PlayerReview",
    "Point",
    "Review",
    "Reviewer",
    "StageAccuracy",
    "Valued",
    "accuracy",
    "in_language",
    "review",
    "review_steps",
    "reviewer_for",
]
_ = N_  # measure names are marked where reviewers make them
