"""The Gymnasium environment: one seat (the agent) against shipped bots in the other seats,
registered as `hexlog/Catan-v0`.

Each step takes one action id of the agent; the opponents then play (in-process, from their
own views, reseeded per decision as the bot worker does) until the agent must act again or
the game is over. `action_masks()` gives the legal ids (sb3-contrib's MaskablePPO reads it);
the observation holds the same mask (`action_mask`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from bots.env.aec import RENDER_MODES, seed_bytes
from bots.env.config import DEFAULT_TURN_LIMIT, GameConfig
from bots.env.decision import IllegalAction
from bots.env.match import Match, Setup
from bots.env.render import ansi, rgb_array
from bots.env.rewards import Reward
from bots.env.spaces import observation_space, shaped
from bots.sdk import Bot, observers

Opponent = str | Bot | Callable[[int], Bot]  # a bot spec (bots.registry), a bot, a factory
MAX_AGENT_STEPS = 50_000  # a safety net: an episode is truncated past it


def make_opponent(spec: Opponent, seed: int) -> Bot:
    if isinstance(spec, str):
        from bots.registry import make_bot

        return make_bot(spec, seed)
    if callable(spec) and not hasattr(spec, "choose"):
        return spec(seed)
    return spec  # type: ignore[return-value]


class CatanGym(gymnasium.Env):  # type: ignore[type-arg]
    metadata = {"render_modes": RENDER_MODES, "render_fps": 2}

    def __init__(self, opponents: Sequence[Opponent] = ("heuristic",) * 3,
                 seat: int | None = None, scenario: str | None = None,
                 variants: Sequence[str] = (), reward: str | Reward = "win",
                 render_mode: str | None = None, turn_limit: int = DEFAULT_TURN_LIMIT,
                 trade_offers: bool = False, offers_per_turn: int = 1,
                 observation: str = "flat", skip_forced: bool = False,
                 illegal: str = "end") -> None:
        """`seat`: the agent's seat, or None for a seat drawn at each reset; `reward`: "win",
        "vp" or a `Reward`; `skip_forced`: play a prompt's only legal id without asking;
        `trade_offers`: a menu of 1-for-1 domestic offers (docs/rl.md); `illegal`: an id the
        mask forbids ends the episode as a loss ("end", PettingZoo's TerminateIllegalWrapper
        convention) or raises IllegalAction ("raise")."""
        if illegal not in ("end", "raise"):
            raise ValueError(f"illegal={illegal!r}: give 'end' or 'raise'")
        self.illegal = illegal
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: give one of {RENDER_MODES}")
        self.opponents = list(opponents)
        self.config = GameConfig.of(scenario, variants, 1 + len(self.opponents), turn_limit)
        if seat is not None and not 0 <= seat < self.config.seats:
            raise ValueError(f"seat {seat} is not a seat of a {self.config.seats}-seat game")
        self.fixed_seat = seat
        self.reward = Reward.of(reward)
        self.render_mode = render_mode
        self.form = observation
        self.skip_forced = skip_forced
        self.offers_per_turn = offers_per_turn
        self.setup = Setup(self.config, trade_offers)
        self.observation_space = observation_space(self.setup, observation)
        self.action_space = spaces.Discrete(self.setup.space.n)
        self.match: Match | None = None
        self.seat = 0
        self.ended = False
        self.bots: list[Bot | None] = []

    # --- the Gymnasium API --------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(2**63))
        n = self.config.seats
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
        others = iter(self.opponents)
        self.bots = [None if s == self.seat else make_opponent(next(others), int(rng.integers(2**31)))
                     for s in range(n)]
        readers = observers([b for b in self.bots if b is not None])  # type: ignore[misc]
        seat_of = [s for s in range(n) if s != self.seat]
        self.match = Match(self.setup, seed_bytes(game_seed), game_id=f"env-{game_seed}",
                           observers=[(seat_of[i], r) for i, r in readers],
                           offers_per_turn=self.offers_per_turn)
        self.steps = 0
        self.ended = False  # by an illegal action
        self._vp = self.match.scores()[self.seat]
        self._advance()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        m = self._game()
        if m.finished or self.ended:
            raise RuntimeError("the episode is over: call reset()")
        try:
            command = m.decide_for(self.seat).choose(int(action))
        except IllegalAction:
            if self.illegal == "raise":
                raise
            self.ended = True
            info = {**self._info(), "illegal": True}
            return self._observation(), self.reward.loss, True, False, info
        if command is not None:
            m.play(command)
        self._advance()
        self.steps += 1
        reward = 0.0
        if self.reward.vp:
            vp = m.scores()[self.seat]
            reward += self.reward.vp * (vp - self._vp)
            self._vp = vp
        terminated = truncated = False
        if m.finished:
            reward += self.reward.final(self.seat, m.winner)
            truncated = m.winner is None and m.state.turn >= self.config.turn_limit > 0
            terminated = not truncated
        elif self.steps >= MAX_AGENT_STEPS:
            truncated = True
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal ids as booleans (all False once the game is over)."""
        m = self._game()
        if m.finished or self.ended:
            return np.zeros(self.setup.space.n, dtype=bool)
        return m.decide_for(self.seat).mask().astype(bool)

    def render(self) -> Any:
        if self.render_mode is None or self.match is None:
            return None
        if self.render_mode == "ansi":
            return ansi(self.match.state, self.seat)
        return rgb_array(self.match.state, self.seat)

    # --- the game's course --------------------------------------------------------------------

    def _game(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match

    def _advance(self) -> None:
        """Play the opponents (and what needs no agent) until the agent must choose."""
        m = self._game()
        state = m.state
        while not state.finished:
            prompt = m.prompt
            assert prompt is not None
            bot = self.bots[prompt.seat]
            if bot is not None:  # seeded at reset: no reseeding per decision is needed
                seen = m.view(prompt.seat) if bot.needs_view else None
                m.play(bot.choose(seen, prompt))
                continue
            decision = m.decide_for(self.seat)
            legal = decision.legal()
            if not legal:
                m.play(prompt.default)
            elif self.skip_forced and len(legal) == 1:
                command = decision.choose(legal[0])
                if command is not None:
                    m.play(command)
            else:
                return

    def _observation(self) -> dict[str, Any]:
        m = self._game()
        obs, mask = m.observe(self.seat, acting=not (m.state.finished or self.ended))
        if self.form == "flat":
            return {"observation": obs, "action_mask": mask}
        return shaped(self.setup, self.form, obs, mask)

    def _info(self) -> dict[str, Any]:
        m = self._game()
        prompt = m.prompt
        info: dict[str, Any] = {"seat": self.seat, "turn": m.state.turn}
        if prompt is not None:
            info["stage"] = prompt.stage
            # The mask's ids as a list (what catanatron's `valid_actions` is), for loops
            # that draw from them without reading the mask.
            info["legal_actions"] = [] if self.ended else list(m.decide_for(self.seat).legal())
        else:
            info["winner"] = m.winner
            info["vp"] = m.scores()[self.seat]
        return info


def gym_env(opponents: Sequence[Opponent] = ("heuristic",) * 3, **kwargs: Any) -> CatanGym:
    """A Gymnasium environment of one seat against `opponents` (see `CatanGym`)."""
    return CatanGym(opponents, **kwargs)
