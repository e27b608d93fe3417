"""A tournament survives bad bots: one that crashes, one that hangs and one that sends garbage
lose those decisions to the deadline's default move and every game still ends; a bot whose
worker dies for good forfeits its games, recorded in the log, the standings and the table."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import pytest
from redis.asyncio import Redis
from tournament_helpers import Hexlog, Proc, events, standings_of, wait_for

from events.events import GameFinished, SeatForfeited
from services.projections.projector import results_key
from services.protocol import is_alive
from services.store.keys import game_keys

pytestmark = pytest.mark.slow

FAULTY = {"crash": "faulty_bots:CrashingBot", "hang": "faulty_bots:HangingBot",
          "garbage": "faulty_bots:GarbageBot"}


async def test_crashing_hanging_and_garbage_bots_do_not_stop_the_tournament(
    hexlog: Hexlog, redis: Redis
) -> None:
    # External workers, one per bad bot (a hang holds up every prompt of its worker).
    workers = {name: hexlog.start("serve", "bots", "--bots", f"{name}={ref}", name=f"worker-{name}")
               for name, ref in FAULTY.items()}

    async def registered() -> bool:
        return all([await is_alive(redis, f"bots:{name}") for name in FAULTY])

    await wait_for(registered, 30, "the faulty bots' workers")
    p = hexlog.start("tournament", "--bots", "crash,hang,garbage,random", "--games", "4",
                     "--seed", "faulty", "--deadline-ms", "300", "--turn-limit", "24",
                     "--concurrency", "4", "--json", name="tournament")
    code = await asyncio.to_thread(p.wait, 150)
    assert code == 0, p.describe()
    result = standings_of(p.stdout())
    assert sorted(r["bot"] for r in result["standings"]) == ["crash", "garbage", "hang", "random"]
    assert all(r["games"] == 4 and r["forfeits"] == 0 for r in result["standings"])

    defaults: Counter[str] = Counter()
    for game_id in result["game_ids"]:
        log = await events(redis, game_id)
        assert isinstance(log[-1].event, GameFinished)
        bots = [c.split(":", 1)[1] for c in json.loads(
            (await redis.hget(game_keys(game_id).meta, "controllers")).decode())]
        for env in log:
            if env.command_id.startswith("deadline:"):
                seat = int(env.command_id.rsplit(":", 1)[1])
                defaults[bots[seat]] += 1
    # Each bad bot's seats got default moves when it failed to answer in time ...
    for name in FAULTY:
        assert defaults[name] > 0, (defaults, workers[name].stderr()[-2000:])
    # ... and the bad answers reached the service and were refused there.
    rulings = 0
    for game_id in result["game_ids"]:
        rulings += await redis.xlen(game_keys(game_id).rulings)
    assert rulings > 0
    # The workers lived through it all.
    assert all(w.proc.poll() is None for w in workers.values())


async def test_a_bot_whose_worker_dies_for_good_forfeits_its_games(
    hexlog: Hexlog, redis: Redis, tmp_path: Path
) -> None:
    worker = hexlog.start("serve", "bots", "--bots", "gone=random", name="worker-gone")

    async def registered() -> bool:
        return await is_alive(redis, "bots:gone")

    await wait_for(registered, 30, "the worker of bot 'gone'")
    out = tmp_path / "out"
    p = hexlog.start("tournament", "--bots", "random,gone", "--games", "4", "--seed", "forfeit",
                     "--deadline-ms", "300", "--turn-limit", "40", "--forfeit-after", "1",
                     "--concurrency", "4", "--out", str(out), name="tournament")

    tid = await tid_of(p)

    async def playing() -> bool:  # the bot has answered a few prompts: now it goes away
        return bool(await redis.xlen(game_keys(f"{tid}-00000").ev) > 12)

    await wait_for(playing, 60, "the first game to get going")
    worker.kill()
    code = await asyncio.to_thread(p.wait, 150)
    assert code == 0, p.describe()

    result = json.loads((out / "standings.json").read_text())
    rows = {r["bot"]: r for r in result["standings"]}
    assert rows["gone"]["forfeits"] > 0
    assert rows["random"]["forfeits"] == 0
    forfeited_games = 0
    for game_id in result["game_ids"]:
        log = [env.event for env in await events(redis, game_id)]
        assert isinstance(log[-1], GameFinished)
        forfeits = [e for e in log if isinstance(e, SeatForfeited)]
        if forfeits:
            forfeited_games += 1
            created = log[0]
            names = created.names  # type: ignore[attr-defined]
            assert {names[e.seat].split("@")[0] for e in forfeits} == {"gone"}
            assert all("gone" in e.reason for e in forfeits)
            summary = json.loads((await redis.hget(results_key(result["tournament"]),
                                                   str(result["game_ids"].index(game_id)))).decode())
            assert sorted(summary["forfeits"]) == sorted(e.seat for e in forfeits)
    assert forfeited_games == rows["gone"]["forfeits"]
    # The table says so: a forfeits column, and what it means.
    text = (out / "standings.txt").read_text()
    assert "forfeits" in text.splitlines()[2]
    assert "left for good" in text
    header = text.splitlines()[2].split()
    from_end = len(header) - header.index("forfeits")  # a refused column may follow it
    gone_line = next(line for line in text.splitlines() if " gone " in line)
    assert gone_line.split()[-from_end] == str(rows["gone"]["forfeits"])


async def tid_of(p: Proc, timeout: float = 60) -> str:
    """The tournament id a running `hexlog tournament` announced on stderr."""

    async def announced() -> str | None:
        for line in p.stderr().splitlines():
            if line.startswith("tournament t-"):
                return line.split()[1].rstrip(":")
        assert p.proc.poll() is None, p.describe()
        return None

    tid: str = await wait_for(announced, timeout, "the tournament to start")
    return tid
