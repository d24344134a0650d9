"""The Dice Duel terminal module loads numpy (the advisor's tables) only on demand."""

from __future__ import annotations

import subprocess
import sys


def test_the_terminal_module_does_not_import_numpy() -> None:
    code = (
        "import sys, gamenight.terminal.dice_duel as t\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
        "assert 'gamenight.games.dice_duel.advisor' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
