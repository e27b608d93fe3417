"""Attack 5: predicting the dice, and a bot given by import path reading what it should not.

Seeds come from the operating system unless an organiser asks for reproducible games; a
tournament's seed is kept where no bot, projection or spectator user can read it and is shown
only once its games are over; a create request's seed leaves the organisers' stream as soon as
the game exists. A bot given by import path runs in a worker of its own, as a Redis user that
reaches its own prompts and command streams only, on a server whose default user has a
password.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError
from service_helpers import create_request, created_outcome, pump, send_create

from events.requests import CreateGame
from events.sealed import new_reply_key
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import commands_key, partition
from services.tournament.runner import Spec, TournamentRunner, spec_key

HERE = Path(__file__).parent


async def test_games_without_a_seed_get_unpredictable_ones(
    service: RulesService, redis_client: Redis, store: EventStore
) -> None:
    commitments = set()
    for game in ("g-a", "g-b"):
        # The same request, no seed (each with its own reply key).
        req = CreateGame(command_id=f"c-{game}", game_id=game, reply_key=new_reply_key())
        await send_create(redis_client, req)
        await pump(service)
        assert (await created_outcome(store, req) or {})["status"] == "created"
        commitments.add((await store.meta(game) or {})["seed_sha256"])
    assert len(commitments) == 2


async def test_a_create_requests_seed_leaves_the_stream_once_the_game_exists(
    service: RulesService, redis_client: Redis, store: EventStore
) -> None:
    req = create_request("g-seeded")
    await send_create(redis_client, req)
    assert await redis_client.xlen(commands_key(partition("g-seeded"))) == 1
    await pump(service)
    assert await redis_client.xlen(commands_key(partition("g-seeded"))) == 0
    meta = await store.meta("g-seeded") or {}
    assert req.seed is not None
    assert req.seed not in json.dumps(meta)
    assert (await store.secret("g-seeded") or {})["seed"] == req.seed


async def test_a_tournament_seed_is_drawn_kept_from_bots_and_revealed_at_the_end(
    redis_client: Redis, user: Callable[..., Awaitable[Redis]]
) -> None:
    spec = Spec(bots=["random", "heuristic"], games=4)
    first, second = TournamentRunner(redis_client, spec), TournamentRunner(redis_client, spec)
    tid1, tid2 = await first.start(resume=False), await second.start(resume=False)
    assert first.seed != second.seed
    assert len(first.seed) == 64
    assert [g.seed for g in first.games] != [g.seed for g in second.games]
    assert tid1.split("-")[1] == tid2.split("-")[1]  # the same command line: the same digest
    resumed = TournamentRunner(redis_client, spec)
    await resumed.start(resume=True)
    assert resumed.seed == second.seed  # a resumed run plays the seeds it drew
    for role in (("bot", "random"), ("projections",)):
        spy = await user(*role)
        with pytest.raises(NoPermissionError):
            await spy.get(spec_key(tid1))


def test_a_given_seed_is_not_testable_from_the_public_tournament_id() -> None:
    """The tournament id (in every game id, which bots see) is a digest of the spec; a given
    seed enters it only through a keyed hash, so guessing seeds against it needs the seed."""
    a, b = Spec(bots=["x"], games=4, seed="readme"), Spec(bots=["x"], games=4, seed="readme2")
    assert a.digest() != b.digest()
    assert "readme" not in json.dumps(a.digest())


@pytest.mark.slow
def test_a_bot_given_by_import_path_reaches_nothing_but_its_own_streams(tmp_path: Path) -> None:
    """A real `hexlog tournament` on its own embedded server (no REDIS_URL): the spy bot plays
    its games, and every attack it made from inside its worker was refused."""
    report = tmp_path / "spy.json"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(PYTHONPATH=str(HERE), HEXLOG_SPY_REPORT=str(report),
               HEXLOG_LOG_DIR=str(tmp_path / "logs"))
    done = subprocess.run(
        [sys.executable, "-m", "services.cli.main", "tournament", "--bots",
         "spy=hostile_bots:SpyBot,random", "--games", "4", "--turn-limit", "20",
         "--deadline-ms", "2000", "--data-dir", str(tmp_path / "data"), "--json"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {r["bot"]: r for r in json.loads(done.stdout.splitlines()[-1])["standings"]}
    assert rows["spy"]["games"] == 4
    found = json.loads(report.read_text())
    assert found.pop("whoami") == "bot-spy"
    allowed = {attack: result for attack, result in found.items() if not result.startswith("refused")}
    assert not allowed, allowed
    assert len(found) == 24

