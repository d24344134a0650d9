"""The Decades at the terminal: what events and choices say, as Rich text.

Everything here returns :class:`~rich.text.Text` or plain strings that callers
wrap in ``Text``: team names and deck texts are user text and are never read as
markup. :func:`narrate` is the one line an event prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from gamenight.core.i18n import N_, _, term
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

OUTCOME_TEXT = {  # marked; translated where shown (``_(OUTCOME_TEXT[...])``)
    "hit": N_("hit"),
    "near": N_("1 off"),
    "far": N_("2+ off"),
    "other-decade": N_("wrong decade"),
    "cancelled": N_("cancelled"),
}


def card_name(card: str) -> str:
    """An action card's name in the current language (the shared vocabulary)."""
    return term(f"dc.card.{card}", CARDS[card].name)


def card_help(card: str) -> str:
    """What an action card does, in the current language."""
    return term(f"dc.card_help.{card}", CARDS[card].text)


def category_name(category: str) -> str:
    """A question category's name in the current language."""
    return term(f"dc.cat.{category}", CATEGORY_NAMES[category])


def name_of(table: Seating, seat: int | None) -> str:
    if seat is None:
        return _("nobody")
    return table.names[seat] if seat < len(table.names) else _("team {n}").format(n=seat + 1)


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
        return _("hidden until the reveal")
    if not tokens:
        return _("none")
    return ", ".join(
        _("{length} years {start}-{end}").format(length=t.length, start=t.start, end=t.end)
        for t in tokens
    )


def target_text(target: Target | Any, victim: int | None, table: Seating) -> str:
    if isinstance(target, RemoveToken):
        if victim is None:
            return _("remove {length}-year token").format(length=target.length)
        return _("remove {name}'s {length}-year token").format(
            name=name_of(table, victim), length=target.length
        )
    if isinstance(target, CancelAnswer):
        category = category_name(target.category)
        if victim is None:
            return _("cancel {category} answer").format(category=category)
        return _("cancel {name}'s {category} answer").format(
            name=name_of(table, victim), category=category
        )
    return str(target)


def choice_text(choice: Action) -> str:
    if isinstance(choice, Keep):
        return ", ".join(card_name(c) for c in choice.cards)
    if isinstance(choice, Answer):
        return str(choice.year)
    if isinstance(choice, Extend):
        return tokens_text(choice.tokens)
    if isinstance(choice, PlayCard):
        return card_name(choice.card)
    if isinstance(choice, Hidden):
        return _("hidden")
    return str(choice)


CARD_NOTES = {  # marked; translated where shown
    "both-blocked": N_("both teams played Blocked: neither card does anything"),
    "blocked": N_("blocked by the other team's Blocked card"),
    "blocks": N_("stops the other team's card this round"),
    "no-token": N_("the other team placed no extension token: no effect"),
    "target": N_("choose a target"),
}


def narrate(event: DecadesEvent, table: Seating) -> Text | None:
    """One line for an event (None for events with nothing to say); plain text with
    styles, so names and deck texts are never read as markup."""
    if isinstance(event, Setup):
        sides = "/".join(event.sides)
        return line_of(
            _(
                "The Decades: {rounds} rounds, score track to {track}, "
                "board sides {sides}, deck {deck} ({cards} cards)."
            ).format(
                rounds=event.rounds,
                track=event.track,
                sides=sides,
                deck=repr(event.deck),
                cards=event.deck_cards,
            )
        )
    if isinstance(event, KeepStep):
        return line_of(
            _("Each team draws {dealt} action cards and keeps {keep}.").format(
                dealt=event.dealt, keep=event.keep
            )
        )
    if isinstance(event, Hand):
        return line_of(
            _("{team} drew: {cards}").format(
                team=name_of(table, event.team), cards=", ".join(card_name(c) for c in event.cards)
            )
        )
    if isinstance(event, Ready):
        return line_of((_("{team} has chosen.").format(team=name_of(table, event.team)), "dim"))
    if isinstance(event, Chosen):  # the team's own secret choice, sent to that team only (T7)
        return line_of(
            (
                _("{team} chose (hidden from the other team): {choice}").format(
                    team=name_of(table, event.team), choice=choice_text(event.choice)
                ),
                "dim",
            )
        )
    if isinstance(event, Kept):
        return line_of(_("Both teams have kept their action cards."))
    if isinstance(event, RoundBegins):
        return line_of(
            (
                _("— Round {round} of {rounds} —").format(round=event.round, rounds=event.rounds),
                "bold",
            )
        )
    if isinstance(event, Asked):
        return line_of((f"{category_name(event.category)}:", "bold"), " ", event.text)
    if isinstance(event, AnswersRevealed):
        years = event.years
        return line_of(
            f"  {category_name(event.category)}: ",
            who(table, 0),
            f" {years[0]}, ",
            who(table, 1),
            f" {years[1]}",
        )
    if isinstance(event, ExtendStep):
        return line_of(_("Both teams place their extension tokens."))
    if isinstance(event, BoardsRevealed):
        line = Text(_("Boards revealed. Tokens — "))
        for s, tokens in enumerate(event.tokens):
            line.append_text(line_of(who(table, s), f": {tokens_text(tokens)}"))
            line.append("; " if s == 0 else "")
        return line
    if isinstance(event, CardsRevealed):
        line = Text(_("Cards revealed — "))
        for s, (card, note) in enumerate(zip(event.cards, event.notes, strict=True)):
            line.append_text(line_of(who(table, s), f": {card_name(card)} ({_(CARD_NOTES[note])})"))
            line.append("; " if s == 0 else "")
        return line
    if isinstance(event, TargetChosen):
        return line_of(
            _("{team} chooses: {target}").format(
                team=name_of(table, event.team),
                target=target_text(event.target, 1 - event.team, table),
            )
        )
    if isinstance(event, Scored):
        line = line_of(
            "  ",
            _("{category} — it was {year}").format(
                category=category_name(event.category), year=event.year
            ),
            " ",
            (f"({event.source})", "dim"),
            ": ",
        )
        for s, score in enumerate(event.scores):
            bonus = " " + _("(incl. bonus +{n})").format(n=score.bonus) if score.bonus else ""
            line.append_text(who(table, s))
            line.append(
                f" {score.answer} {_(OUTCOME_TEXT[score.outcome])} {signed(score.points)}{bonus}"
            )
            line.append("; " if s == 0 else "")
        line.append(f"  → {event.totals[0]}:{event.totals[1]}")
        return line
    if isinstance(event, GameOver):
        if len(event.winners) == 1:
            high, low = max(event.scores), min(event.scores)
            if event.early_win:
                text = _("{team} wins {high} to {low} (end of the track reached).")
            else:
                text = _("{team} wins {high} to {low}.")
            team = name_of(table, event.winners[0])
            return line_of((text.format(team=team, high=high, low=low), "bold"))
        if event.early_win:
            draw = _("Draw at {score} (end of the track reached).")
        else:
            draw = _("Draw at {score}.")
        return line_of((draw.format(score=event.scores[0]), "bold"))
    return None
