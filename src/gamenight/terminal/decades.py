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
from gamenight.games.decades.rules import (
    Action,
    Answer,
    CancelAnswer,
    Extend,
    Hidden,
    Keep,
    PlayCard,
    RemoveToken,
    RoundLog,
    Target,
)
from gamenight.games.decades.tokens import Placement
from gamenight.games.decades.view import DecadesView
from gamenight.terminal.decades_keys import HELP, parse_command
from gamenight.terminal.ui import HELP_WORDS, Prompter, Table, ask_until_parsed

# One letter per category, in T2 order, to mark answer tokens on the grid.
LETTERS = dict(zip(CATEGORIES, "BCMTSN", strict=True))
CELL = 7  # characters per year on the grid (10 years + the row label fit in 80 columns)
SECRET_STEPS = ("keep", "answer", "extend", "card")
TOKEN_STYLES = {2: "on dark_blue", 3: "on dark_green", 4: "on dark_magenta"}
OUTCOME_TEXT = {
    "hit": "hit",
    "near": "1 off",
    "far": "2+ off",
    "other-decade": "wrong decade",
    "cancelled": "cancelled",
}


NARROW = 78  # consoles narrower than this get the compact layout


def _name(table: Table, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return table.names[seat] if seat < len(table.names) else f"team {seat + 1}"


def _who(table: Table, seat: int | None, style: str = "") -> Text:
    """A team's name as text: names are user text, never markup."""
    return Text(_name(table, seat), style=style)


def _signed(points: int) -> str:
    return f"{points:+d}"


def _line(*parts: str | Text | tuple[str, str]) -> Text:
    """One line from plain strings, (string, style) pairs and Text; no markup anywhere."""
    return Text.assemble(*parts)


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


def _tokens_text(tokens: Sequence[Placement] | None) -> str:
    if tokens is None:
        return "hidden until the reveal"
    if not tokens:
        return "none"
    return ", ".join(f"{t.length} years {t.start}-{t.end}" for t in tokens)


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

    def show(self, console: Console, view: DecadesView, seat: int | None, table: Table) -> None:
        compact = _narrow(console)
        of = "/" if compact else " of "
        step = STEP_TEXT.get(view.phase, f"question {view.category + 1}{of}{len(CATEGORIES)}")
        round_text = f"Round {view.round}{of}{view.rounds}" if view.round else "Setup"
        if compact and view.phase in ("keep", "extend", "card", "target"):
            step = step.split()[0]
        console.print(Rule(f"The Decades · {round_text} · {step}"))
        scores = Text("Scores: ")
        for s in range(2):
            scores.append_text(_line(_who(table, s), " ", (str(view.teams[s].score), "bold")))
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
                title = _line(_who(table, s), f" — {owner} (side {team.side})")
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
                    console.print(
                        Text(f"  extension tokens: {_tokens_text(_team_tokens(view, s))}")
                    )
            if compact:
                legend = " ".join(f"{LETTERS[c]} {SHORT_CATEGORY[c]}" for c in CATEGORIES)
            else:
                legend = ", ".join(f"{LETTERS[c]} {CATEGORY_NAMES[c]}" for c in CATEGORIES)
            console.print(Text(f"  letters: {legend}; +5/+3 bonus spaces", style="dim"))
        self._show_questions(console, view, table)
        self._show_cards(console, view, seat, table)

    def _show_questions(self, console: Console, view: DecadesView, table: Table) -> None:
        for index, question in enumerate(view.questions):
            years = [
                str(view.teams[s].answers[index]) if index < len(view.teams[s].answers) else "…"
                for s in range(2)
            ]
            current = view.phase == "answer" and index == view.category
            line = _line(("→" if current else " ", "bold"), f" {question.name}: ", question.text)
            if not current:
                line.append_text(
                    _line(
                        ("  (", "dim"),
                        _who(table, 0, "dim"),
                        (f" {years[0]}, ", "dim"),
                        _who(table, 1, "dim"),
                        (f" {years[1]})", "dim"),
                    )
                )
            console.print(line)
        if view.phase == "answer" and isinstance(view.pending, Answer):
            console.print(
                Text(f"  your answer, still hidden from the other team: {view.pending.year}")
            )

    def _show_cards(
        self, console: Console, view: DecadesView, seat: int | None, table: Table
    ) -> None:
        if seat is not None and view.phase == "keep":
            console.print(Text("Your 7 action cards (keep 4):"))
            for i, card in enumerate(view.dealt, start=1):
                console.print(Text(f"  {i}. {CARDS[card].name} — {CARDS[card].text}"))
        elif seat is not None and view.hand:
            held = list(dict.fromkeys(view.hand))
            listing = ", ".join(
                f"{i}. {CARDS[c].name} ×{view.hand.count(c)}" for i, c in enumerate(held, 1)
            )
            console.print(Text(f"Your action cards: {listing}"))
        for s in range(2):
            team = view.teams[s]
            if team.card:
                line = _line(_who(table, s), f" played {CARDS[team.card].name}")
                if not team.effective:
                    line.append(" (no effect)", style="dim")
                console.print(line)
        if view.pending is not None and view.phase != "answer":
            console.print(
                Text(f"Your choice, hidden until the reveal: {_choice_text(view.pending)}")
            )

    def show_events(self, console: Console, events: Sequence[DecadesEvent], table: Table) -> None:
        for event in events:
            text = narrate(event, table)
            if text is not None:
                console.print(text)

    def ask(
        self, prompter: Prompter, view: DecadesView, legal: Sequence[Any], seat: int, table: Table
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
            f"{_name(table, seat)} · {prompt}",  # the prompter prints prompts as text
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
                _target_text(a, None, Table([], frozenset())) for a in legal
            )
        return None

    def show_results(
        self, console: Console, results: Results, view: DecadesView, table: Table
    ) -> None:
        if view.log:
            show_breakdown(console, view.log[-1], table)
        rounds = _table(console, "Points per round")
        rounds.add_column("Round")
        for s in range(2):
            rounds.add_column(_who(table, s), justify="right")
        for past in view.log:
            points = [sum(c.scores[s].points for c in past.categories) for s in range(2)]
            rounds.add_row(str(past.round), *(_signed(p) for p in points))
        rounds.add_row(
            Text("Final score", style="bold"),
            *(Text(str(view.teams[s].score), style="bold") for s in range(2)),
        )
        console.print(rounds)
        how = "reached the end of the track" if view.early_win else "after round 4"
        if len(results.winners) == 1:
            console.print(
                _line(_who(table, results.winners[0], "bold"), (" wins", "bold"), f" ({how}).")
            )
        else:
            console.print(_line(("A draw", "bold"), f" at {view.teams[0].score} ({how})."))


def _table(console: Console, title: str) -> RichTable:
    """A score table; narrow consoles get one without borders."""
    if _narrow(console):
        return RichTable(title=title, box=None, padding=(0, 1), pad_edge=False)
    return RichTable(title=title)


def show_breakdown(console: Console, past: RoundLog, table: Table) -> None:
    """Round ``past``'s scoring, category by category (T5), then the round's score and
    the running total after it (T6), each labelled as such."""
    compact = _narrow(console)
    grid = _table(console, f"Round {past.round} scoring")
    grid.add_column("" if compact else "Category")
    grid.add_column("Year", justify="right")
    for s in range(2):
        grid.add_column(_who(table, s))
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
                    f"{_signed(score.points)}"
                )
            else:
                cells.append(
                    f"{covered}: {OUTCOME_TEXT[score.outcome]} {_signed(score.base)}{bonus}"
                )
        name = SHORT_CATEGORY[line.category] if compact else CATEGORY_NAMES[line.category]
        grid.add_row(name, str(line.year), *cells)
    gained = [sum(c.scores[s].points for c in past.categories) for s in range(2)]
    grid.add_row(
        "Round" if compact else f"Round {past.round} score",
        "",
        *(_signed(g) for g in gained),
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
        cards.append_text(_who(table, s))
        cards.append(f": {CARDS[past.cards[s]].name}")
        if not past.effective[s]:
            cards.append(" (no effect)")
        target = past.targets[s]
        if target:
            cards.append(f" → {_target_text(target, 1 - s, table)}")
        if s == 0:
            cards.append("; ")
    console.print(cards)


def _target_text(target: Target | Any, victim: int | None, table: Table) -> str:
    whose = f"{_name(table, victim)}'s " if victim is not None else ""
    if isinstance(target, RemoveToken):
        return f"remove {whose}{target.length}-year token"
    if isinstance(target, CancelAnswer):
        return f"cancel {whose}{CATEGORY_NAMES[target.category]} answer"
    return str(target)


def _choice_text(choice: Action) -> str:
    if isinstance(choice, Keep):
        return ", ".join(CARDS[c].name for c in choice.cards)
    if isinstance(choice, Answer):
        return str(choice.year)
    if isinstance(choice, Extend):
        return _tokens_text(choice.tokens)
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


def narrate(event: DecadesEvent, table: Table) -> Text | None:
    """One line for an event (None for events with nothing to say); plain text with
    styles, so names and deck texts are never read as markup."""
    if isinstance(event, Setup):
        sides = "/".join(event.sides)
        return _line(
            f"The Decades: {event.rounds} rounds, score track to {event.track}, "
            f"board sides {sides}, deck {event.deck!r} ({event.deck_cards} cards)."
        )
    if isinstance(event, KeepStep):
        return _line(f"Each team draws {event.dealt} action cards and keeps {event.keep}.")
    if isinstance(event, Hand):
        return _line(
            _who(table, event.team), " drew: " + ", ".join(CARDS[c].name for c in event.cards)
        )
    if isinstance(event, Ready):
        return _line(_who(table, event.team, "dim"), (" has chosen.", "dim"))
    if isinstance(event, Chosen):  # the team's own secret choice, sent to that team only (T7)
        return _line(
            _who(table, event.team, "dim"),
            (f" chose (hidden from the other team): {_choice_text(event.choice)}", "dim"),
        )
    if isinstance(event, Kept):
        return _line("Both teams have kept their action cards.")
    if isinstance(event, RoundBegins):
        return _line((f"— Round {event.round} of {event.rounds} —", "bold"))
    if isinstance(event, Asked):
        return _line((f"{event.name}:", "bold"), " ", event.text)
    if isinstance(event, AnswersRevealed):
        years = event.years
        return _line(
            f"  {CATEGORY_NAMES[event.category]}: ",
            _who(table, 0),
            f" {years[0]}, ",
            _who(table, 1),
            f" {years[1]}",
        )
    if isinstance(event, ExtendStep):
        return _line("Both teams place their extension tokens.")
    if isinstance(event, BoardsRevealed):
        line = Text("Boards revealed. Tokens — ")
        for s, tokens in enumerate(event.tokens):
            line.append_text(_line(_who(table, s), f": {_tokens_text(tokens)}"))
            line.append("; " if s == 0 else "")
        return line
    if isinstance(event, CardsRevealed):
        line = Text("Cards revealed — ")
        for s, (card, note) in enumerate(zip(event.cards, event.notes, strict=True)):
            line.append_text(_line(_who(table, s), f": {CARDS[card].name} ({CARD_NOTES[note]})"))
            line.append("; " if s == 0 else "")
        return line
    if isinstance(event, TargetChosen):
        return _line(
            _who(table, event.team),
            f" chooses: {_target_text(event.target, 1 - event.team, table)}",
        )
    if isinstance(event, Scored):
        line = _line(
            f"  {CATEGORY_NAMES[event.category]} — it was ",
            (str(event.year), "bold"),
            " ",
            (f"({event.source})", "dim"),
            ": ",
        )
        for s, score in enumerate(event.scores):
            bonus = f" (incl. bonus +{score.bonus})" if score.bonus else ""
            line.append_text(_who(table, s))
            line.append(
                f" {score.answer} {OUTCOME_TEXT[score.outcome]} {_signed(score.points)}{bonus}"
            )
            line.append("; " if s == 0 else "")
        line.append(f"  → {event.totals[0]}:{event.totals[1]}")
        return line
    if isinstance(event, GameOver):
        how = " (end of the track reached)" if event.early_win else ""
        if len(event.winners) == 1:
            high, low = max(event.scores), min(event.scores)
            return _line(
                _who(table, event.winners[0], "bold"), (f" wins {high} to {low}{how}.", "bold")
            )
        return _line((f"Draw at {event.scores[0]}{how}.", "bold"))
    return None
