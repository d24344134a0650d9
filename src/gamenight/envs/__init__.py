"""Reinforcement-learning environments for the four games (``pip install gamenight[rl]``).

* :func:`aec_env` -- a PettingZoo ``AECEnv`` for any game;
* :func:`parallel_env` -- a PettingZoo ``ParallelEnv`` for The Decades;
* Gymnasium ``gamenight/Decathlon-v0``, ``gamenight/Wurfeltod-v0`` and
  ``gamenight/DiceDuelSolo-v0``, registered on import.

Every encoding, the rewards and the seeding are in ``docs/rl.md``.
"""

from __future__ import annotations

from typing import Any

from gamenight.envs.gymnasium_envs import register
from gamenight.envs.pettingzoo_envs import DecadesParallel, GamenightAEC

__all__ = ["DecadesParallel", "GamenightAEC", "aec_env", "parallel_env"]

GAME_IDS = ("decathlon", "dice-duel", "wurfeltod", "decades")


def aec_env(game_id: str, players: int | None = None, **options: Any) -> GamenightAEC:
    """A PettingZoo AEC environment for ``game_id`` (default: 2 seats; Dice Duel solo: 1)."""
    if game_id not in GAME_IDS:
        raise ValueError(f"no environment for {game_id!r}; choose one of {', '.join(GAME_IDS)}")
    return GamenightAEC(game_id, players, **options)


def parallel_env(game_id: str, **options: Any) -> DecadesParallel:
    """A PettingZoo parallel environment; only The Decades has simultaneous choices."""
    if game_id != "decades":
        raise ValueError(f"only 'decades' has a parallel environment, not {game_id!r}")
    return DecadesParallel(**options)


register()
