"""One game played in this process for an environment: the engine's state, its seeded dealer,
the prompt answered next, and the action space, board and encoder it is observed through.

`Setup` is what does not change between an environment's games (the config, the action space,
the observation layout); `Match` is one game. All chance comes from the engine's dealer of the
game's seed, so the same seed and the same actions give the same game."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bots.env.actions import ActionSpace
from bots.env.board import BoardInfo, board_info
from bots.env.config import GameConfig
from bots.env.decision import Decision
from bots.env.observation import Encoder, Layout
from bots.sdk import Observer
from events.commands import Command
from events.events import Event
from events.prompts import Prompt, View
from services.rules.engine import (
    State,
    decide,
    evolve,
    initial_state,
    next_prompt,
    pending,
    redact,
    score,
    step,
    view,
)
from services.rules.engine.chance import SeededDealer


class Setup:
    """An environment's fixed parts, read off a first game of its config (the map's topology
    and the resources are the same in every game of these modules)."""

    def __init__(self, config: GameConfig, trade_offers: bool = False) -> None:
        self.config = config
        self.trade_offers = trade_offers
        probe = initial_state(config.create("probe", b"probe"))
        info = board_info(view(probe, 0))
        modules = [m.name for m in config.modules]
        self.space = ActionSpace(modules, info.sizes, info.vocab, trade_offers)
        self.layout = Layout(modules, info.sizes, self.space, info.pieces)
        self.encoder = Encoder(self.layout)


@dataclass
class Match:
    """One game. `decision` is the prompt being answered by its seat, through the space."""

    setup: Setup
    seed: bytes
    game_id: str = "env"
    observers: list[tuple[int, Observer]] = field(default_factory=list)
    offers_per_turn: int = 1

    def __post_init__(self) -> None:
        self.created = self.setup.config.create(self.game_id, self.seed)
        self.state: State = initial_state(self.created)
        self.dealer = SeededDealer(self.seed)
        self.board: BoardInfo = board_info(view(self.state, 0))
        self.seats = self.state.n
        self.decisions = 0
        self._offers: dict[tuple[int, int], int] = {}  # (seat, turn) -> offers made
        for seat, reader in self.observers:
            reader.observe(seat, self.created)
        self.prompt: Prompt | None = None
        self.decision: Decision | None = None
        self._next()

    @property
    def finished(self) -> bool:
        return bool(self.state.finished)

    @property
    def winner(self) -> int | None:
        return None if self.state.winner < 0 else int(self.state.winner)

    def scores(self) -> tuple[int, ...]:
        return score(self.state)

    def view(self, seat: int | None) -> View:
        return view(self.state, seat)

    def decide_for(self, seat: int) -> Decision:
        """The decision of the prompt answered next, made through the action space (its seat
        must be `seat`)."""
        assert self.prompt is not None
        assert self.prompt.seat == seat
        if self.decision is None:
            hand = None
            menu = self.setup.trade_offers and self._offers.get((seat, self.state.turn), 0) < self.offers_per_turn
            if menu:
                hand = self.view(seat).players[seat].hand
            self.decision = Decision(self.setup.space, self.prompt, self.seats, hand, menu)
        return self.decision

    def play(self, command: Command) -> list[Event]:
        """Apply a command of the prompt's seat; the next prompt is then ready."""
        if type(command).__name__ == "ProposeTrade":
            key = (command.seat, self.state.turn)
            self._offers[key] = self._offers.get(key, 0) + 1
        if self.observers:  # each event redacted against the state just after it
            events = decide(self.state, command, self.dealer)
            for e in events:
                evolve(self.state, e)
                for seat, reader in self.observers:
                    reader.observe(seat, redact(self.state, e, seat))
        else:
            events = step(self.state, command, self.dealer)
        self.decisions += 1
        self._next()
        return events

    def observe(self, seat: int, acting: bool) -> tuple[np.ndarray, np.ndarray]:
        """(observation, action mask) of a seat; the mask is all zeros unless it acts now."""
        seen = view(self.state, seat)
        decision = self.decide_for(seat) if acting else None
        obs = self.setup.encoder.encode(seen, self.board, decision)
        mask = decision.mask() if decision is not None else np.zeros(self.setup.space.n, np.int8)
        return obs, mask

    def _next(self) -> None:
        self.decision = None
        if self.state.finished:
            self.prompt = None
            return
        prompts = pending(self.state)
        self.prompt = prompts[0] if len(prompts) == 1 else next_prompt(self.state, prompts)
