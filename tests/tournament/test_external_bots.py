"""Bots given by import path (`name=package.module:Factory`): parsed, built and served under
their own pool name, by `hexlog serve bots` or by the tournament itself."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from tournament_helpers import Hexlog, standings_of

from bots.random_bot import RandomBot
from bots.registry import make_bot, parse_bot_spec
from bots.worker import BotWorker, ensure_groups
from services.protocol import pool_key


def test_bot_specs() -> None:
    assert parse_bot_spec("random") == ("random", "random")
    assert parse_bot_spec(" mybot = faulty_bots:CrashingBot ") == ("mybot", "faulty_bots:CrashingBot")
    assert parse_bot_spec("other=heuristic") == ("other", "heuristic")
    for bad in ("", "=x:Y", "my bot=x:Y", "name=", "a:b=c:D"):
        with pytest.raises(ValueError, match="bad bot"):
            parse_bot_spec(bad)


def test_make_bot_by_import_path() -> None:
    bot = make_bot("crash=faulty_bots:CrashingBot", 7)
    assert type(bot).__name__ == "CrashingBot"
    assert isinstance(bot, RandomBot)
    assert isinstance(make_bot("alias=random", 0), RandomBot)
    with pytest.raises(ValueError, match="cannot load bot factory"):
        make_bot("x=faulty_bots:NoSuchBot", 0)
    with pytest.raises(ValueError, match="cannot load bot factory"):
        make_bot("x=no_such_module_here:Bot", 0)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nosuchbot", 0)


async def test_a_worker_serves_a_spec_under_its_pool_name(redis_client: Redis) -> None:
    worker = BotWorker(redis_client, ["crash=faulty_bots:CrashingBot", "random"])
    assert worker.pools == ["crash", "random"]
    assert set(worker.keys.values()) == {"crash", "random"}
    await ensure_groups(redis_client, worker.specs)
    assert await redis_client.hget(pool_key("bot:crash"), "needs_view") == b"0"


@pytest.mark.slow
async def test_a_tournament_starts_workers_for_bots_given_by_import_path(hexlog: Hexlog) -> None:
    p = hexlog.start("tournament", "--bots", "mine=faulty_bots:CrashingBot,random", "--games", "4",
                     "--seed", "import-path", "--deadline-ms", "300", "--turn-limit", "12",
                     "--json")
    code = await asyncio.to_thread(p.wait, 120)
    assert code == 0, p.describe()
    rows = {r["bot"]: r for r in standings_of(p.stdout())["standings"]}
    assert set(rows) == {"mine", "random"}
    assert rows["mine"]["games"] == 4
