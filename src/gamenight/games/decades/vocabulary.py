"""The Decades' terms both front ends show (``GameInfo.vocabulary``): the game, the
question categories, the action cards and what they do, the bonus spaces and the lobby
options, by the browser's message keys. Each is translated through the gettext
catalogues with the key as its context. The English equals the game's own names
(tests/core/test_vocabulary.py checks it). The questions are the deck's, not these."""

from __future__ import annotations

from gamenight.core.i18n import N_p

VOCABULARY: dict[str, str] = dict(
    (
        N_p("game.decades.name", "The Decades"),
        N_p(
            "game.decades.summary",
            "Two teams secretly bet on the year of six events a round, stretch their "
            "answers with extension tokens and sabotage each other with action cards.",
        ),
        N_p("dc.cat.births-deaths", "Births and Deaths"),
        N_p("dc.cat.screen", "Cinema, TV and Video Games"),
        N_p("dc.cat.music", "Music"),
        N_p("dc.cat.technology", "Objects and Technology"),
        N_p("dc.cat.sport", "Sport and Hobbies"),
        N_p("dc.cat.news", "News and Society"),
        N_p("dc.card.remove-token", "Remove the Year Extension token"),
        N_p("dc.card.cancel-answer", "Cancel the answer"),
        N_p("dc.card.blocked", "Blocked"),
        N_p(
            "dc.card_help.remove-token",
            "Choose one of the other team's extension tokens; it does not count this round.",
        ),
        N_p(
            "dc.card_help.cancel-answer",
            "Choose one of the other team's six answers; it scores 0 this round.",
        ),
        N_p("dc.card_help.blocked", "The other team's card has no effect this round."),
        N_p("dc.bonus", "bonus year +{n}"),
        N_p("opt.decades.deck", "Deck"),
        N_p("opt.decades.deck.default", "The shipped deck"),
        N_p(
            "opt.decades.deck.help",
            "The question cards: the deck that comes with the game, or another deck "
            "this server holds.",
        ),
        N_p("opt.decades.track", "Points to win early"),
        N_p("opt.decades.track.help", "A team that reaches this score wins at once."),
        N_p("opt.decades.sides", "Board sides (team 1, team 2)"),
        N_p("opt.decades.sides.help", "The two board sides differ only in their bonus spaces."),
        N_p("opt.decades.sides.A", "Side A"),
        N_p("opt.decades.sides.B", "Side B"),
    )
)
