"""The Decades' own board widget on the full screen (``UI.board_widget``): the generic
board (:class:`gamenight.terminal.full.boards.Board`), and while a year is asked the
arrow keys walk the years of the grid, one at a time, and the year on the prompt line
is marked on the player's own grid (a click on a year puts it there too: the grid's
years carry ``terminal.ui.answer_key``). While tokens are asked, a click on a year of
the own grid places a token there, makes it longer, or takes it off (``click_token``),
and the years the line's tokens would cover are marked. Imported only by the full screen.
"""

from __future__ import annotations

from gamenight.games.decades.boards import FIRST_YEAR, LAST_YEAR
from gamenight.terminal.decades_keys import click_token, parse_year, token_years
from gamenight.terminal.full.boards import Board, answer_clicks


def stepped(line: str, step: int, start: int = FIRST_YEAR) -> int:
    """The year ``step`` years from the one on ``line`` (``start`` if it holds none),
    kept on the board.

    >>> stepped("1987", 1), stepped("87", -1), stepped("", 1), stepped("2019", 1)
    (1988, 1986, 1980, 2019)
    """
    year = parse_year(line)
    if year is None:
        return start
    return min(LAST_YEAR, max(FIRST_YEAR, year + step))


class DecadesBoard(Board):
    """The generic board, with the years walked by the arrow keys while one is asked."""

    def can_step(self) -> bool:
        view = self.view
        return view is not None and getattr(view, "phase", None) == "answer"

    def step(self, line: str, step: int) -> str | None:
        if not self.can_step():
            return None
        return str(stepped(line, step))

    def _phase(self) -> str | None:
        return getattr(self.view, "phase", None) if self.view is not None else None

    def marked(self, line: str) -> frozenset[str]:
        if self._phase() != "extend":
            return super().marked(line)
        return frozenset(c for year in token_years(line) for c in answer_clicks(str(year)))

    def clicked(self, line: str, word: str) -> str:
        year = parse_year(word)
        if self._phase() != "extend" or year is None or self.view.seat is None:
            return super().clicked(line, word)
        return click_token(line, year, self.view.teams[self.view.seat].answers)
