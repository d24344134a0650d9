"""The Decades at the terminal: boards as 4x10 year grids, hands, and score breakdowns.

Entries that are secrets until the reveal (kept cards, years, tokens, the card
played) are read with ``secret=True``, so hot-seat play does not echo them; the
CLI clears the screen and asks for the terminal to be passed between teams
(``GameInfo.hidden_info``). Parsing lives in :mod:`gamenight.terminal.decades_keys`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core.game import Results
from gamenight.core.i18n import N_, _, pgettext
from gamenight.games.decades.boards import DECADES, SIDES
from gamenight.games.decades.deck import CATEGORIES
from gamenight.games.decades.events import (
    DecadesEvent,
)
from gamenight.games.decades.rules import (
    Action,
    Answer,
    Extend,
    PlayCard,
    RoundLog,
)
from gamenight.games.decades.tokens import Placement
from gamenight.games.decades.view import DecadesView
from gamenight.terminal.decades_keys import HELP, parse_command, tokens_key
from gamenight.terminal.decades_text import (
    OUTCOME_TEXT,
    card_help,
    card_name,
    category_name,
    choice_text,
    line_of,
    name_of,
    narrate,
    signed,
    target_text,
    tokens_text,
    who,
)
from gamenight.terminal.ui import (
    HELP_WORDS,
    Choice,
    Prompter,
    Seating,
    answer_key,
    ask_until_parsed,
    heading,
    legal_choices,
)

# One letter per category, in T2 order, to mark answer tokens on the grid.
LETTERS = dict(zip(CATEGORIES, "BCMTSN", strict=True))
CELL = 7  # characters per year on the grid (10 years + the row label fit in 80 columns)
SECRET_STEPS = ("keep", "answer", "extend", "card")
TOKEN_STYLES = {2: "on dark_blue", 3: "on dark_green", 4: "on dark_magenta"}
NARROW = 78  # consoles narrower than this get the compact layout


def _narrow(console: Console) -> bool:
    return console.width < NARROW


# ----- boards ---------------------------------------------------------------------


def board_grid(
    side: str,
    answers: Sequence[tuple[str, int]],
    tokens: Sequence[Placement],
    title: str | Text,
    *,
    compact: bool = False,
    clickable: bool = False,
) -> Text:
    """A 4x10 grid: one row per decade, bonus spaces marked, answers as category letters.

    Years under an extension token are shaded (one colour per token length). The
    ``compact`` grid (narrow terminals) splits each decade into two rows of 5 years
    and fits 40 columns. On a ``clickable`` grid (the player's own, while a year is
    asked) a click on a year answers it on the full screen (``answer_key``).
    """
    bonus = SIDES[side].bonus_map
    grid = Text(style="")
    grid.append_text(title if isinstance(title, Text) else Text(title))
    grid.stylize("bold")
    grid.append("\n")
    halves = ((0, 5), (5, 10)) if compact else ((0, 10),)
    # a decade row's name in the player's words ("80s", "80er", "80."), all as wide as the
    # widest so the years stay in columns
    names = {
        d: pgettext("decade row", "{decade}s").format(decade=f"{d % 100:02d}" if compact else d)
        for d in DECADES
    }
    width = max(cell_len(n) for n in names.values()) + 1
    if not compact:
        units = "".join(f"x{unit}".ljust(CELL) for unit in range(10))
        grid.append(" " * width + units + "\n", "dim")
    for decade in DECADES:
        for first, last in halves:
            label = names[decade] if first == 0 else ""
            grid.append(label.ljust(width), style="bold")
            for year in range(decade + first, decade + last):
                cell = _cell(year, bonus, answers, tokens)
                if clickable:
                    cell.stylize(answer_key(str(year)))
                grid.append_text(cell)
                if year < decade + last - 1:  # none after the last: "80er" still fits 40
                    grid.append(" ")
            grid.append("\n")
    return grid


def _cell(
    year: int,
    bonus: Mapping[int, int],
    answers: Sequence[tuple[str, int]],
    tokens: Sequence[Placement],
) -> Text:
    cell = Text(f"{year % 100:02d}")
    if year in bonus:
        cell.append(f"+{bonus[year]}", style="bold yellow")
    letters = "".join(LETTERS.get(c, "?") for c, y in answers if y == year)
    if letters:
        cell.append(letters, style="bold cyan")
    cell.pad_right(CELL - 1 - len(cell))
    for token in tokens:
        if token.spans(year):
            cell.stylize(TOKEN_STYLES.get(token.length, "reverse"))
    return cell


def _team_answers(view: DecadesView, seat: int) -> list[tuple[str, int]]:
    team = view.teams[seat]
    answers = [(q.category, y) for q, y in zip(view.questions, team.answers, strict=False)]
    if seat == view.seat and isinstance(view.pending, Answer) and view.phase == "answer":
        answers.append((view.questions[view.category].category, view.pending.year))
    return answers


def _team_tokens(view: DecadesView, seat: int) -> tuple[Placement, ...] | None:
    tokens = view.teams[seat].tokens
    if tokens is None and seat == view.seat and isinstance(view.pending, Extend):
        return view.pending.tokens
    return tokens


# ----- the UI -------------------------------------------------------------------------


# The tables below are marked with N_ and translated where shown.
STEP_TEXT = {
    "keep": N_("choosing action cards"),
    "extend": N_("placing extension tokens"),
    "card": N_("playing action cards"),
    "target": N_("choosing targets"),
    "over": N_("game over"),
}
STEP_SHORT = {  # narrow terminals
    "keep": N_("choosing"),
    "extend": N_("placing"),
    "card": N_("playing"),
    "target": N_("choosing"),
}
PROMPTS = {
    "keep": N_("Keep which 4 cards? "),
    "answer": N_("Year? "),
    "card": N_("Play which card? "),
    "target": N_("Target? "),
}


MAX_LISTED = 60  # placements listed beside the board (fewer tokens first)


def extend_prompt(legal: Sequence[Any]) -> str:
    """The token question with an example this team may type now (a fixed "4@1987"
    was never legal), or none when no token can be placed.

    >>> extend_prompt([Extend(()), Extend((Placement(2, 1990),))])
    'Tokens (e.g. 2@1990, or - for none)? '
    >>> extend_prompt([Extend(())])
    'Tokens (none can be placed: type none)? '
    """
    placed = [a.tokens for a in legal if isinstance(a, Extend) and a.tokens]
    if not placed:
        return _("Tokens (none can be placed: type none)? ")
    example = max(placed, key=len)
    return _("Tokens (e.g. {example}, or - for none)? ").format(example=tokens_key(example))


def outcome_short(outcome: str) -> str:
    """An outcome for narrow terminals: "85 decade -5" fits a 40-column table (its own
    context, so a language can shorten what the wide table spells out)."""
    return {
        "hit": pgettext("decades outcome, narrow", "hit"),
        "near": pgettext("decades outcome, narrow", "1 off"),
        "far": pgettext("decades outcome, narrow", "2+ off"),
        "other-decade": pgettext("decades outcome, narrow", "decade"),
        "cancelled": pgettext("decades outcome, narrow", "cancel"),
    }[outcome]


SHORT_CATEGORY = {
    "births-deaths": N_("Births"),
    "screen": N_("Screen"),
    "music": N_("Music"),
    "technology": N_("Tech"),
    "sport": N_("Sport"),
    "news": N_("News"),
}


class UI:
    """Rich rendering and keyboard input for The Decades.

    Everything that comes from users (team names, the deck's names and texts) is
    printed as :class:`~rich.text.Text`, never inside markup. Consoles narrower
    than :data:`NARROW` columns get a compact board and score tables.
    """

    parse_command = staticmethod(parse_command)  # the keys, read (TerminalUI)
    # the full screen's board for this game (gamenight.terminal.full.boards)
    board_widget = "gamenight.terminal.decades_board:DecadesBoard"

    def show(self, console: Console, view: DecadesView, seat: int | None, table: Seating) -> None:
        compact = _narrow(console)
        if view.phase in STEP_TEXT:
            step = _(
                STEP_SHORT[view.phase]
                if compact and view.phase in STEP_SHORT
                else STEP_TEXT[view.phase]
            )
        elif compact:
            step = _("question {n}/{of}").format(n=view.category + 1, of=len(CATEGORIES))
        else:
            step = _("question {n} of {of}").format(n=view.category + 1, of=len(CATEGORIES))
        if not view.round:
            round_text = _("Setup")
        elif compact:
            round_text = _("Round {round}/{rounds}").format(round=view.round, rounds=view.rounds)
        else:
            round_text = _("Round {round} of {rounds}").format(round=view.round, rounds=view.rounds)
        banner = _("The Decades · {round} · {step}").format(round=round_text, step=step)
        console.print(heading(banner, console.width))
        scores = Text(_("Scores: "))
        for s in range(2):
            scores.append_text(line_of(who(table, s), " ", (str(view.teams[s].score), "bold")))
            scores.append("   " if s == 0 else "")
        scores.append(
            "  " + _("(track ends at {track})").format(track=view.track)
            if compact
            else "   " + _("(the track ends at {track})").format(track=view.track)
        )
        console.print(scores)
        if view.phase == "answer" and view.category < len(view.questions):
            # the question first, above the boards: in view on any screen (a short one
            # showed the boards and hid the question below them)
            question = view.questions[view.category]
            console.print(
                line_of(
                    ("→ ", "bold"), (f"{category_name(question.category)}: ", "bold"), question.text
                )
            )
        if view.log and view.phase in ("answer", "over") and view.category == 0:
            show_breakdown(console, view.log[-1], table)
        if view.phase != "keep":
            order = [seat, 1 - seat] if seat is not None else [0, 1]
            for s in order:
                team = view.teams[s]
                if s == seat:
                    owner = _("{team} — your board (side {side})")
                else:
                    owner = _("{team} — board (side {side})")
                title = line_of(owner.format(team=name_of(table, s), side=team.side))
                console.print(
                    board_grid(
                        team.side,
                        _team_answers(view, s),
                        _team_tokens(view, s) or (),
                        title,
                        compact=compact,
                        clickable=s == seat and view.phase in ("answer", "extend"),
                    )
                )
                if view.phase != "answer":
                    tokens = tokens_text(_team_tokens(view, s))
                    console.print(
                        Text("  " + _("extension tokens: {tokens}").format(tokens=tokens))
                    )
            if compact:
                legend = " ".join(f"{LETTERS[c]} {_(SHORT_CATEGORY[c])}" for c in CATEGORIES)
            else:
                legend = ", ".join(f"{LETTERS[c]} {category_name(c)}" for c in CATEGORIES)
            console.print(
                Text(
                    "  " + _("letters: {legend}; +5/+3 bonus spaces").format(legend=legend),
                    style="dim",
                )
            )
        self._show_questions(console, view, table)
        self._show_cards(console, view, seat, table)

    def _show_questions(self, console: Console, view: DecadesView, table: Seating) -> None:
        for index, question in enumerate(view.questions):
            years = [
                str(view.teams[s].answers[index]) if index < len(view.teams[s].answers) else "…"
                for s in range(2)
            ]
            current = view.phase == "answer" and index == view.category
            line = line_of(
                ("→" if current else " ", "bold"),
                f" {category_name(question.category)}: ",
                question.text,
            )
            if not current:
                line.append_text(
                    line_of(
                        ("  (", "dim"),
                        who(table, 0, "dim"),
                        (f" {years[0]}, ", "dim"),
                        who(table, 1, "dim"),
                        (f" {years[1]})", "dim"),
                    )
                )
            console.print(line)
        if view.phase == "answer" and isinstance(view.pending, Answer):
            console.print(
                Text(
                    "  "
                    + _("your answer, still hidden from the other team: {year}").format(
                        year=view.pending.year
                    )
                )
            )

    def _show_cards(
        self, console: Console, view: DecadesView, seat: int | None, table: Seating
    ) -> None:
        if seat is not None and view.phase == "keep":
            console.print(Text(_("Your 7 action cards (keep 4):")))
            for i, card in enumerate(view.dealt, start=1):
                console.print(Text(f"  {i}. {card_name(card)}"))
            # each kind's effect once: a hand often holds two or three of one card
            for card in dict.fromkeys(view.dealt):
                console.print(line_of((f"  {card_name(card)}: ", "dim"), card_help(card)))
        elif seat is not None and view.hand:
            held = list(dict.fromkeys(view.hand))
            listing = ", ".join(
                f"{i}. {card_name(c)} ×{view.hand.count(c)}" for i, c in enumerate(held, 1)
            )
            console.print(Text(_("Your action cards: {cards}").format(cards=listing)))
        for s in range(2):
            team = view.teams[s]
            if team.card:
                line = line_of(
                    _("{team} played {card}").format(
                        team=name_of(table, s), card=card_name(team.card)
                    )
                )
                if not team.effective:
                    line.append(" " + _("(no effect)"), style="dim")
                console.print(line)
        if view.pending is not None and view.phase != "answer":
            console.print(
                Text(
                    _("Your choice, hidden until the reveal: {choice}").format(
                        choice=choice_text(view.pending)
                    )
                )
            )

    def show_events(self, console: Console, events: Sequence[DecadesEvent], table: Seating) -> None:
        for event in events:
            text = narrate(event, table)
            if text is not None:
                console.print(text)

    def ask(
        self, prompter: Prompter, view: DecadesView, legal: Sequence[Any], seat: int, table: Seating
    ) -> Any:
        secret = view.phase in SECRET_STEPS
        prompt = _(PROMPTS[view.phase]) if view.phase in PROMPTS else "> "

        def parse(text: str) -> Action | str:
            return parse_command(text, view, legal)

        def on_help(word: str) -> bool:
            if word not in HELP_WORDS:
                return False
            prompter.console.print(Text(_(HELP[view.phase]) if view.phase in HELP else ""))
            tip = self.hint(view, legal)
            if tip:
                prompter.console.print(Text(tip))
            return True

        if view.phase == "extend":  # the example is one this team may place now
            prompt = extend_prompt(legal)
        return ask_until_parsed(
            prompter,
            f"{name_of(table, seat)} · {prompt}",  # the prompter prints prompts as text
            parse,
            on_help,
            secret=secret,
            choices=self.choices(view, legal, table),
        )

    def choices(self, view: DecadesView, legal: Sequence[Any], table: Seating) -> list[Choice]:
        """The answers listed beside the board where they are few enough to read: the
        token placements (keyboard or mouse), the cards, the targets."""
        if view.phase == "extend":
            placements = sorted(
                (a for a in legal if isinstance(a, Extend)), key=lambda a: len(a.tokens)
            )[:MAX_LISTED]
            return [(tokens_key(a.tokens), tokens_text(a.tokens)) for a in placements]
        if view.phase == "card":
            held = [a.card for a in legal if isinstance(a, PlayCard)]
            return [(str(n), card_name(card)) for n, card in enumerate(held, 1)]
        if view.phase == "target":
            offered = [
                *((str(n), category_name(c)) for n, c in enumerate(CATEGORIES, 1)),
                *((str(n), _("token of {n}").format(n=n)) for n in range(1, 6)),
            ]
            return legal_choices(lambda key: parse_command(key, view, legal), legal, offered)
        return []

    def hint(self, view: DecadesView, legal: Sequence[Any]) -> str | None:
        """Reminders of what is possible now (never the answers: hints know no years)."""
        seat = view.seat if view.seat is not None else 0
        if view.phase == "extend":
            starts = sorted(set(view.teams[seat].answers))
            return _("Your answers (tokens start under one of them): {years}").format(
                years=", ".join(map(str, starts))
            )
        if view.phase == "card":
            return "\n".join(
                f"{card_name(a.card)}: {card_help(a.card)}"
                for a in legal
                if isinstance(a, PlayCard)
            )
        if view.phase == "target":
            return _("Choose from: {targets}").format(
                targets=", ".join(target_text(a, None, Seating([], frozenset())) for a in legal)
            )
        return None

    def show_results(
        self, console: Console, results: Results, view: DecadesView, table: Seating
    ) -> None:
        if view.log:
            show_breakdown(console, view.log[-1], table)
        rounds = _table(console, _("Points per round"))
        rounds.add_column(_("Round"))
        for s in range(2):
            rounds.add_column(who(table, s), justify="right")
        for past in view.log:
            points = [sum(c.scores[s].points for c in past.categories) for s in range(2)]
            rounds.add_row(str(past.round), *(signed(p) for p in points))
        rounds.add_row(
            Text(_("Final score"), style="bold"),
            *(Text(str(view.teams[s].score), style="bold") for s in range(2)),
        )
        console.print(rounds)
        if len(results.winners) == 1:
            team = name_of(table, results.winners[0])
            if view.early_win:
                text = _("{team} wins (reached the end of the track).")
            else:
                text = _("{team} wins (after round 4).")
            console.print(line_of((text.format(team=team), "bold")))
        else:
            if view.early_win:
                text = _("A draw at {score} (reached the end of the track).")
            else:
                text = _("A draw at {score} (after round 4).")
            console.print(line_of((text.format(score=view.teams[0].score), "bold")))


def _table(console: Console, title: str) -> RichTable:
    """A score table; narrow consoles get one without borders."""
    if _narrow(console):
        return RichTable(title=title, box=None, padding=(0, 1), pad_edge=False)
    return RichTable(title=title)


def show_breakdown(console: Console, past: RoundLog, table: Seating) -> None:
    """Round ``past``'s scoring, category by category (T5), then the round's score and
    the running total after it (T6), each labelled as such."""
    compact = _narrow(console)
    grid = _table(console, _("Round {round} scoring").format(round=past.round))
    grid.add_column("" if compact else _("Category"))
    grid.add_column(_("Year"), justify="right")
    for s in range(2):
        grid.add_column(who(table, s))
    for line in past.categories:
        cells = []
        for s in range(2):
            score = line.scores[s]
            covered = (
                str(score.answer)
                if score.low == score.high
                else f"{score.answer} ({score.low}-{score.high})"
            )
            bonus = " " + _("+{n} bonus").format(n=score.bonus) if score.bonus else ""
            if compact:
                cells.append(
                    f"{score.answer % 100:02d} {outcome_short(score.outcome)} "
                    f"{signed(score.points)}"
                )
            else:
                cells.append(
                    f"{covered}: {_(OUTCOME_TEXT[score.outcome])} {signed(score.base)}{bonus}"
                )
        name = _(SHORT_CATEGORY[line.category]) if compact else category_name(line.category)
        grid.add_row(name, str(line.year), *cells)
    gained = [sum(c.scores[s].points for c in past.categories) for s in range(2)]
    grid.add_row(
        _("Round") if compact else _("Round {round} score").format(round=past.round),
        "",
        *(signed(g) for g in gained),
        style="bold",
    )
    grid.add_row(
        _("Total") if compact else _("Total after round {round}").format(round=past.round),
        "",
        *(str(t) for t in past.categories[-1].totals),
        style="bold",
    )
    console.print(grid)
    cards = Text("  " + _("cards: "))
    for s in range(2):
        cards.append_text(who(table, s))
        cards.append(f": {card_name(past.cards[s])}")
        if not past.effective[s]:
            cards.append(" " + _("(no effect)"))
        target = past.targets[s]
        if target:
            cards.append(f" → {target_text(target, 1 - s, table)}")
        if s == 0:
            cards.append("; ")
    console.print(cards)
