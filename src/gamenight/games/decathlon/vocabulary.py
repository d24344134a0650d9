"""The Decathlon's terms both front ends show (``GameInfo.vocabulary``): the game, its
events and its lobby options, by the browser's message keys. Each is translated through
the gettext catalogues with the key as its context (gamenight.core.vocabulary.vocabulary).
The English equals the game's own names (tests/core/test_vocabulary.py checks it)."""

from __future__ import annotations

from gamenight.core.i18n import N_p

VOCABULARY: dict[str, str] = dict(
    (
        N_p("game.decathlon.name", "Reiner Knizia's Decathlon"),
        N_p(
            "game.decathlon.summary",
            "Ten athletics events played with eight dice: sprints, jumps and throws.",
        ),
        N_p("dec.event.100m", "100 Metres"),
        N_p("dec.event.long-jump", "Long Jump"),
        N_p("dec.event.shot-put", "Shot Put"),
        N_p("dec.event.high-jump", "High Jump"),
        N_p("dec.event.400m", "400 Metres"),
        N_p("dec.event.110m-hurdles", "110 Metre Hurdles"),
        N_p("dec.event.discus", "Discus"),
        N_p("dec.event.pole-vault", "Pole Vault"),
        N_p("dec.event.javelin", "Javelin"),
        N_p("dec.event.1500m", "1500 Metres"),
        N_p("opt.decathlon.variant", "Variant"),
        N_p(
            "opt.decathlon.variant.help",
            "Points: the highest total wins. Championship: medals in every event, "
            "the most honours win.",
        ),
        N_p("opt.decathlon.variant.points", "Points"),
        N_p("opt.decathlon.variant.championship", "Championship"),
        N_p("opt.decathlon.events", "Events"),
        N_p(
            "opt.decathlon.events.help",
            "Play the whole decathlon or any of its events; they are always played in this order.",
        ),
        N_p("opt.decathlon.events.100m", "100 Metres"),
        N_p("opt.decathlon.events.long-jump", "Long Jump"),
        N_p("opt.decathlon.events.shot-put", "Shot Put"),
        N_p("opt.decathlon.events.high-jump", "High Jump"),
        N_p("opt.decathlon.events.400m", "400 Metres"),
        N_p("opt.decathlon.events.110m-hurdles", "110 Metre Hurdles"),
        N_p("opt.decathlon.events.discus", "Discus"),
        N_p("opt.decathlon.events.pole-vault", "Pole Vault"),
        N_p("opt.decathlon.events.javelin", "Javelin"),
        N_p("opt.decathlon.events.1500m", "1500 Metres"),
    )
)
