"""The Decades at the terminal: boards as 4x10 year grids, hands, and score breakdowns.

Entries that are secrets until the reveal (kept cards, years, tokens, the card
played) are read with ``secret=True``, so hot-seat play does not echo them; the
CLI clears the screen and asks for the terminal to be passed between teams
(``GameInfo.hidden_info``). Parsing lives in :mod:`gamenight.terminal.decades_keys`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core.game import Results
from gamenight.games.decades.boards import DECADES, SIDES
from gamenight.games.decades.cards import CARDS
from gamenight.games.decades.deck import CATEGORIES, CATEGORY_NAMES
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
from gamenight.terminal.decades_keys import HELP, parse_command
from gamenight.terminal.decades_text import (
    OUTCOME_TEXT,
    choice_text,
    line_of,
    name_of,
    narrate,
    signed,
    target_text,
    tokens_text,
    who,
)
from gamenight.terminal.ui import HELP_WORDS, Prompter, Seating, ask_until_parsed

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
) -> Text:
    """A 4x10 grid: one row per decade, bonus spaces marked, answers as category letters.

    Years under an extension token are shaded (one colour per token length). The
    ``compact`` grid (narrow terminals) splits each decade into two rows of 5 years
    and fits 40 columns.
    """
    bonus = SIDES[side].bonus_map
    grid = Text(style="")
    grid.append_text(title if isinstance(title, Text) else Text(title))
    grid.stylize("bold")
    grid.append("\n")
    if not compact:
        grid.append("      " + "".join(f"x{unit}".ljust(CELL) for unit in range(10)) + "\n", "dim")
    halves = ((0, 5), (5, 10)) if compact else ((0, 10),)
    for decade in DECADES:
        for first, last in halves:
            if compact:
                label = f"{decade % 100:02d}s " if first == 0 else "    "
            else:
                label = f"{decade}s "
            grid.append(label, style="bold")
            for year in range(decade + first, decade + last):
                grid.append_text(_cell(year, bonus, answers, tokens))
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


STEP_TEXT = {
    "keep": "choosing action cards",
    "extend": "placing extension tokens",
    "card": "playing action cards",
    "target": "choosing targets",
    "over": "game over",
}
PROMPTS = {
    "keep": "Keep which 4 cards? ",
    "answer": "Year? ",
    "extend": "Tokens (e.g. 4@1987 2@01, or none)? ",
    "card": "Play which card? ",
    "target": "Target? ",
}
OUTCOME_SHORT = {  # narrow terminals: "85 decade -5" fits a 40-column table
    "hit": "hit",
    "near": "1 off",
    "far": "2+ off",
    "other-decade": "decade",
    "cancelled": "cancel",
}
SHORT_CATEGORY = {
    "births-deaths": "Births",
    "screen": "Screen",
    "music": "Music",
    "technology": "Tech",
    "sport": "Sport",
    "news": "News",
}


class UI:
    """Rich rendering and keyboard input for The Decades.

    Everything that comes from users (team names, the deck's names and texts) is
    printed as :class:`~rich.text.Text`, never inside markup. Consoles narrower
    than :data:`NARROW` columns get a compact board and score tables.
    """

    parse_command = staticmethod(parse_command)  # the keys, read (TerminalUI)

    def show(self, console: Console, view: DecadesView, seat: int | None, table: Seating) -> None:
        compact = _narrow(console)
        of = "/" if compact else " of "
        step = STEP_TEXT.get(view.phase, f"question {view.category + 1}{of}{len(CATEGORIES)}")
        round_text = f"Round {view.round}{of}{view.rounds}" if view.round else "Setup"
        if compact and view.phase in ("keep", "extend", "card", "target"):
            step = step.split()[0]
        console.print(Rule(f"The Decades · {round_text} · {step}"))
        scores = Text("Scores: ")
        for s in range(2):
            scores.append_text(line_of(who(table, s), " ", (str(view.teams[s].score), "bold")))
            scores.append("   " if s == 0 else "")
        scores.append(
            f"  (track ends at {view.track})" if compact else f"   (the track ends at {view.track})"
        )
        console.print(scores)
        if view.log and view.phase in ("answer", "over") and view.category == 0:
            show_breakdown(console, view.log[-1], table)
        if view.phase != "keep":
            order = [seat, 1 - seat] if seat is not None else [0, 1]
            for s in order:
                team = view.teams[s]
                owner = "your board" if s == seat else "board"
                title = line_of(who(table, s), f" — {owner} (side {team.side})")
                console.print(
                    board_grid(
                        team.side,
                        _team_answers(view, s),
                        _team_tokens(view, s) or (),
                        title,
                        compact=compact,
                    )
                )
                if view.phase != "answer":
                    console.print(Text(f"  extension tokens: {tokens_text(_team_tokens(view, s))}"))
            if compact:
                legend = " ".join(f"{LETTERS[c]} {SHORT_CATEGORY[c]}" for c in CATEGORIES)
            else:
                legend = ", ".join(f"{LETTERS[c]} {CATEGORY_NAMES[c]}" for c in CATEGORIES)
            console.print(Text(f"  letters: {legend}; +5/+3 bonus spaces", style="dim"))
        self._show_questions(console, view, table)
        self._show_cards(console, view, seat, table)

    def _show_questions(self, console: Console, view: DecadesView, table: Seating) -> None:
        for index, question in enumerate(view.questions):
            years = [
                str(view.teams[s].answers[index]) if index < len(view.teams[s].answers) else "…"
                for s in range(2)
            ]
            current = view.phase == "answer" and index == view.category
            line = line_of(("→" if current else " ", "bold"), f" {question.name}: ", question.text)
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
                Text(f"  your answer, still hidden from the other team: {view.pending.year}")
            )

    def _show_cards(
        self, console: Console, view: DecadesView, seat: int | None, table: Seating
    ) -> None:
        if seat is not None and view.phase == "keep":
            console.print(Text("Your 7 action cards (keep 4):"))
            for i, card in enumerate(view.dealt, start=1):
                console.print(Text(f"  {i}. {CARDS[card].name}"))
            # each kind's effect once: a hand often holds two or three of one card
            for card in dict.fromkeys(view.dealt):
                console.print(line_of((f"  {CARDS[card].name}: ", "dim"), CARDS[card].text))
        elif seat is not None and view.hand:
            held = list(dict.fromkeys(view.hand))
            listing = ", ".join(
                f"{i}. {CARDS[c].name} ×{view.hand.count(c)}" for i, c in enumerate(held, 1)
            )
            console.print(Text(f"Your action cards: {listing}"))
        for s in range(2):
            team = view.teams[s]
            if team.card:
                line = line_of(who(table, s), f" played {CARDS[team.card].name}")
                if not team.effective:
                    line.append(" (no effect)", style="dim")
                console.print(line)
        if view.pending is not None and view.phase != "answer":
            console.print(
                Text(f"Your choice, hidden until the reveal: {choice_text(view.pending)}")
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
        prompt = PROMPTS.get(view.phase, "> ")

        def parse(text: str) -> Action | str:
            return parse_command(text, view, legal)

        def on_help(word: str) -> bool:
            if word not in HELP_WORDS:
                return False
            prompter.console.print(Text(HELP.get(view.phase, "")))
            tip = self.hint(view, legal)
            if tip:
                prompter.console.print(Text(tip))
            return True

        return ask_until_parsed(
            prompter,
            f"{name_of(table, seat)} · {prompt}",  # the prompter prints prompts as text
            parse,
            on_help,
            secret=secret,
        )

    def hint(self, view: DecadesView, legal: Sequence[Any]) -> str | None:
        """Reminders of what is possible now (never the answers: hints know no years)."""
        seat = view.seat if view.seat is not None else 0
        if view.phase == "extend":
            starts = sorted(set(view.teams[seat].answers))
            return "Your answers (tokens start under one of them): " + ", ".join(map(str, starts))
        if view.phase == "card":
            return "\n".join(
                f"{CARDS[a.card].name}: {CARDS[a.card].text}"
                for a in legal
                if isinstance(a, PlayCard)
            )
        if view.phase == "target":
            return "Choose from: " + ", ".join(
                target_text(a, None, Seating([], frozenset())) for a in legal
            )
        return None

    def show_results(
        self, console: Console, results: Results, view: DecadesView, table: Seating
    ) -> None:
        if view.log:
            show_breakdown(console, view.log[-1], table)
        rounds = _table(console, "Points per round")
        rounds.add_column("Round")
        for s in range(2):
            rounds.add_column(who(table, s), justify="right")
        for past in view.log:
            points = [sum(c.scores[s].points for c in past.categories) for s in range(2)]
            rounds.add_row(str(past.round), *(signed(p) for p in points))
        rounds.add_row(
            Text("Final score", style="bold"),
            *(Text(str(view.teams[s].score), style="bold") for s in range(2)),
        )
        console.print(rounds)
        how = "reached the end of the track" if view.early_win else "after round 4"
        if len(results.winners) == 1:
            console.print(
                line_of(who(table, results.winners[0], "bold"), (" wins", "bold"), f" ({how}).")
            )
        else:
            console.print(line_of(("A draw", "bold"), f" at {view.teams[0].score} ({how})."))


def _table(console: Console, title: str) -> RichTable:
    """A score table; narrow consoles get one without borders."""
    if _narrow(console):
        return RichTable(title=title, box=None, padding=(0, 1), pad_edge=False)
    return RichTable(title=title)


def show_breakdown(console: Console, past: RoundLog, table: Seating) -> None:
    """Round ``past``'s scoring, category by category (T5), then the round's score and
    the running total after it (T6), each labelled as such."""
    compact = _narrow(console)
    grid = _table(console, f"Round {past.round} scoring")
    grid.add_column("" if compact else "Category")
    grid.add_column("Year", justify="right")
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
            bonus = f" +{score.bonus} bonus" if score.bonus else ""
            if compact:
                cells.append(
                    f"{score.answer % 100:02d} {OUTCOME_SHORT[score.outcome]} "
                    f"{signed(score.points)}"
                )
            else:
                cells.append(
                    f"{covered}: {OUTCOME_TEXT[score.outcome]} {signed(score.base)}{bonus}"
                )
        name = SHORT_CATEGORY[line.category] if compact else CATEGORY_NAMES[line.category]
        grid.add_row(name, str(line.year), *cells)
    gained = [sum(c.scores[s].points for c in past.categories) for s in range(2)]
    grid.add_row(
        "Round" if compact else f"Round {past.round} score",
        "",
        *(signed(g) for g in gained),
        style="bold",
    )
    grid.add_row(
        "Total" if compact else f"Total after round {past.round}",
        "",
        *(str(t) for t in past.categories[-1].totals),
        style="bold",
    )
    console.print(grid)
    cards = Text("  cards: ")
    for s in range(2):
        cards.append_text(who(table, s))
        cards.append(f": {CARDS[past.cards[s]].name}")
        if not past.effective[s]:
            cards.append(" (no effect)")
        target = past.targets[s]
        if target:
            cards.append(f" → {target_text(target, 1 - s, table)}")
        if s == 0:
            cards.append("; ")
    console.print(cards)
