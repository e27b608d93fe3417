"""The hot paths' pipeline (services/store/lean.py) gives what redis-py's pipeline gives: the
same replies, shaped by the same callbacks, a failed command's error in its place; and a read
cut by the timeout drops its connection, so no reply left on the wire reaches the next call."""

from __future__ import annotations

import time
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.store.connect import connect
from services.store.lean import LeanPipeline, lean_pipeline

# A Cluster keeps redis-py's own pipeline (lean_pipeline says so): one server only.
pytestmark = pytest.mark.single_server


def queue(pipe: Any) -> None:
    pipe.set("k", "v")
    pipe.hset("h", mapping={"a": 1, "b": 2})
    pipe.hgetall("h")
    pipe.xadd("s", {"f": "1"}, id="1-0")
    pipe.xgroup_create("s", "g", id="0")
    pipe.xreadgroup("g", "c", {"s": ">"}, count=10)
    pipe.incr("k")  # not an integer: an error, in its place
    pipe.get("k")
    pipe.exists("k", "nothing")


async def test_the_same_replies_as_redis_pys_pipeline(redis_client: Redis) -> None:
    theirs = redis_client.pipeline(transaction=False)
    queue(theirs)
    expected = await theirs.execute(raise_on_error=False)
    await redis_client.flushall()
    ours = lean_pipeline(redis_client)
    assert isinstance(ours, LeanPipeline)
    queue(ours)
    got = await ours.execute(raise_on_error=False)
    assert len(got) == len(expected)
    for mine, theirs_reply in zip(got, expected, strict=True):
        if isinstance(theirs_reply, Exception):
            assert type(mine) is type(theirs_reply)
            assert str(mine) == str(theirs_reply)
        else:
            assert mine == theirs_reply
    assert got[2] == {b"a": b"1", b"b": b"2"}  # shaped by the client's callback
    assert got[5] == [[b"s", [(b"1-0", {b"f": b"1"})]]]


async def test_an_error_is_raised_after_every_reply_is_read(redis_client: Redis) -> None:
    pipe = lean_pipeline(redis_client)
    pipe.set("k", "v")
    pipe.incr("k")
    pipe.set("after", "1")
    with pytest.raises(ResponseError, match="not an integer"):
        await pipe.execute()
    assert await redis_client.get("after") == b"1"  # the batch ran whole
    assert await redis_client.ping()  # and the connection is in step


async def test_a_read_cut_by_the_timeout_drops_its_connection(redis_client: Redis,
                                                              url: str) -> None:
    client = connect(url, socket_timeout=0.2)
    try:
        pipe = lean_pipeline(client)
        pipe.set("x", "1")
        pipe.blpop(["empty"], timeout=2)  # answers after 2 s: past the socket timeout
        began = time.monotonic()
        with pytest.raises(RedisTimeoutError):
            await pipe.execute()
        assert time.monotonic() - began < 2  # the timer cut it (once per retry), not the server
        # A connection still holding BLPOP's late reply must not serve the next call.
        await redis_client.rpush("empty", "late")
        pipe = lean_pipeline(client)
        pipe.get("x")
        pipe.lrange("empty", 0, -1)
        assert await pipe.execute() == [b"1", [b"late"]]
    finally:
        await client.aclose()
