"""A tournament waits for a rules service that is gone, however long it takes to come back
within the run's patience, and says so while it waits; gone for longer than the patience, the
run stops with one line that says how to continue. A create request sent again (its outcome
late) or read back by a resumed run opens the same credentials. (The rules service here is one
nobody restarts: `hexlog serve rules` run by hand, on a server of the test's own.)"""

from __future__ import annotations

import asyncio
import re

import pytest
from redis.asyncio import Redis
from test_robustness import tid_of
from tournament_helpers import Hexlog, Proc, standings_of, wait_for

from services.protocol import is_serving
from services.store.keys import game_keys
from services.tournament.runner import Spec, TournamentRunner


async def rules_service(hexlog: Hexlog, redis: Redis) -> Proc:
    rules = hexlog.start("serve", "rules", name="rules")

    async def serving() -> bool:
        return await is_serving(redis, "rules")

    await wait_for(serving, 60, "the rules service")
    return rules


@pytest.mark.slow
async def test_a_tournament_waits_for_a_rules_service_gone_for_half_a_minute(
    hexlog: Hexlog, redis: Redis
) -> None:
    rules = await rules_service(hexlog, redis)
    p = hexlog.start("tournament", "--bots", "random,heuristic", "--games", "8", "--seed",
                     "rules-away", "--concurrency", "4", "--json", name="tournament")
    tid = await tid_of(p)

    async def playing() -> bool:
        return bool(await redis.xlen(game_keys(f"{tid}-00000").ev) > 12)

    await wait_for(playing, 60, "the first game to get going")
    rules.kill()

    def told() -> list[int]:
        return [int(s) for s in re.findall(r"hexlog: waiting for the rules service \(gone "
                                           r"(\d+) s; waiting for one to start\) …", p.stderr())]

    async def waited_half_a_minute() -> bool:  # longer than the run used to wait (30 s)
        assert p.proc.poll() is None, p.describe()
        return max(told(), default=0) > 30

    await wait_for(waited_half_a_minute, 90, "the tournament to have waited 30 s", every=0.5)
    await rules_service(hexlog, redis)
    code = await asyncio.to_thread(p.wait, 150)
    assert code == 0, p.describe()
    # Told when the heartbeat lapsed (3 s after the kill), then every 10 s with the time waited.
    waits = told()
    assert 3 <= waits[0] <= 4, waits
    gaps = [later - earlier for earlier, later in zip(waits, waits[1:], strict=False)]
    assert all(9 <= gap <= 12 for gap in gaps), waits
    assert re.search(r"hexlog: the rules service is back after \d+ s; going on", p.stderr())
    assert len(standings_of(p.stdout())["game_ids"]) == 8


async def test_a_rules_service_gone_longer_than_the_patience_stops_the_run_in_one_line(
    hexlog: Hexlog, redis: Redis
) -> None:
    rules = await rules_service(hexlog, redis)
    p = hexlog.start("tournament", "--bots", "random,heuristic", "--games", "4", "--seed",
                     "rules-gone", "--concurrency", "4", "--wait-for-services", "5",
                     name="tournament")
    await tid_of(p)
    rules.kill()
    code = await asyncio.to_thread(p.wait, 60)
    assert code == 1, p.describe()
    lines = [line for line in p.stderr().splitlines() if line.startswith("hexlog: ")]
    assert any(re.fullmatch(r"hexlog: waiting for the rules service \(gone [34] s; waiting for "
                            r"one to start\) …", line) for line in lines), lines
    assert re.fullmatch(r"hexlog: no rules service for [5-7] s \(the limit is 5 s, "
                        r"--wait-for-services\); the tournament stopped: continue it with "
                        r"--resume once one runs", lines[-1]), lines
    assert "Traceback" not in p.stderr()


async def test_a_create_request_sent_again_or_after_a_resume_opens_the_same_credentials(
    hexlog: Hexlog, redis: Redis
) -> None:
    """The runner sends a create request again when its outcome is late (its consumer may have
    died holding it), and a resumed run reads the referee credential back for forfeits: both
    open the outcome the first send got, because the request keeps its reply key."""
    await rules_service(hexlog, redis)
    spec = Spec(bots=["random", "heuristic"], games=4, turn_limit=4)
    first = TournamentRunner(redis, spec)
    await first.start(resume=False)
    game = first.games[0]
    await first.create(game)
    referee = await first.referee(game)
    assert referee
    again = await first.client.create_game(first.create_request(game))  # a second send
    assert again.referee == referee
    resumed = TournamentRunner(redis, spec)
    await resumed.start(resume=True)
    assert await resumed.referee(game) == referee
