"""The bot SDK: a bot is `choose(view, prompt) -> command`.

`view` is what the seat may see (`events.prompts.View`), `prompt` lists its legal commands.
A bot that only needs the prompt sets `needs_view = False` and saves the host building a view
for it. Bots must not assume anything beyond the view: the same bot runs in-process, in a
worker over Redis, or against a server written in another language.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from events.commands import Command, DiscardResources
from events.events import Event
from events.prompts import Prompt, View
from events.types import RESOURCES, Bundle


class Bot(Protocol):
    name: str
    needs_view: bool

    def choose(self, view: View | None, prompt: Prompt) -> Command: ...


def random_discard(rng: random.Random, hand: list[int], count: int) -> Bundle:
    """`count` cards drawn uniformly from `hand` (a 5-vector)."""
    pool = [r for r, n in enumerate(hand) for _ in range(n)]
    out = [0, 0, 0, 0, 0]
    for r in rng.sample(pool, count):
        out[r] += 1
    return {RESOURCES[i]: n for i, n in enumerate(out) if n}


def discard_command(seat: int, resources: Bundle) -> DiscardResources:
    return DiscardResources(seat=seat, resources=resources)


class Observer(Protocol):
    """A bot that also reads its seat's log (every event as `engine.redact` gives it to the
    seat, the creation first) keeps a belief of the hidden cards (`bots.belief`). A host
    that has the log feeds it (the in-process loop, `bots.local.play`); a bot served over
    Redis gets views only and must do without."""

    def observe(self, seat: int, event: Event) -> None: ...


def observers(bots: Sequence[Bot]) -> list[tuple[int, Observer]]:
    """(seat, bot) for the seats whose bot reads the log."""
    return [(seat, b) for seat, b in enumerate(bots) if callable(getattr(b, "observe", None))]  # type: ignore[misc]


BotFactory = Callable[[int], Bot]  # seed -> bot


def decision_seed(game_seed: str, seat: int, version: int) -> int:
    """The seed a deterministic bot uses for one decision. Derived from where the decision is
    (the game's public seed commitment `seed_sha256`, the seat, the version), not from how
    many decisions a process made before: a game played by bot workers over Redis, in any
    order and by any worker, equals the same game played in-process, and the same tournament
    seed gives the same games whatever the game ids are."""
    digest = hashlib.sha256(f"{game_seed}|{seat}|{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class DecisionRandom(random.Random):
    """A `random.Random` for a bot reseeded for every decision (`reseed`) that seeds itself
    only when the decision draws a number: the same numbers as seeding at once, without the
    seeding (nor the hash that makes the seed) where nothing is drawn. Seeding the Mersenne
    Twister costs about 4 µs, 8% of the bot worker's CPU (perf), while most of a random bot's
    decisions have one legal command and draw nothing. Every draw goes through `random` or
    `getrandbits` (Python's documented way to subclass Random), so each settles the pending
    seed first."""

    _pending: tuple[str, int, int] | None = None

    def seed_later(self, game_seed: str, seat: int, version: int) -> None:
        """Seed with `decision_seed(game_seed, seat, version)` before the next draw."""
        self._pending = (game_seed, seat, version)

    @property
    def seed_pending(self) -> bool:
        """Whether this decision's seed is set and nothing drawn yet: a draw the bot can skip
        (one legal command) then changes nothing later, the next decision being reseeded.
        False for a bot drawing from one stream for a whole game (`hexlog bench engine`):
        there every draw moves the stream."""
        return self._pending is not None

    def _settle(self) -> None:
        if self._pending is not None:
            where, self._pending = self._pending, None
            super().seed(decision_seed(*where))

    # (the overrides' types are random.Random's; typeshed's C base class types them otherwise)
    def seed(self, a: int | float | str | bytes | bytearray | None = None,  # type: ignore[override]
             version: int = 2) -> None:
        self._pending = None
        super().seed(a, version)

    def random(self) -> float:
        self._settle()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self._settle()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:  # type: ignore[override]
        self._settle()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...], /) -> None:  # type: ignore[override]
        self._pending = None
        super().setstate(state)


def reseed(bot: Bot, game_seed: str, seat: int, version: int) -> None:
    rng = getattr(bot, "rng", None)
    if isinstance(rng, DecisionRandom):
        rng.seed_later(game_seed, seat, version)
    elif isinstance(rng, random.Random):
        rng.seed(decision_seed(game_seed, seat, version))
