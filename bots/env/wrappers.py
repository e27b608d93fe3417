"""A wrapper for learners that take a plain Box observation and ask the environment for the
mask (sb3-contrib's MaskablePPO: `action_masks()`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from bots.env.gym import CatanGym


class FlatObservation(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The flat observation alone (`obs["observation"]`); the mask through `action_masks()`."""

    def __init__(self, env: CatanGym) -> None:
        super().__init__(env)
        if env.form != "flat":
            raise ValueError("FlatObservation wraps an environment with observation='flat'")
        whole: spaces.Dict = env.observation_space  # type: ignore[assignment]
        self.observation_space = whole["observation"]

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        obs: np.ndarray = observation["observation"]
        return obs

    def action_masks(self) -> np.ndarray:
        env: CatanGym = self.env.unwrapped  # type: ignore[assignment]
        return env.action_masks()
