"""The standard checks of both environment families pass for the base game, every variant and
every scenario: PettingZoo's `api_test` on the AEC environment and Gymnasium's `check_env` on
the one-seat environment (made through `gymnasium.make`, so its render modes are checked too),
with the flat observation and with the dict one. Every allowed pair of modules plays too."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from rl_cases import CASES, IDS, PAIR_IDS, PAIRS, Case

import bots.env
from bots.env import aec_env

pytestmark = pytest.mark.filterwarnings(
    # PettingZoo's classic games give these too: a dict observation holding the action mask
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_aec_environment_passes_pettingzoos_api_test(case: Case) -> None:
    env = aec_env(case.scenario, case.variants, seats=case.seats, seed=3)
    api_test(env, num_cycles=200)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_gym_environment_passes_gymnasiums_check_env(case: Case) -> None:
    env = gymnasium.make(bots.env.ENV_ID, opponents=("heuristic",) * (case.seats - 1),
                         scenario=case.scenario, variants=case.variants)
    check_env(env.unwrapped)


def test_the_dict_observation_passes_both_checks() -> None:
    api_test(aec_env(seed=4, observation="dict"), num_cycles=200)
    env = gymnasium.make(bots.env.ENV_ID, opponents=("random",) * 3, observation="dict")
    check_env(env.unwrapped)


def test_a_game_runs_to_its_end_through_the_aec_loop() -> None:
    """The loop of PettingZoo's documentation, masked random actions, to the game's end: every
    agent gets its final reward, and the winner's is the win."""
    env = aec_env(seed=5, turn_limit=1000)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        action = None if terminated or truncated else int(rng.choice(obs["action_mask"].nonzero()[0]))
        env.step(action)
    assert not env.agents
    finals = sorted(totals.values())
    assert finals in ([-1.0, -1.0, -1.0, 1.0], [0.0] * 4)


@pytest.mark.parametrize("case", PAIRS, ids=PAIR_IDS)
def test_every_allowed_pair_of_modules_plays(case: Case) -> None:
    """A stretch of masked random actions: every observation inside its space, every mask
    naming at least one legal id."""
    env = aec_env(case.scenario, case.variants, seats=case.seats, seed=6)
    env.reset(seed=6)
    space = env.observation_space(env.possible_agents[0])
    rng = np.random.default_rng(6)
    for _, agent in zip(range(600), env.agent_iter(), strict=False):
        obs, reward, terminated, truncated, info = env.last()
        assert space.contains(obs), agent
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        assert len(legal) > 0
        env.step(int(rng.choice(legal)))
