"""The PettingZoo AEC environment: every seat an agent (`seat_0` …), one action at a time.

The agent selected is the seat whose prompt the engine answers next (`next_prompt`: with
discards or answers to an offer, several seats are asked at once and answered in that
order). A command of several ids keeps its agent selected until it is complete. Each agent's
observation is made from its own view; its action mask is all zeros except when it acts."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from bots.env.config import GameConfig
from bots.env.decision import IllegalAction
from bots.env.match import Match, Setup
from bots.env.render import ansi, rgb_array
from bots.env.rewards import Reward
from bots.env.spaces import observation_space, shaped

RENDER_MODES = ["ansi", "rgb_array"]


def seed_bytes(seed: int) -> bytes:
    return f"hexlog-env:{seed}".encode()


class CatanAEC(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": RENDER_MODES, "name": "hexlog_catan_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, config: GameConfig, reward: str | Reward = "win",
                 render_mode: str | None = None, trade_offers: bool = False,
                 offers_per_turn: int = 1, observation: str = "flat",
                 skip_forced: bool = False, illegal: str = "end",
                 seed: int | None = None) -> None:
        """`reward`: "win", "vp" or a `Reward`; `trade_offers`: a menu of 1-for-1 domestic
        offers, at most `offers_per_turn` a turn; `observation`: "flat" or "dict";
        `skip_forced`: play a prompt's only legal id without asking; `illegal`: an id the mask
        forbids ends the game, a loss for that agent and 0 for the others ("end", as
        PettingZoo's TerminateIllegalWrapper), or raises IllegalAction ("raise")."""
        super().__init__()
        if illegal not in ("end", "raise"):
            raise ValueError(f"illegal={illegal!r}: give 'end' or 'raise'")
        self.illegal = illegal
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: give one of {RENDER_MODES}")
        self.config = config
        self.reward = Reward.of(reward)
        self.render_mode = render_mode
        self.form = observation
        self.skip_forced = skip_forced
        self.offers_per_turn = offers_per_turn
        self.setup = Setup(config, trade_offers)
        self.possible_agents = [f"seat_{i}" for i in range(config.seats)]
        self._obs_space = observation_space(self.setup, observation)
        self._act_space = spaces.Discrete(self.setup.space.n)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._seeds = np.random.default_rng(seed)
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(2**63))
        self.match = Match(self.setup, seed_bytes(game_seed), game_id=f"env-{game_seed}",
                           offers_per_turn=self.offers_per_turn)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._vp = list(self.match.scores())
        self._settle()

    def observe(self, agent: str) -> dict[str, Any]:
        m = self._game()
        seat = self.possible_agents.index(agent)
        acting = not m.finished and agent == self.agent_selection and m.prompt is not None \
            and m.prompt.seat == seat
        obs, mask = m.observe(seat, acting)
        return shaped(self.setup, self.form, obs, mask)

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        m = self._game()
        agent = self.agent_selection
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        try:
            command = m.decide_for(seat).choose(int(action))
        except IllegalAction:
            if self.illegal == "raise":
                raise
            self._end_illegal(agent)
            return
        if command is not None:
            m.play(command)
            self._settle()
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None or self.match is None:
            return None
        if self.render_mode == "ansi":
            return ansi(self.match.state, None)
        return rgb_array(self.match.state, None)

    def close(self) -> None:
        self.match = None

    # --- the game's course --------------------------------------------------------------------

    def _end_illegal(self, agent: str) -> None:
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {"illegal": agent}
        self.rewards[agent] = self.reward.loss
        self._accumulate_rewards()

    def _game(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match

    def _settle(self) -> None:
        """Play what needs no agent (a prompt with nothing in the space: its default; with
        `skip_forced`, a single legal id), pay the shaping rewards, select the next agent or
        end the game."""
        m = self._game()
        while not m.finished:
            assert m.prompt is not None
            decision = m.decide_for(m.prompt.seat)
            legal = decision.legal()
            if not legal:
                m.play(m.prompt.default)
            elif self.skip_forced and len(legal) == 1:
                command = decision.choose(legal[0])
                if command is not None:
                    m.play(command)
            else:
                break
        if self.reward.vp:
            now = m.scores()
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] += self.reward.vp * (now[seat] - self._vp[seat])
            self._vp = list(now)
        if m.finished:
            truncated = m.winner is None and m.state.turn >= self.config.turn_limit > 0
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] += self.reward.final(seat, m.winner)
                self.terminations[agent] = not truncated
                self.truncations[agent] = truncated
                self.infos[agent] = {"winner": m.winner, "vp": m.scores()[seat],
                                     "turn": m.state.turn}
            return
        assert m.prompt is not None
        self.agent_selection = self.possible_agents[m.prompt.seat]


def aec_env(scenario: str | None = None, variants: tuple[str, ...] = (), seats: int = 4,
            seed: int | None = None, **kwargs: Any) -> CatanAEC:
    """A PettingZoo AEC environment of a game (see `CatanAEC` for the keyword arguments)."""
    turn_limit = kwargs.pop("turn_limit", None)
    config = GameConfig.of(scenario, variants, seats,
                           **({"turn_limit": turn_limit} if turn_limit is not None else {}))
    return CatanAEC(config, seed=seed, **kwargs)


