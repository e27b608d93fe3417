"""The bots hexlog ships, by name."""

from __future__ import annotations

from bots.heuristic import HeuristicBot
from bots.random_bot import RandomBot
from bots.sdk import Bot, BotFactory

SHIPPED: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}


def make_bot(name: str, seed: int) -> Bot:
    try:
        factory = SHIPPED[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (shipped: {', '.join(sorted(SHIPPED))})") from None
    return factory(seed)
