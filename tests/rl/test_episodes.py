"""Episodes: a seeded reset gives the same game (the same board, dice and opponents' moves)
and another seed another one; rewards are the result (and VP when shaped); an illegal id ends
the episode or raises; pictures of the game as an RGB array and as text."""

from __future__ import annotations

import numpy as np
import pytest

from bots.env import Reward, aec_env, gym_env
from bots.env.decision import IllegalAction


def rollout(seed: int, steps: int = 300, **kwargs: object) -> list[tuple[np.ndarray, float]]:
    env = gym_env(opponents=("heuristic", "random", "heuristic"), **kwargs)  # type: ignore[arg-type]
    obs, info = env.reset(seed=seed)
    out = []
    for i in range(steps):
        legal = obs["action_mask"].nonzero()[0]
        assert info["legal_actions"] == legal.tolist()  # the mask's ids, as a list
        obs, reward, terminated, truncated, info = env.step(int(legal[i % len(legal)]))
        out.append((obs["observation"], reward))
        if terminated or truncated:
            break
    return out


def test_a_seeded_reset_gives_the_same_episode() -> None:
    one, two = rollout(21), rollout(21)
    assert len(one) == len(two)
    assert all(np.array_equal(a, b) and r == s for (a, r), (b, s) in zip(one, two, strict=True))
    other = rollout(22)
    assert not np.array_equal(one[0][0], other[0][0])


def test_the_aec_environment_is_reproducible_by_seed() -> None:
    def actions(seed: int) -> list[int]:
        env = aec_env(seed=seed)
        env.reset(seed=seed)
        out = []
        for _ in range(200):
            obs, *_ = env.last()
            legal = obs["action_mask"].nonzero()[0]
            out.append(int(legal[len(out) % len(legal)]))
            env.step(out[-1])
        obs, *_ = env.last()
        return [*out, *obs["observation"].nonzero()[0].tolist()]
    assert actions(3) == actions(3)
    assert actions(3) != actions(4)


def test_the_win_and_the_victory_points_are_paid() -> None:
    env = gym_env(opponents=("random",) * 3, reward=Reward(vp=0.5), seat=0, turn_limit=1000)
    obs, info = env.reset(seed=1)
    total, vp0 = 0.0, env.match.scores()[0]  # type: ignore[union-attr]
    rng = np.random.default_rng(1)
    while True:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
        total += reward
        if terminated or truncated:
            break
    final = Reward().final(0, info["winner"])
    assert total == pytest.approx(0.5 * (info["vp"] - vp0) + final)
    assert not env.action_masks().any()


def test_an_illegal_id_ends_the_episode_as_a_loss_or_raises() -> None:
    env = gym_env(opponents=("random",) * 3)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated
    assert reward == -1.0
    assert info["illegal"]
    strict = gym_env(opponents=("random",) * 3, illegal="raise")
    obs, _ = strict.reset(seed=2)
    with pytest.raises(IllegalAction):
        strict.step(illegal)


def test_render_gives_an_rgb_array_and_text() -> None:
    env = gym_env(opponents=("random",) * 3, render_mode="rgb_array")
    env.reset(seed=3)
    picture = env.render()
    assert isinstance(picture, np.ndarray)
    assert picture.dtype == np.uint8
    assert picture.ndim == 3
    assert picture.shape[2] == 3
    assert picture.shape[0] > 200
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 20  # a board, not a blank
    text = aec_env(seed=3, render_mode="ansi")
    text.reset(seed=3)
    board = text.render()
    assert isinstance(board, str)
    assert "seat" in board
    assert "version" in board
