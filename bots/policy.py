"""The policy bot: a policy trained in the environments (bots/env) seated like any bot, in a
tournament (`hexlog tournament --bots policy=runs/ppo.npz,random`) or a bot worker.

It decides from the seat's view and the prompt exactly as the environment would ask its
agent: the same observation (bots/env/observation.py) and the same action ids (bots/env/
actions.py), each step taking the highest legal logit (or, with `sample`, drawing from their
softmax with the bot's seeded generator). Numpy only: no torch at play time.

A game the policy was not trained for (another map topology, a module whose state it never
saw) is played by the heuristic bot instead; `fallbacks` counts those decisions."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bots.env.actions import ActionSpace
from bots.env.board import BoardInfo, Boards
from bots.env.config import GameConfig
from bots.env.decision import Decision
from bots.env.module_features import EXT_KEYS
from bots.env.observation import Encoder, Layout
from bots.heuristic import HeuristicBot
from bots.policy_net import PolicyFileError, load_policy
from events.commands import Command, ProposeTrade
from events.prompts import Prompt, View

VIEW_KEYS = {"board", "resources"}  # ext entries of the view itself, not of a module


class PolicyBot:
    name = "policy"
    needs_view = True

    def __init__(self, path: str | Path, seed: int = 0, sample: bool = False) -> None:
        self.net = load_policy(path)
        meta = self.net.meta
        self.config = GameConfig.from_dict(meta["config"])
        self.modules = [m.name for m in self.config.modules]
        self.trade_offers = bool(meta.get("trade_offers", False))
        self.digest = str(meta["space_digest"])
        self.rng = random.Random(seed)
        self.sample = sample
        self.boards = Boards()
        self.fallback = HeuristicBot(seed)
        self.fallbacks = 0
        self._kits: dict[tuple[object, ...], tuple[ActionSpace, Encoder] | None] = {}
        self._offers: dict[tuple[str, int], int] = {}
        known = {EXT_KEYS.get(m, m) for m in self.modules}
        self._known_ext = known | VIEW_KEYS

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        if view is None:
            raise ValueError("the policy bot decides from views (needs_view)")
        board = self.boards.of(view)
        kit = self._kit(board)
        if kit is None or not set(view.ext) <= self._known_ext:
            return self._fall_back(view, prompt)
        space, encoder = kit
        seat = prompt.seat
        key = (view.game_id, view.turn)
        menu = self.trade_offers and self._offers.get(key, 0) < 1
        hand = view.players[seat].hand if menu else None
        decision = Decision(space, prompt, len(view.players), hand, menu)
        while True:
            legal = decision.legal()
            if not legal:
                return prompt.default
            logits = self.net.logits(encoder.encode(view, board, decision))
            command = decision.choose(self._pick(logits, legal))
            if command is not None:
                if isinstance(command, ProposeTrade):
                    self._offers[key] = self._offers.get(key, 0) + 1
                return command

    def _pick(self, logits: np.ndarray, legal: list[int]) -> int:
        scores = logits[legal]
        if not self.sample:
            return legal[int(np.argmax(scores))]
        weights = np.exp(scores - scores.max())
        return self.rng.choices(legal, weights=weights.tolist())[0]

    def _kit(self, board: BoardInfo) -> tuple[ActionSpace, Encoder] | None:
        """The space and encoder for this board's topology, if the policy was trained on it."""
        key = (tuple(sorted(board.sizes.items())), board.vocab.resources, board.pieces)
        if key not in self._kits:
            space = ActionSpace(self.modules, board.sizes, board.vocab, self.trade_offers)
            layout = Layout(self.modules, board.sizes, space, board.pieces)
            fits = space.digest == self.digest and layout.size == self.net.meta.get("observation")
            self._kits[key] = (space, Encoder(layout)) if fits else None
        return self._kits[key]

    def _fall_back(self, view: View, prompt: Prompt) -> Command:
        self.fallbacks += 1
        self.fallback.rng = self.rng  # reseeded per decision like this bot
        return self.fallback.choose(view, prompt)


def policy_factory(path: str) -> Callable[[int], PolicyBot]:
    """A bot factory (seed -> bot) for the policy saved at `path` (bots/registry.py)."""
    if not Path(path).is_file():
        raise PolicyFileError(f"no policy file at {path}")

    def make(seed: int) -> PolicyBot:
        return PolicyBot(path, seed)
    return make
