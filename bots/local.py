"""Play a whole game in-process: the engine and bots in one loop (no Redis).

Used by the engine benchmark, the property tests and the reference run that a game played
through Redis must equal event for event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bots.sdk import Bot, observers, reseed
from events.events import Event, GameCreated
from services.rules.engine import (
    decide,
    evolve,
    initial_state,
    next_prompt,
    pending,
    redact,
    step,
    view,
)
from services.rules.engine.chance import Dealer
from services.rules.engine.state import State

__all__ = ["LocalGame", "next_prompt", "play"]  # next_prompt lives in the engine now


@dataclass
class LocalGame:
    state: State
    log: list[Event] = field(default_factory=list)
    decisions: int = 0


def play(
    created: GameCreated,
    bots: Sequence[Bot],
    dealer: Dealer,
    keep_log: bool = True,
    max_decisions: int = 100_000,
    deterministic: bool = True,
) -> LocalGame:
    """Play to the end. `deterministic` reseeds each bot per decision exactly as the bot
    worker does over Redis (`bots.sdk.reseed`), so both paths give the same log; the engine
    benchmark turns it off to measure the engine alone."""
    state = initial_state(created)
    game = LocalGame(state=state, log=[created] if keep_log else [])
    decisions = 0
    readers = observers(bots)  # seats whose bot reads its log: fed each event redacted for it
    for seat, reader in readers:
        reader.observe(seat, created)
    while not state.finished:
        prompts = pending(state)
        prompt = prompts[0] if len(prompts) == 1 else next_prompt(state, prompts)
        bot = bots[prompt.seat]
        if deterministic:
            reseed(bot, created.seed_sha256, prompt.seat, state.version)
        seen = view(state, prompt.seat) if bot.needs_view else None
        command = bot.choose(seen, prompt)
        if readers:  # each event is redacted against the state just after it
            events = decide(state, command, dealer)
            for e in events:
                evolve(state, e)
                for seat, reader in readers:
                    reader.observe(seat, redact(state, e, seat))
        else:
            events = step(state, command, dealer)
        if keep_log:
            game.log.extend(events)
        decisions += 1
        if decisions >= max_decisions:
            game.decisions = decisions
            raise RuntimeError(f"game {state.game_id} did not end in {max_decisions} decisions")
    game.decisions = decisions
    return game
