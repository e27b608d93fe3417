"""Environments for training agents on hexlog's rules (docs/rl.md): a PettingZoo AEC
environment with every seat an agent (`aec_env`) and a Gymnasium environment of one seat
against shipped bots (`gym_env`, registered as `hexlog/Catan-v0` once this package is
imported). Both play the in-process engine (compiled where it is built) and observe each seat
through its own view.

Needs the `rl` extra: `pip install -e '.[rl]'` (gymnasium, pettingzoo, numpy). The action
space and the observation (and so the policy bot, bots/policy.py) need numpy alone: the
environments are imported when first named."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

ENV_ID = "hexlog/Catan-v0"

if TYPE_CHECKING:
    from bots.env.aec import CatanAEC, aec_env
    from bots.env.config import GameConfig
    from bots.env.gym import CatanGym, gym_env
    from bots.env.rewards import Reward

_LAZY = {"CatanAEC": "bots.env.aec", "aec_env": "bots.env.aec", "CatanGym": "bots.env.gym",
         "gym_env": "bots.env.gym", "GameConfig": "bots.env.config", "Reward": "bots.env.rewards"}

__all__ = ["ENV_ID", "CatanAEC", "CatanGym", "GameConfig", "Reward", "aec_env", "gym_env"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bots.env' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def _register() -> None:
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # the policy bot runs on numpy alone
        return
    if ENV_ID not in registry:
        register(id=ENV_ID, entry_point="bots.env.gym:gym_env")


_register()
