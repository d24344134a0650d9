"""gamenight: play, study and solve a shelf of tabletop games.

The public kernel lives in :mod:`gamenight.core`; each game is a package under
:mod:`gamenight.games`.
"""

__version__ = "0.1.0"
