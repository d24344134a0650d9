"""Keyboard input for The Decades: short text to one legal action (pure functions).

=========  =====================================================================
step       what to type
=========  =====================================================================
keep       four card numbers from your 7 (``1 2 5 7`` or ``1257``), or card
           names (``cancel cancel blocked remove``)
answer     a year: ``1987`` or ``87`` (80-99 mean 1980-1999, 00-19 mean 2000-2019)
extend     tokens as ``length@year``: ``4@1987 2@01``; ``none`` places no token
card       the card's number in your hand, or its name (``blocked``, ``cancel``...)
target     Cancel the answer: a category number 1-6 or name (``music``);
           Remove a token: its length (``4``) or ``4@1987``
=========  =====================================================================

>>> parse_year("87"), parse_year("05"), parse_year("2019")
(1987, 2005, 2019)
>>> parse_placements("4@87, 2@2001")
(Placement(length=4, start=1987), Placement(length=2, start=2001))
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gamenight.core.i18n import N_, _, said
from gamenight.games.decades.boards import FIRST_YEAR, LAST_YEAR
from gamenight.games.decades.cards import CARDS
from gamenight.games.decades.deck import CATEGORIES, CATEGORY_NAMES
from gamenight.games.decades.rules import (
    Action,
    Answer,
    CancelAnswer,
    Extend,
    Keep,
    PlayCard,
    RemoveToken,
)
from gamenight.games.decades.tokens import (
    TOKEN_LENGTHS,
    Placement,
    canonical,
    placement_error,
)
from gamenight.games.decades.view import DecadesView
from gamenight.terminal.decades_text import card_name, category_name
from gamenight.terminal.ui import is_number

HELP: dict[str, str] = {  # marked; translated where shown (``_(HELP[step])``)
    "keep": N_("Keep 4 of your 7 action cards: type their numbers (1 2 5 7) or names."),
    "answer": N_("Type the year you bet on: 1987 or just 87 (00-19 mean 2000-2019)."),
    "extend": N_(
        "Place extension tokens as length@year, e.g. 4@1987 2@01. A token starts under "
        "one of your answers and covers that year and the next ones, within the decade "
        "row; tokens may not overlap. Type none to place no token."
    ),
    "card": N_("Play one action card: type its number in your hand or its name."),
    "target": N_(
        "Choose the target of your card: a category (number 1-6 or name) to cancel, "
        "or a token (its length, e.g. 4) to remove."
    ),
}

_YEAR = re.compile(r"^\d{2}$|^\d{4}$")
_TOKEN = re.compile(r"^(\d+)\s*[@x:]\s*(\d+)$")
# Words a player may use for a card, besides its id.
_CARD_WORDS = {"cancel": "cancel-answer", "remove": "remove-token", "block": "blocked"}


def parse_year(text: str) -> int | None:
    """A board year from ``1987`` or ``87``; None if ``text`` is not a year."""
    text = text.strip()
    if not _YEAR.match(text):
        return None
    value = int(text)
    if len(text) == 2:
        value += 1900 if value >= 80 else 2000
    return value


def parse_placements(text: str) -> tuple[Placement, ...] | str:
    """Tokens from ``4@1987 2@01``; an error message if a part cannot be read."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    tokens: list[Placement] = []
    for part in parts:
        match = _TOKEN.match(part)
        if not match:
            return _("cannot read {part}: write a token as length@year, like 4@1987").format(
                part=repr(part)
            )
        year = parse_year(match.group(2))
        if year is None:
            return _("{year} in {part} is not a year (write 1987 or 87)").format(
                year=repr(match.group(2)), part=repr(part)
            )
        tokens.append(Placement(int(match.group(1)), year))
    return tuple(tokens)


def tokens_key(tokens: Sequence[Placement]) -> str:
    """Tokens as they are typed: ``4@1987 2@2001``, or ``-`` for none (a sign, not an
    English word, so that the key reads the same in every language).

    >>> tokens_key((Placement(4, 1987), Placement(2, 2001))), tokens_key(())
    ('4@1987 2@2001', '-')
    """
    return " ".join(f"{t.length}@{t.start}" for t in tokens) or "-"


def click_token(line: str, year: int, answers: Sequence[int]) -> str:
    """The token line after a click on ``year`` of the team's own grid while tokens are
    asked (the full screen): a year with no token gets the shortest one that may start
    there (T4), a click on a token's year makes it the next longer one that fits, and
    after the longest it comes off. Only placements the rules allow are ever offered;
    a line that cannot be read is started afresh.

    >>> answers = [1982, 1986]
    >>> click_token("", 1982, answers)
    '2@1982'
    >>> click_token("2@1982", 1982, answers), click_token("3@1982", 1982, answers)
    ('3@1982', '4@1982')
    >>> click_token("4@1982", 1982, answers)
    '-'
    >>> click_token("2@1982", 1986, answers)
    '2@1982 3@1986'
    >>> click_token("2@1982", 1990, answers)  # no answer there: nothing may start
    '2@1982'
    """
    read = parse_placements(line)
    tokens = () if isinstance(read, str) else read
    others = [t for t in tokens if t.start != year]
    here = [t.length for t in tokens if t.start == year]
    for length in TOKEN_LENGTHS:
        if here and length <= max(here):
            continue
        placed = [*others, Placement(length, year)]
        if placement_error(placed, answers) is None:
            return tokens_key(canonical(placed))
    if not here:  # nothing may start there: the line stays as it was
        return tokens_key(canonical(tokens)) if tokens else line
    return tokens_key(canonical(others))


def token_years(line: str) -> frozenset[int]:
    """The years the tokens on ``line`` cover (none if it cannot be read).

    >>> sorted(token_years("3@1982 2@1986"))
    [1982, 1983, 1984, 1986, 1987]
    """
    read = parse_placements(line)
    if isinstance(read, str):
        return frozenset()
    return frozenset(y for t in read for y in range(t.start, t.start + t.length))


def parse_command(text: str, view: DecadesView, legal: Sequence[Action]) -> Action | str:
    """The legal action ``text`` means, or a message saying what is wrong."""
    text = text.strip()
    if view.phase == "keep":
        return _keep(text, view, legal)
    if view.phase == "answer":
        return _answer(text, legal)
    if view.phase == "extend":
        return _extend(text, view, legal)
    if view.phase == "card":
        return _card(text, view, legal)
    if view.phase == "target":
        return _target(text, view, legal)
    return _("the game is over")


def _only(text: str, legal: Sequence[Action]) -> Action | None:
    """Enter alone accepts the only choice there is."""
    return legal[0] if not text and len(legal) == 1 else None


def _card_id(word: str) -> str | None:
    word = word.lower()
    for key, card in _CARD_WORDS.items():
        if key.startswith(word) or word.startswith(key):
            return card
    for card in CARDS:
        if card.startswith(word):
            return card
    return None


def _keep(text: str, view: DecadesView, legal: Sequence[Action]) -> Action | str:
    words = text.replace(",", " ").split()
    if len(words) == 1 and is_number(words[0]):
        words = list(words[0])
    count = len(view.dealt)
    chosen: list[str] = []
    used: set[int] = set()
    for word in words:
        if is_number(word):
            index = int(word) - 1
            if not 0 <= index < count:
                return _("{word} is not a card number (your cards are 1-{count})").format(
                    word=word, count=count
                )
            if index in used:
                return _("card {word} is chosen twice").format(word=word)
            used.add(index)
            chosen.append(view.dealt[index])
        else:
            card = _card_id(word)
            if card is None:
                return _("{word} is not an action card (cancel, remove, blocked)").format(
                    word=repr(word)
                )
            chosen.append(card)
    action = Keep(tuple(sorted(chosen, key=list(CARDS).index)))
    if len(chosen) != 4:
        return _("keep exactly 4 cards (you named {n})").format(n=len(chosen))
    if action not in legal:
        return _("you were not dealt those cards (you have: {hand})").format(
            hand=_hand_text(view.dealt)
        )
    return action


def _hand_text(cards: Sequence[str]) -> str:
    return ", ".join(f"{i}. {card_name(c)}" for i, c in enumerate(cards, start=1))


def _answer(text: str, legal: Sequence[Action]) -> Action | str:
    year = parse_year(text)
    if year is None:
        return _("type a year from {first} to {last}, like 1987 or 87").format(
            first=FIRST_YEAR, last=LAST_YEAR
        )
    action = Answer(year)
    if action not in legal:
        return _("{year} is not on the board ({first}-{last})").format(
            year=year, first=FIRST_YEAR, last=LAST_YEAR
        )
    return action


def _extend(text: str, view: DecadesView, legal: Sequence[Action]) -> Action | str:
    # "-" is the key shown; the English words and the player's own word also work.
    if text.lower() in ("-", "0", "none", "no", "pass", _("none").lower()):
        return Extend(())
    if not text:
        return _("type tokens like 4@1987 2@2001, or - for none")
    tokens = parse_placements(text)
    if isinstance(tokens, str):
        return tokens
    seat = view.seat if view.seat is not None else 0
    problem = placement_error(tokens, view.teams[seat].answers)
    if problem:
        return said(problem)  # the rules' own refusal, in the player's language
    action = Extend(canonical(tokens))
    return action if action in legal else _("those tokens cannot be placed now")


def _card(text: str, view: DecadesView, legal: Sequence[Action]) -> Action | str:
    only = _only(text, legal)
    if only is not None:
        return only
    held = [a.card for a in legal if isinstance(a, PlayCard)]
    if is_number(text):
        index = int(text) - 1
        if not 0 <= index < len(held):
            return _("{text} is not one of your cards (1-{n})").format(text=text, n=len(held))
        return PlayCard(held[index])
    card = _card_id(text) if text else None
    if card is None:
        return _("type a card number 1-{n} or its name").format(n=len(held))
    if card not in held:
        return _("you hold no {card} card").format(card=card_name(card))
    return PlayCard(card)


def _target(text: str, view: DecadesView, legal: Sequence[Action]) -> Action | str:
    only = _only(text, legal)
    if only is not None:
        return only
    if any(isinstance(a, RemoveToken) for a in legal):
        lengths = [a.length for a in legal if isinstance(a, RemoveToken)]
        head = text.split("@")[0].strip()
        if is_number(head) and int(head) in lengths:
            return RemoveToken(int(head))
        return _("remove which token? type its length: {lengths}").format(
            lengths=", ".join(map(str, lengths))
        )
    if is_number(text) and 1 <= int(text) <= len(CATEGORIES):
        return CancelAnswer(CATEGORIES[int(text) - 1])
    word = text.lower()
    if word:
        for category in CATEGORIES:
            words = (category, CATEGORY_NAMES[category].lower(), category_name(category).lower())
            if any(name.startswith(word) for name in words):
                return CancelAnswer(category)
    names = ", ".join(f"{i}. {category_name(c)}" for i, c in enumerate(CATEGORIES, 1))
    return _("cancel which answer? type a category: {names}").format(names=names)
