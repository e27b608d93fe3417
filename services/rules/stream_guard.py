"""One bad command stream never stops the others.

The rules service reads every command stream of its lane's partitions in one XREADGROUP (one
per partition on a Cluster). A single key that cannot be read that way — not a stream, its
consumer group gone, a node that refuses it — fails the whole call, and with it every other
partition. So when a read fails, each stream is read on its own, and one that fails is
looked at:

* a stream that is missing, or lost its group (the server restarted without its data), gets
  its group made again;
* a key of another type at a command stream's name cannot hold commands: the rules service
  owns these names, so it renames the key aside (`hexlog:{p}:quarantine:…`, kept a day for
  the operator to look at) and makes the stream again;
* any other error sets the stream aside for a while (a few seconds, doubling up to a minute)
  and the others are read without it.

Each finding is logged, written to the partition's dead-letter stream, and shown in the
service's heartbeat (`hexlog health rules` prints it) until the stream reads again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from services.rules.set_aside import SetAsideKeys
from services.store.keys import RULES_GROUP, dlq_key, tag
from services.store.streams import Entry

log = structlog.get_logger("hexlog.rules")

QUARANTINE_TTL_S = 24 * 3600
DLQ_MAXLEN = 10_000


class StreamGuard(SetAsideKeys):
    """The command streams set aside (`readable`, `status`, `recovered`), and how a stream a
    read failed on is looked at."""

    def __init__(self, redis: Redis, group: str = RULES_GROUP) -> None:
        super().__init__("command stream(s)")
        self.redis = redis
        self.group = group

    async def read_each(self, streams: Sequence[str], consumer: str,
                        count: int) -> list[tuple[str, list[Entry]]]:
        """After a read over all `streams` failed: read each on its own (without waiting),
        repair what can be repaired, set aside what cannot; the entries of the others."""
        pipe = self.redis.pipeline(transaction=False)
        for stream in streams:
            pipe.xreadgroup(self.group, consumer, {stream: ">"}, count=count)
        replies = await pipe.execute(raise_on_error=False)
        out: list[tuple[str, list[Entry]]] = []
        for stream, reply in zip(streams, replies, strict=True):
            if isinstance(reply, Exception):
                try:
                    await self._diagnose(stream, reply)
                except Exception as exc:  # noqa: BLE001 - whatever it is, the others go on
                    await self._set_aside(stream, exc)
                continue
            self.recovered([stream])
            out.extend((_text(name), entries) for name, entries in reply or [])
        return out

    async def _diagnose(self, stream: str, error: Exception) -> None:
        kind = _text(await self.redis.type(stream))
        if kind not in ("stream", "none"):
            await self._quarantine(stream, kind)
        elif "NOGROUP" in str(error):
            await self._make(stream)
            log.warning("command stream's group made again", stream=stream)
        else:
            await self._set_aside(stream, error)

    async def _make(self, stream: str) -> None:
        try:
            await self.redis.xgroup_create(stream, self.group, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def _quarantine(self, stream: str, kind: str) -> None:
        aside = f"{tag(_partition(stream))}:quarantine:{stream.rsplit('}:', 1)[1]}:{int(time.time() * 1000)}"
        await self.redis.rename(stream, aside)
        await self.redis.expire(aside, QUARANTINE_TTL_S)
        await self._make(stream)
        reason = (f"service.stream.broken: {stream} was a {kind}, not a stream: renamed to "
                  f"{aside} (kept {QUARANTINE_TTL_S // 3600} h) and made again")
        log.error("command stream was not a stream", stream=stream, kind=kind, moved_to=aside)
        await self._report(stream, reason)

    async def _set_aside(self, stream: str, error: Exception) -> None:
        if self.put_aside(stream, error):
            reason = self.keys[stream].reason
            await self._report(stream, f"service.stream.broken: {stream} set aside: {reason}")

    async def _report(self, stream: str, reason: str) -> None:
        try:
            await self.redis.xadd(dlq_key(_partition(stream)),
                                  {"reason": reason, "stream": stream},
                                  maxlen=DLQ_MAXLEN, approximate=True)
        except Exception:  # noqa: BLE001 - the log already has it
            log.warning("could not write the dead letter", stream=stream, exc_info=True)


def _partition(stream: str) -> int:
    return int(stream.split("{", 1)[1].split("}", 1)[0])


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
