"""Words for terminal text: counts with the right plural.

>>> plural(1, "action"), plural(2, "action"), plural(0, "die", "dice"), plural(1, "die", "dice")
('1 action', '2 actions', '0 dice', '1 die')
"""

from __future__ import annotations


def plural(count: int, one: str, many: str | None = None) -> str:
    """``count`` and the noun that fits it (``many`` defaults to ``one`` + "s")."""
    return f"{count} {one if count == 1 else (many or one + 's')}"
