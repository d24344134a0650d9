"""The Decades at the terminal: what events and choices say, as Rich text.

Everything here returns :class:`~rich.text.Text` or plain strings that callers
wrap in ``Text``: team names and deck texts are user text and are never read as
markup. :func:`narrate` is the one line an event prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from gamenight.games.decades.actions import (
    Action,
    Answer,
    CancelAnswer,
    Extend,
    Hidden,
    Keep,
    PlayCard,
    RemoveToken,
    Target,
)
from gamenight.games.decades.cards import CARDS
from gamenight.games.decades.deck import CATEGORY_NAMES
from gamenight.games.decades.events import (
    AnswersRevealed,
    Asked,
    BoardsRevealed,
    CardsRevealed,
    Chosen,
    DecadesEvent,
    ExtendStep,
    GameOver,
    Hand,
    KeepStep,
    Kept,
    Ready,
    RoundBegins,
    Scored,
    Setup,
    TargetChosen,
)
from gamenight.games.decades.tokens import Placement
from gamenight.terminal.ui import Seating, plain

OUTCOME_TEXT = {
    "hit": "hit",
    "near": "1 off",
    "far": "2+ off",
    "other-decade": "wrong decade",
    "cancelled": "cancelled",
}


def name_of(table: Seating, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return table.names[seat] if seat < len(table.names) else f"team {seat + 1}"


def who(table: Seating, seat: int | None, style: str = "") -> Text:
    """A team's name as text: names are user text, never markup."""
    return Text(name_of(table, seat), style=style)


def signed(points: int) -> str:
    return f"{points:+d}"


def line_of(*parts: str | Text | tuple[str, str]) -> Text:
    """One line from plain strings, (string, style) pairs and Text; no markup anywhere,
    and no control codes: deck text is filtered on import, and again here (``plain``).

    >>> line_of("a\x1b[2J", ("b", "bold")).plain
    'a^[[2Jb'
    """
    return Text.assemble(
        *(
            plain(p) if isinstance(p, str) else plain(*p) if isinstance(p, tuple) else p
            for p in parts
        )
    )


def tokens_text(tokens: Sequence[Placement] | None) -> str:
    if tokens is None:
        return "hidden until the reveal"
    if not tokens:
        return "none"
    return ", ".join(f"{t.length} years {t.start}-{t.end}" for t in tokens)


def target_text(target: Target | Any, victim: int | None, table: Seating) -> str:
    whose = f"{name_of(table, victim)}'s " if victim is not None else ""
    if isinstance(target, RemoveToken):
        return f"remove {whose}{target.length}-year token"
    if isinstance(target, CancelAnswer):
        return f"cancel {whose}{CATEGORY_NAMES[target.category]} answer"
    return str(target)


def choice_text(choice: Action) -> str:
    if isinstance(choice, Keep):
        return ", ".join(CARDS[c].name for c in choice.cards)
    if isinstance(choice, Answer):
        return str(choice.year)
    if isinstance(choice, Extend):
        return tokens_text(choice.tokens)
    if isinstance(choice, PlayCard):
        return CARDS[choice.card].name
    if isinstance(choice, Hidden):
        return "hidden"
    return str(choice)


CARD_NOTES = {
    "both-blocked": "both teams played Blocked: neither card does anything",
    "blocked": "blocked by the other team's Blocked card",
    "blocks": "stops the other team's card this round",
    "no-token": "the other team placed no extension token: no effect",
    "target": "choose a target",
}


def narrate(event: DecadesEvent, table: Seating) -> Text | None:
    """One line for an event (None for events with nothing to say); plain text with
    styles, so names and deck texts are never read as markup."""
    if isinstance(event, Setup):
        sides = "/".join(event.sides)
        return line_of(
            f"The Decades: {event.rounds} rounds, score track to {event.track}, "
            f"board sides {sides}, deck {event.deck!r} ({event.deck_cards} cards)."
        )
    if isinstance(event, KeepStep):
        return line_of(f"Each team draws {event.dealt} action cards and keeps {event.keep}.")
    if isinstance(event, Hand):
        return line_of(
            who(table, event.team), " drew: " + ", ".join(CARDS[c].name for c in event.cards)
        )
    if isinstance(event, Ready):
        return line_of(who(table, event.team, "dim"), (" has chosen.", "dim"))
    if isinstance(event, Chosen):  # the team's own secret choice, sent to that team only (T7)
        return line_of(
            who(table, event.team, "dim"),
            (f" chose (hidden from the other team): {choice_text(event.choice)}", "dim"),
        )
    if isinstance(event, Kept):
        return line_of("Both teams have kept their action cards.")
    if isinstance(event, RoundBegins):
        return line_of((f"— Round {event.round} of {event.rounds} —", "bold"))
    if isinstance(event, Asked):
        return line_of((f"{event.name}:", "bold"), " ", event.text)
    if isinstance(event, AnswersRevealed):
        years = event.years
        return line_of(
            f"  {CATEGORY_NAMES[event.category]}: ",
            who(table, 0),
            f" {years[0]}, ",
            who(table, 1),
            f" {years[1]}",
        )
    if isinstance(event, ExtendStep):
        return line_of("Both teams place their extension tokens.")
    if isinstance(event, BoardsRevealed):
        line = Text("Boards revealed. Tokens — ")
        for s, tokens in enumerate(event.tokens):
            line.append_text(line_of(who(table, s), f": {tokens_text(tokens)}"))
            line.append("; " if s == 0 else "")
        return line
    if isinstance(event, CardsRevealed):
        line = Text("Cards revealed — ")
        for s, (card, note) in enumerate(zip(event.cards, event.notes, strict=True)):
            line.append_text(line_of(who(table, s), f": {CARDS[card].name} ({CARD_NOTES[note]})"))
            line.append("; " if s == 0 else "")
        return line
    if isinstance(event, TargetChosen):
        return line_of(
            who(table, event.team),
            f" chooses: {target_text(event.target, 1 - event.team, table)}",
        )
    if isinstance(event, Scored):
        line = line_of(
            f"  {CATEGORY_NAMES[event.category]} — it was ",
            (str(event.year), "bold"),
            " ",
            (f"({event.source})", "dim"),
            ": ",
        )
        for s, score in enumerate(event.scores):
            bonus = f" (incl. bonus +{score.bonus})" if score.bonus else ""
            line.append_text(who(table, s))
            line.append(
                f" {score.answer} {OUTCOME_TEXT[score.outcome]} {signed(score.points)}{bonus}"
            )
            line.append("; " if s == 0 else "")
        line.append(f"  → {event.totals[0]}:{event.totals[1]}")
        return line
    if isinstance(event, GameOver):
        how = " (end of the track reached)" if event.early_win else ""
        if len(event.winners) == 1:
            high, low = max(event.scores), min(event.scores)
            return line_of(
                who(table, event.winners[0], "bold"), (f" wins {high} to {low}{how}.", "bold")
            )
        return line_of((f"Draw at {event.scores[0]}{how}.", "bold"))
    return None
