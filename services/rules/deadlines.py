"""The deadline keeper: a seat that has not answered by its prompt's deadline gets its
default move, recorded as the service's (scope `svc`, command id `deadline:<game>:<v>:<seat>`,
so two replicas cannot both play it). Forfeited seats' owed moves beyond one burst are queued
here too, already due."""

from __future__ import annotations

import time
from typing import cast

import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from events.envelope import CommandEnvelope
from services import metrics
from services.protocol import deadlines_key
from services.rules.engine import pending
from services.rules.moves import MovePipeline, forfeited_move
from services.rules.repository import GameRepository
from services.rules.set_aside import SetAsideKeys
from services.store.connect import is_cluster
from services.store.keys import SERVICE
from services.store.scripts import script

log = structlog.get_logger("hexlog.rules")

DUE_PER_TICK = 100  # deadlines handled per partition per tick


class DeadlineKeeper:
    def __init__(self, redis: Redis, repo: GameRepository, pipeline: MovePipeline,
                 partitions: range) -> None:
        self.redis = redis
        self.repo = repo
        self.pipeline = pipeline
        self.keys = [deadlines_key(p) for p in partitions]
        # A deadline set the server refuses (a wrong type, an ACL) fails the one call for
        # every partition: it is set aside, and `hexlog health rules` names it.
        self.aside = SetAsideKeys("deadline set(s)")

    async def enforce(self) -> int:
        """Play the default move for every prompt past its deadline; returns how many."""
        played = 0
        for key, due in await self.due(int(time.time() * 1000)):
            for member in due:
                if not await self.redis.zrem(key, member):
                    continue  # another replica took it
                game_id, version, seat = member.decode().rsplit("|", 2)
                played += await self.play_default(game_id, int(version), int(seat))
        return played

    async def due(self, now: int) -> list[tuple[str, list[bytes]]]:
        """Each partition's deadlines due by `now` (ms): in one call (ten ticks a second, most
        finding nothing); on a Cluster, or after that call failed, each key on its own."""
        keys = self.aside.readable(self.keys)
        if not is_cluster(self.redis):
            try:
                found = await script("due_deadlines").run(self.redis, keys, [now, DUE_PER_TICK])
                self.aside.recovered(keys)
                return list(zip(keys, cast(list[list[bytes]], found), strict=True))
            except ResponseError:
                pass
        pipe = self.redis.pipeline(transaction=False)  # (on a Cluster: one call per key)
        for key in keys:
            pipe.zrangebyscore(key, 0, now, start=0, num=DUE_PER_TICK)
        out: list[tuple[str, list[bytes]]] = []
        for key, found in zip(keys, await pipe.execute(raise_on_error=False), strict=True):
            if isinstance(found, ResponseError):
                self.aside.put_aside(key, found)
            elif isinstance(found, Exception):
                raise found  # (a lost connection: the next tick tries again)
            else:
                self.aside.recovered([key])
                out.append((key, cast(list[bytes], found)))
        return out

    async def play_default(self, game_id: str, version: int, seat: int) -> int:
        slot = await self.repo.slot(game_id)
        if slot is None:
            return 0
        async with slot.lock:
            if slot.version != version:
                slot = await self.repo.refresh(slot)
            if slot.version != version or slot.state.finished:
                return 0  # the seat answered in time
            if forfeited_move(slot) is not None:
                slot.prompted = ""
                await self.pipeline.play_forfeited(slot)
                return 1
            prompt = next((p for p in pending(slot.state) if p.seat == seat), None)
            if prompt is None:
                return 0
            env = CommandEnvelope(command_id=f"deadline:{game_id}:{version}:{seat}", game_id=game_id,
                                  expected_version=version, command=prompt.default, default=True)
            metrics.DEFAULT_MOVES.labels("deadline").inc()
            log.info("deadline: default move", game_id=game_id, version=version, seat=seat,
                     command=type(prompt.default).__name__)
            slot.prompted = ""  # that deadline is spent
            await self.pipeline.apply(slot, env, SERVICE, 0.0)
            return 1
