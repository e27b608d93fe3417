"""A hexlog bot written from docs/protocol.md alone: redis-py and the standard library only.

    REDIS_URL=redis://bot-plain:PASSWORD@host:6379/0 python plain_bot.py --pool plain
    REDIS_URL=redis+cluster://bot-plain:PASSWORD@node:7000 python plain_bot.py   # a Cluster

It registers its pool, keeps its heartbeat, reads prompts from all 16 partitions, answers each
with a signed command, and acknowledges it. Its play is simple: build what it can (city, then
settlement, then a development card, then a road), otherwise any legal move; when a prompt
lists no move (a discard) it sends the prompt's default. Nothing here imports hexlog: every key,
field and rule used is the one docs/protocol.md states, section by section (§ numbers below).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import random
import signal
import time
import uuid
from typing import Any

import redis
from redis.cluster import RedisCluster

PARTITIONS = 16  # §1: partitions 000..015
GROUP = "workers"  # §2: the consumer group on prompt streams
PREFER = ("BuildCity", "BuildSettlement", "PlaceSettlement", "PlaceRoad", "BuyDevelopmentCard",
          "BuildRoad", "RollDice")  # what to do first when it is legal


def prompt_streams(pool: str) -> list[str]:
    """§2: one prompt stream per partition."""
    return [f"hexlog:{{{p:03d}}}:prompts:bot:{pool}" for p in range(PARTITIONS)]


def register(r: redis.Redis, pool: str, needs_view: bool) -> None:
    """§3: declare the pool and create the consumer group on each of its prompt streams."""
    r.hset(f"hexlog:pool:bot:{pool}", "needs_view", int(needs_view))
    for stream in prompt_streams(pool):
        try:
            r.xgroup_create(stream, GROUP, id="0", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise


def heartbeat(r: redis.Redis, pool: str, consumer: str) -> None:
    """§3: both keys, 3 s to live, renewed every second."""
    r.set(f"hexlog:alive:bots:{pool}", consumer, ex=3)
    r.set(f"hexlog:svc:bots:{pool}:{consumer}", "1", ex=3)


def choose(prompt: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """§5: a command from the prompt's options, or its default when it lists none."""
    options = prompt["options"]
    if not options:
        return dict(prompt["default"])
    for kind in PREFER:
        found = [o for o in options if o["type"] == kind]
        if found:
            return dict(rng.choice(found))
    return dict(rng.choice(options))


def answer(pool: str, stream: str, fields: dict[bytes, bytes], rng: random.Random) -> tuple[str, dict[str, str]]:
    """§4–§6: the command stream entry answering one prompt entry."""
    game = fields[b"game"].decode()
    seat = int(fields[b"seat"])
    version = int(fields[b"version"])
    key = bytes.fromhex(fields[b"key"].decode())
    prompt = json.loads(fields[b"prompt"])
    envelope = {
        "command_id": f"{pool}:{game}:{version}:{seat}",  # §6: unique, and the same if re-sent
        "game_id": game,
        "expected_version": version,
        "command": choose(prompt, rng),
    }
    data = json.dumps(envelope, separators=(",", ":")).encode()
    mac = hmac.new(key, data, hashlib.sha256).hexdigest()  # §6: over the exact bytes sent
    commands = stream.replace(":prompts:", ":cmds:")  # §6: the same partition, the pool's stream
    return commands, {"__data__": data.decode(), "mac": mac}


def connect(url: str) -> tuple[redis.Redis, bool]:
    """§1: `redis+cluster://` names a Redis Cluster (any one node); anything else one server."""
    if url.startswith(("redis+cluster://", "rediss+cluster://")):
        return RedisCluster.from_url(url.replace("+cluster", "", 1)), True  # type: ignore[return-value]
    return redis.Redis.from_url(url), False


def read_prompts(r: redis.Redis, consumer: str, streams: list[str], cluster: bool) -> list[Any]:
    """§2: one XREADGROUP over every partition on one server; on a Cluster a call's keys must
    share a slot, so each partition is read by a call of its own (without blocking, then a
    short pause when all were empty)."""
    if not cluster:
        return r.xreadgroup(GROUP, consumer, {s: ">" for s in streams}, count=32, block=500) or []  # type: ignore[arg-type, return-value]
    reply: list[Any] = []
    for stream in streams:
        reply += r.xreadgroup(GROUP, consumer, {stream: ">"}, count=32) or []  # type: ignore[arg-type, operator]
    if not reply:
        time.sleep(0.05)
    return reply


def run(url: str, pool: str, stop: list[bool]) -> int:
    r, cluster = connect(url)
    consumer = f"plain-{uuid.uuid4().hex[:8]}"
    rng = random.Random(0)
    register(r, pool, needs_view=False)
    streams = prompt_streams(pool)
    answered = 0
    beat = 0.0
    try:
        while not stop:
            if time.monotonic() - beat > 1.0:
                beat = time.monotonic()
                heartbeat(r, pool, consumer)
            for raw_stream, entries in read_prompts(r, consumer, streams, cluster):
                stream = raw_stream.decode()
                for entry_id, fields in entries:
                    commands, body = answer(pool, stream, fields, rng)
                    r.xadd(commands, body)  # type: ignore[arg-type]
                    r.xack(stream, GROUP, entry_id)  # §5: after the answer is sent
                    answered += 1
    finally:
        r.delete(f"hexlog:svc:bots:{pool}:{consumer}")  # §3: leave cleanly
        r.close()
    return answered


def main() -> None:
    parser = argparse.ArgumentParser(description="A hexlog bot from docs/protocol.md")
    parser.add_argument("--pool", default="plain", help="the bot pool this worker serves")
    parser.add_argument("--url", default=os.environ.get("REDIS_URL", "redis://localhost:6379/0"),
                        help="the pool user's Redis URL (default $REDIS_URL)")
    args = parser.parse_args()
    stop: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    signal.signal(signal.SIGINT, lambda *_: stop.append(True))
    answered = run(args.url, args.pool, stop)
    print(f"plain bot {args.pool}: answered {answered} prompts")


if __name__ == "__main__":
    main()
