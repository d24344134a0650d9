"""Reinforcement-learning environments for every registered game (``pip install gamenight[rl]``).

* :func:`aec_env` -- a PettingZoo ``AECEnv`` for any game (its codec, or the generic one:
  :mod:`gamenight.envs.codecs`);
* :func:`parallel_env` -- a PettingZoo ``ParallelEnv`` for a game with simultaneous
  choices (``GameInfo.simultaneous``: The Decades);
* Gymnasium ``gamenight/<Game>-v0`` for every game one seat can play
  (``Decathlon-v0``, ``Wurfeltod-v0``, ``DiceDuelSolo-v0``, a plug-in's), its vector
  form by ``gym.make_vec`` (:mod:`gamenight.envs.vector`), and one learner against
  fixed bots (``gamenight/<Game>VsBot-v0``: :mod:`gamenight.envs.versus`), all
  registered on import by iterating the registry;
* :func:`gamenight.envs.evaluate.evaluate`: a policy's regret against the optimum.

Every encoding, the rewards and the seeding are in ``docs/rl.md``.
"""

from __future__ import annotations

from typing import Any

from gamenight.core import registry
from gamenight.core.extras import require

# Gymnasium and PettingZoo are the [rl] extra: without them, importing any of
# gamenight.envs is one line naming it (a MissingExtraError), not an ImportError's chain.
require("gamenight.envs", "rl")

from gamenight.envs.gymnasium_envs import register  # noqa: E402
from gamenight.envs.pettingzoo_envs import (  # noqa: E402
    DecadesParallel,
    GamenightAEC,
    GamenightParallel,
)
from gamenight.envs.versus import register as register_versus  # noqa: E402

__all__ = ["DecadesParallel", "GamenightAEC", "GamenightParallel", "aec_env", "parallel_env"]

GAME_IDS = tuple(e.id for e in registry.available())  # every game has environments


def aec_env(game_id: str, players: int | None = None, **options: Any) -> GamenightAEC:
    """A PettingZoo AEC environment for ``game_id`` (default: 2 seats, or the nearest
    count its options allow: Dice Duel solo, 1)."""
    if game_id not in GAME_IDS:
        raise ValueError(f"no environment for {game_id!r}; choose one of {', '.join(GAME_IDS)}")
    return GamenightAEC(game_id, players, **options)


def parallel_env(game_id: str, **options: Any) -> GamenightParallel:
    """A PettingZoo parallel environment, for a game whose seats choose at once."""
    simultaneous = [g for g in GAME_IDS if registry.get(g).game.info.simultaneous]
    if game_id not in simultaneous:
        raise ValueError(
            f"{game_id!r} has no parallel environment (no simultaneous choices); "
            f"games with one: {', '.join(simultaneous)}"
        )
    return GamenightParallel(game_id, **options)


register()
register_versus()
