"""Prompts: asking the one seat that must act next, with a deadline.

A prompt goes to the stream of the seat's controller (`hexlog:{p}:prompts:bot:<pool>`) with the
prompt (legal commands and the default), the seat's view if the pool wants views, and `key`:
the turn key that signs this seat's commands on exactly this version (events/auth.py). The
seat's credential never leaves the service. The deadline is a member `game|version|seat` of the
partition's deadline set, scored by its time (ms); the deadline keeper plays the default move
when it passes.

Normally the prompt travels inside the append script of the command that made it due (one
round trip); `send` writes one outside a commit (after creation, a restart, a recovery).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, cast

from redis.asyncio import Redis

from events.codec import Codec
from events.prompts import Prompt
from services.protocol import deadlines_key, pool_key, prompts_key
from services.rules.engine import next_prompt, pending, view
from services.rules.repository import GameSlot
from services.store.keys import partition
from services.store.results import PromptWrite

FORFEIT = "forfeit"  # the controller of a seat whose bot has left for good
VIEW_CACHE_S = 5.0


def deadline_member(game_id: str, version: int, seat: int) -> str:
    return f"{game_id}|{version}|{seat}"


class Prompter:
    def __init__(self, redis: Redis, codec: Codec) -> None:
        self.redis = redis
        self.codec = codec
        self.view_wanted: dict[str, tuple[bool, float]] = {}

    async def write_for(self, slot: GameSlot) -> PromptWrite | None:
        """The prompt for the one seat that must act next (the same order as an in-process
        game), or None when nobody is to be asked (the game is over, or the seat forfeited:
        its default move is played by the move pipeline)."""
        asked = asked_of(slot)
        if asked is None:
            return None
        return self.write(slot, asked, await self.wants_view(asked[1]))

    def write_known(self, slot: GameSlot) -> PromptWrite | None:
        """`write_for` without waiting: the pool's wish for views as last read (`learn` reads
        those not known), a view where it was never read."""
        asked = asked_of(slot)
        if asked is None:
            return None
        known = self.view_wanted.get(asked[1])
        return self.write(slot, asked, True if known is None else known[0])

    def write(self, slot: GameSlot, asked: tuple[Prompt, str], wants_view: bool) -> PromptWrite:
        state = slot.state
        p, controller = asked
        deadline = int(time.time() * 1000) + slot.deadline_ms
        key = slot.key(p.seat, state.version)
        body: dict[str, bytes | str | int] = {
            "game": slot.game_id,
            "seat": p.seat,
            "version": state.version,
            "deadline": deadline,
            "key": key.hex() if key is not None else "",
            "prompt": self.codec.encode(p),
            "seed_sha256": slot.created.seed_sha256,  # public; seeds deterministic bots
        }
        if wants_view:
            body["view"] = self.codec.encode(view(state, p.seat))
        p_index = partition(slot.game_id)
        return PromptWrite(
            stream=prompts_key(p_index, controller),
            fields=body,
            deadlines=deadlines_key(p_index),
            member=deadline_member(slot.game_id, state.version, p.seat),
            deadline_ms=deadline,
            previous=slot.prompted,  # that prompt was answered: its deadline is moot
        )

    async def send(self, slot: GameSlot) -> None:
        """Prompt the seat that must act now outside a commit: the same entry and deadline a
        commit would write (a prompt sent twice is harmless: the answers share a command id)."""
        write = await self.write_for(slot)
        key = deadlines_key(partition(slot.game_id))
        pipe = self.redis.pipeline(transaction=False)
        if slot.prompted:
            pipe.zrem(key, slot.prompted)
        slot.prompted = ""
        if write is not None:
            pipe.xadd(write.stream, cast(Any, write.fields), maxlen=10_000, approximate=True)
            pipe.zadd(key, {write.member: write.deadline_ms})
            slot.prompted = write.member
        await pipe.execute()

    async def clear(self, slot: GameSlot) -> None:
        """Nobody is to be asked any more (the game ended, or only forfeited seats act)."""
        if slot.prompted:
            await self.redis.zrem(deadlines_key(partition(slot.game_id)), slot.prompted)
            slot.prompted = ""

    async def wants_view(self, controller: str) -> bool:
        """Whether the pool answering `controller` reads views (a pool says so in
        `hexlog:pool:<controller>`; unknown pools get views). Cached for a few seconds."""
        now = time.monotonic()
        cached = self.view_wanted.get(controller)
        if cached is not None and cached[1] > now:
            return cached[0]
        raw = await self.redis.hget(pool_key(controller), "needs_view")
        wanted = raw != b"0"
        self.view_wanted[controller] = (wanted, now + VIEW_CACHE_S)
        return wanted

    def unknown(self, controllers: Iterable[str]) -> set[str]:
        """Those of `controllers` whose wish for views is not cached (or is stale)."""
        now = time.monotonic()
        return {c for c in controllers
                if c != FORFEIT and ((known := self.view_wanted.get(c)) is None or known[1] <= now)}

    async def learn(self, controllers: Iterable[str]) -> None:
        """Read these pools' wishes for views, for `write_known`."""
        for controller in controllers:
            await self.wants_view(controller)


def asked_of(slot: GameSlot) -> tuple[Prompt, str] | None:
    """The prompt of the seat that must act next and its controller; None when nobody is to
    be asked (the game is over, or that seat forfeited)."""
    state = slot.state
    prompts = pending(state)
    if not prompts:
        return None
    p = next_prompt(state, prompts)
    controller = slot.controllers[p.seat]
    return None if controller == FORFEIT else (p, controller)
