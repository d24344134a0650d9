"""The kernel tests' toy game: the example plug-in's (tests/plugins/toy), re-exported.

``tests/plugins/toy`` is on pytest's path too, so this works whether or not the
plug-in is installed (``make`` installs it; its entry point is what registers it).
"""

from gamenight_toy.game import (
    GAME,
    Bust,
    Held,
    Hold,
    Roll,
    Rolled,
    Started,
    ToyAction,
    ToyEvent,
    ToyGame,
    ToyState,
    ToyView,
)

__all__ = [
    "GAME",
    "Bust",
    "Held",
    "Hold",
    "Roll",
    "Rolled",
    "Started",
    "ToyAction",
    "ToyEvent",
    "ToyGame",
    "ToyState",
    "ToyView",
]
