"""A bot that knows the gateway only from its HTTP API plays whole games.

`examples/bots/http_bot.py` imports nothing of hexlog and no Redis client: the standard
library only. Two of them take seats at a table through the lobby, the table's owner fills the
other seats with the shipped heuristic bot and starts it, and each plays its seat from its
NDJSON stream alone to the end: every move of its seat is one it sent (no deadline default),
none is refused, and the game audits clean.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import audited, new_table, start, wait_seated
from redis.asyncio import Redis

from services.rules.record import load_record
from services.store import EventStore

ROOT = Path(__file__).parents[2]
BOT = ROOT / "examples" / "bots" / "http_bot.py"


def test_the_http_bot_imports_only_the_standard_library() -> None:
    tree = ast.parse(BOT.read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import | ast.ImportFrom)
                for alias in (node.names if isinstance(node, ast.Import)
                              else [ast.alias(node.module or "")])}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


def run_bot(base: str, table: str, name: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(BOT), "--gateway", base, "--table", table, "--name", name],
        stdout=(tmp_path / f"{name}.out").open("wb"), stderr=(tmp_path / f"{name}.err").open("wb"),
        stdin=subprocess.DEVNULL, cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})


async def test_two_http_bots_play_a_whole_game_from_their_streams(
        gateway: str, redis_client: Redis, tmp_path: Path) -> None:
    table, owner = new_table(gateway, seats=4, deadline_ms=60_000)
    bots = [run_bot(gateway, table, f"hb{i}", tmp_path) for i in range(2)]
    try:
        wait_seated(gateway, table, 2)
        start(gateway, table, owner, fill="heuristic")
        for proc in bots:
            assert proc.wait(300) == 0, (tmp_path / "hb0.err").read_text()[-2000:]
    finally:
        for proc in bots:
            if proc.poll() is None:
                proc.kill()
    results = [json.loads((tmp_path / f"hb{i}.out").read_text().splitlines()[-1])
               for i in range(2)]
    assert {r["seat"] for r in results} == {0, 1}
    assert all(r["refused"] == 0 and r["sent"] > 10 for r in results), results
    assert results[0]["winner"] == results[1]["winner"]
    record = await load_record(EventStore(redis_client), table)
    moves = [(r.command.seat, r.envelope.command_id) for r in record.events
             if r.command is not None]
    assert moves
    for seat, command_id in moves:  # every move of the bots' seats is one they sent
        assert (seat in (0, 1)) == command_id.startswith("httpbot:"), (seat, command_id)
    assert await audited(redis_client, table) == 0
