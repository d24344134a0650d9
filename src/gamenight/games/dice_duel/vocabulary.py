"""Kniffel Dice Duel's terms both front ends show (``GameInfo.vocabulary``): the game, its
combinations (the chips) and its lobby options, by the browser's message keys. Each is
translated through the gettext catalogues with the key as its context. The English equals
the game's own names (tests/core/test_vocabulary.py checks it)."""

from __future__ import annotations

from gamenight.core.i18n import N_p

VOCABULARY: dict[str, str] = dict(
    (
        N_p("game.dice-duel.name", "Kniffel Dice Duel"),
        N_p(
            "game.dice-duel.summary",
            "Roll five dice up to three times and take scoring chips for the combinations "
            "you make; a Kniffel takes any chip and plays again. 2–6 players, or solo.",
        ),
        N_p("dd.combo.two-pairs", "Two pairs"),
        N_p("dd.combo.three-of-a-kind", "Three of a kind"),
        N_p("dd.combo.small-straight", "Small straight"),
        N_p("dd.combo.flush", "Flush"),
        N_p("dd.combo.full-house", "Full house"),
        N_p("dd.combo.four-of-a-kind", "Four of a kind"),
        N_p("dd.combo.large-straight", "Large straight"),
        N_p("opt.dice-duel.mode", "Mode"),
        N_p(
            "opt.dice-duel.mode.help",
            "Against each other: 2 to 6 players. Solo: one player chasing 1000 points.",
        ),
        N_p("opt.dice-duel.mode.multi", "Against each other"),
        N_p("opt.dice-duel.mode.solo", "Solo"),
    )
)
