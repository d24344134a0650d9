"""Click's own words that a person reads in ``gamenight``'s help and usage errors, marked
for the catalogues: click looks them up through ``gettext`` (``gamenight.cli.helptext``
points it at ours), with exactly these English msgids (click 8). A word not listed here
stays English."""

from __future__ import annotations

from gamenight.core.i18n import N_, ngettext

HELP = (
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Positional arguments"),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
    N_("default: {default}"),
    N_("required"),
)
ERRORS = (
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Missing command."),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Option {name!r} does not take a value."),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("Aborted!"),
)


def _plural(n: int) -> tuple[str, ...]:  # never called: it marks click's plural messages
    return (
        ngettext(
            "Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", n
        ),
        ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", n),
    )
