"""Vectorised stepping: several one-seat environments stepped together by Gymnasium's vector
environments, in this process and in worker processes, through episodes and their automatic
resets."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import bots.env


def make() -> gymnasium.Env:  # type: ignore[type-arg]
    return gymnasium.make(bots.env.ENV_ID, opponents=("random",) * 3, turn_limit=6)


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_vector_environments_step_masked_actions_through_episodes(kind: str) -> None:
    n = 2
    envs: gymnasium.vector.VectorEnv = (gymnasium.vector.SyncVectorEnv if kind == "sync"  # type: ignore[type-arg]
                                        else gymnasium.vector.AsyncVectorEnv)([make] * n)
    try:
        obs, info = envs.reset(seed=11)
        assert obs["observation"].shape == (n, envs.single_observation_space["observation"].shape[0])
        rng = np.random.default_rng(0)
        ended = 0
        restarted = False
        for _ in range(400):
            masks = obs["action_mask"]
            if ended and masks.any(axis=1).all():
                restarted = True  # the step after an episode's end started a new one
            actions = np.array([rng.choice(m.nonzero()[0]) if m.any() else 0 for m in masks])
            obs, rewards, terminated, truncated, info = envs.step(actions)
            assert np.isfinite(obs["observation"]).all()
            ended += int(np.sum(terminated | truncated))
            if ended >= n and restarted:
                break
        assert ended >= n
        assert restarted
    finally:
        envs.close()
