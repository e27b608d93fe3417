"""A tournament rides out a rules service that keeps crashing: `hexlog up` runs the services on
the embedded Valkey, a 32-game tournament attaches to it, and the rules service is SIGKILLed
every 2-5 s (seeded) for 40 s (about ten kills).

What must hold: the tournament says on stderr that it waits for the rules service and that it
is back, and goes on; it exits 0 with every game finished, and every game audits clean
(re-judged from its seed). `hexlog up` restarts the service after each kill, and never waits
longer than it says it will (5 s at most)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import time

import psutil
import pytest
import redis
from cli_helpers import Hexlog
from test_shared_server import ctrl_c

from services.audit.audit import audit
from services.protocol import alive_key
from services.rules.record import load_record
from services.runtime.processes import MAX_BACKOFF_S
from services.store import EventStore
from services.store.connect import connect

pytestmark = pytest.mark.slow

GAMES = 32
CHAOS_S = 40.0
KILL_EVERY_S = (2.0, 5.0)
SERVICES = ("rules", "projections", "bots:random", "bots:heuristic")


def rules_service(up: subprocess.Popen[str]) -> psutil.Process | None:
    """The rules service `up` runs now; None between a kill and its restart."""
    for child in psutil.Process(up.pid).children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE and child.cmdline()[-2:] == ["serve", "rules"]:
                return child
        except psutil.Error:  # ended while we looked
            continue
    return None


def kill_rules_for(up: subprocess.Popen[str], tournament: subprocess.Popen[str],
                   seconds: float, rng: random.Random) -> tuple[int, int]:
    """SIGKILL the rules service every 2-5 s until `seconds` have passed or the tournament
    ended; (kills, ticks): a tick that finds no service (`up` about to restart it) kills none."""
    kills = ticks = 0
    until = time.monotonic() + seconds
    while time.monotonic() < until and tournament.poll() is None:
        time.sleep(rng.uniform(*KILL_EVERY_S))
        if tournament.poll() is not None:
            break  # (a kill now could come as `up` stops, and go untold: no restart follows)
        ticks += 1
        victim = rules_service(up)
        if victim is not None:
            victim.kill()
            kills += 1
    return kills, ticks


def wait_for_services(hexlog: Hexlog, timeout: float = 60) -> None:
    admin = redis.Redis.from_url((hexlog.data / "valkey.url").read_text().strip())
    try:
        deadline = time.monotonic() + timeout
        while not all(admin.exists(alive_key(s)) for s in SERVICES):
            assert time.monotonic() < deadline, "the services of hexlog up never started"
            time.sleep(0.2)
    finally:
        admin.close()


async def audits(url: str, game_ids: list[str]) -> dict[str, tuple[str, int]]:
    """Each game's status and audit exit code (0: every die and ruling re-judged the same)."""
    client = connect(url)
    try:
        store = EventStore(client)
        return {g: ((await store.meta(g) or {}).get("status", ""),
                    audit(await load_record(store, g)).exit_code) for g in game_ids}
    finally:
        await client.aclose()


def test_a_tournament_rides_out_a_rules_service_killed_every_few_seconds(hexlog: Hexlog) -> None:
    up = hexlog.start("up")
    hexlog.wait_for_line(up, "supervising rules, projections and bots", timeout=60)
    wait_for_services(hexlog)
    started = time.monotonic()
    tournament = hexlog.start("tournament", "--bots", "random,heuristic", "--games", str(GAMES),
                              "--seed", "rules-crashes", "--concurrency", "8", "--json")
    said = hexlog.wait_for_line(tournament, "tournament t-", timeout=60)

    kills, ticks = kill_rules_for(up, tournament, CHAOS_S, random.Random("rules-crashes"))
    out, err = tournament.communicate(timeout=900)
    wall = time.monotonic() - started
    err = "".join(said) + err
    assert tournament.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    # The chaos was real: services were killed, and the run saw the service gone.
    assert kills >= 5, (kills, ticks, err[-2000:])
    assert "hexlog: waiting for the rules service (gone" in err, err[-3000:]
    assert "`hexlog up` restarts it) …" in err
    assert "hexlog: the rules service is back after" in err

    result = json.loads(out.strip().splitlines()[-1])
    assert result["games"] == GAMES
    assert len(result["game_ids"]) == GAMES
    audited = asyncio.run(audits((hexlog.data / "valkey.url").read_text().strip(),
                                 result["game_ids"]))
    assert [g for g, found in audited.items() if found != ("finished", 0)] == [], audited

    code, up_err = ctrl_c(up)
    assert code == 0, up_err[-3000:]
    restarts = re.findall(r"hexlog: up: rules exited with code -9 after [\d.]+s; "
                          r"restarting (?:now|in (\d+)s)", up_err)
    assert len(restarts) == kills, up_err[-3000:]
    pauses = [int(p) for p in restarts if p]
    assert pauses, up_err[-3000:]  # kills within 10 s of a start: restarts after a pause
    assert max(pauses) <= MAX_BACKOFF_S == 5, pauses
    print(f"{GAMES} games, {kills} kills of the rules service in {ticks} ticks, "
          f"{err.count('waiting for the rules service')} waits told, "
          f"restart pauses {pauses}, {wall:.0f} s")
