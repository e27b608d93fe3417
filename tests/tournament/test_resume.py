"""A tournament killed with SIGKILL resumes with `--resume`: its child services die with it
(and leave no liveness keys that would make the next run wait for services that are gone), the
games that had finished are not played again, and the final table equals that of a run that
was never interrupted (`baseline`, the same command on another key space). On the way, the
projection of the half-played tournament is rebuilt from zero and compared."""

from __future__ import annotations

import asyncio
import os
import re
import signal

import psutil
import pytest
from redis.asyncio import Redis
from test_robustness import tid_of
from tournament_helpers import BASELINE, Finished, Hexlog, dump_keys, standings_of, wait_for

from services.cli.projections import shipped
from services.projections.projector import Projector, game_key
from services.protocol import SERVICE_TTL_S, alive_key, is_serving
from services.store import EventStore
from services.store.keys import game_keys

pytestmark = pytest.mark.slow

SERVICES = ("rules", "projections", "bots:random", "bots:heuristic")


async def test_resume_after_sigkill_gives_the_uninterrupted_table(
    hexlog: Hexlog, redis: Redis, baseline: Finished
) -> None:
    args = [a if a != "4" else "2" for a in BASELINE]  # --concurrency 2: slower, same games
    p = hexlog.start(*args, name="killed")
    tid = await tid_of(p)
    assert tid == baseline.result["tournament"]  # a fresh key space: the same ids
    ids = baseline.result["game_ids"]

    async def finished() -> list[str]:
        statuses = [await redis.hget(game_keys(g).meta, "status") for g in ids]
        return [g for g, st in zip(ids, statuses, strict=True) if st == b"finished"]

    async def some_finished() -> bool:
        return len(await finished()) >= 3

    await wait_for(some_finished, 120, "three finished games")
    children = p.children()
    assert len(children) >= 3, [c.cmdline() for c in children]  # rules, projections, bots
    os.kill(p.pid, signal.SIGKILL)
    p.proc.wait(10)

    # The services it started die with it (PR_SET_PDEATHSIG), cleanly: no stale liveness.
    _, alive = await asyncio.to_thread(psutil.wait_procs, children, 15)
    for c in alive:
        c.kill()
    assert not alive, f"child services outlived the killed runner: {[c.pid for c in alive]}"
    for service in SERVICES:
        assert not await redis.exists(alive_key(service)), service

    # Down for longer than a decision's deadline (BASELINE: 3 s): the prompts the killed
    # services left open must not be lost to deadline defaults when the games resume.
    await asyncio.sleep(3.5)
    done = await finished()
    assert 3 <= len(done) < len(ids), "the kill should land mid-run"
    before = {g: await redis.xinfo_stream(game_keys(g).ev) for g in done}

    # Games left mid-way: their projection (caught up by a projector in this process, which
    # also takes over what the killed one had read and not acked) equals one rebuilt from zero.
    projector = Projector(redis, shipped())
    stop = asyncio.Event()
    task = asyncio.create_task(projector.run(stop, block_ms=50))

    async def caught_up() -> bool:
        for game_id in ids:
            version = await EventStore(redis).version(game_id)
            if version and int(await redis.hget(game_key(game_id), "version") or 0) != version:
                return False
        return True

    await wait_for(caught_up, 30, "the projection to catch up")
    stop.set()
    await task
    live = await dump_keys(redis, "hexlog:proj:*")
    statuses = {await redis.hget(game_key(g), "status") for g in ids}
    assert b"finished" in statuses  # and, almost always, b"live" (the 2 games in progress)
    await Projector(redis, shipped()).rebuild()
    assert await dump_keys(redis, "hexlog:proj:*") == live

    # A service killed harder (SIGKILL, no clean exit) would leave its key for a few seconds;
    # the next command must not take that for a live service.
    await redis.set(alive_key("rules"), "rules-killed-hard", ex=SERVICE_TTL_S)
    assert not await is_serving(redis, "rules")
    await redis.set(alive_key("rules"), "rules-killed-hard", ex=SERVICE_TTL_S)

    resumed = hexlog.start(*BASELINE, "--resume", name="resumed")
    code = await asyncio.to_thread(resumed.wait, 150)
    assert code == 0, resumed.describe()
    # The resumed run counts the games finished when its runner starts. Its rules service may
    # already have judged a command the bots sent before the kill (one that ends a game), so
    # that count can be above `done`, never below it.
    counted = re.search(r"(\d+) done before resuming", resumed.stderr())
    assert counted is not None, resumed.stderr()
    assert len(done) <= int(counted.group(1)) < len(ids)
    assert standings_of(resumed.stdout()) == baseline.result

    # The games that had finished were not played again.
    for g, info in before.items():
        now = await redis.xinfo_stream(game_keys(g).ev)
        assert (now["length"], now["last-generated-id"]) == (info["length"], info["last-generated-id"]), g
