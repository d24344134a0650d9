"""Wurfeltod's terms both front ends show (``GameInfo.vocabulary``): the game and its
score-sheet categories (the boxes), by the browser's message keys. Each is translated
through the gettext catalogues with the key as its context. The English equals the game's
own names (tests/core/test_vocabulary.py checks it)."""

from __future__ import annotations

from gamenight.core.i18n import N_p

VOCABULARY: dict[str, str] = dict(
    (
        N_p("game.wurfeltod.name", "Wurfeltod"),
        N_p(
            "game.wurfeltod.summary",
            "Roll six dice, set some aside after every roll and book one of 20 boxes a turn; "
            "any die of the last roll left out of the booking costs a Wurfeltod (-250).",
        ),
        N_p("wt.cat.any-pair", "Any Pair"),
        N_p("wt.cat.two-pair", "Two Pair"),
        N_p("wt.cat.1-1-1", "1-1-1"),
        N_p("wt.cat.2-2-2", "2-2-2"),
        N_p("wt.cat.3-3-3", "3-3-3"),
        N_p("wt.cat.4-4-4", "4-4-4"),
        N_p("wt.cat.5-5-5", "5-5-5"),
        N_p("wt.cat.6-6-6", "6-6-6"),
        N_p("wt.cat.sum-25", "Sum Total 25+"),
        N_p("wt.cat.four-of-a-kind", "Four of a Kind"),
        N_p("wt.cat.three-pairs", "Three Pairs"),
        N_p("wt.cat.two-triplets", "Two Triplets"),
        N_p("wt.cat.four-and-pair", "Four of a Kind + a Pair"),
        N_p("wt.cat.five-of-a-kind", "Five of a Kind"),
        N_p("wt.cat.five-straight", "5-Die Straight"),
        N_p("wt.cat.sequential-pairs", "Sequential Pairs"),
        N_p("wt.cat.six-of-a-kind", "Six of a Kind"),
        N_p("wt.cat.six-straight", "6-Die Straight"),
        N_p("wt.cat.face-value", "Face Value Total ×10"),
    )
)
