"""The event store: per-game append-only logs on Redis streams, with idempotent, versioned appends.

Why this shape (docs/design.md "Redis layout"): one Lua script per write does every check
and every write of a commit in a single server step: refuse a command id that already has an
outcome, compare the game version with the expected one (the CAS that lets any number of rules
replicas consume any command), XADD the events with ids `<version>-0`, bump meta.version, write
the partition feed entry and the command's outcome (TTL 7 days). The store never looks inside an
event: payloads are bytes the caller encoded (msgspec JSON); it only stores them under
`__data__`, the field FastStream's stream parser reads.

The client must return bytes (`decode_responses=False`): events are bytes, not text.

Under `replica` durability (durability.py) every command's outcome is acknowledged only once a
replica holds it: written marked, published after a WAIT (replicated.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

import msgspec
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import NoScriptError, ResponseError
from redis.typing import EncodableT, FieldT

from services import metrics
from services.store.coalesce import CoalescingRunner
from services.store.connect import decodes_responses, is_cluster
from services.store.durability import Durability
from services.store.keys import (
    GAMES_INDEX,
    ORGANISER,
    OUTCOMES_TTL_SECONDS,
    GameKeys,
    game_keys,
    outcome_field,
)
from services.store.lean import lean_pipeline
from services.store.replicated import (
    OutcomeLost,
    Publication,
    is_pending,
    pending,
    published,
    settle,
)
from services.store.results import (
    AppendResult,
    CorruptLogError,
    GameExistsError,
    Loaded,
    LogEntry,
    PromptWrite,
    Snapshot,
)
from services.store.scripts import script

S = TypeVar("S")
FieldValue = str | bytes | int | float

log = logging.getLogger(__name__)

# Rulings and prompts are per-seat chatter, not the source of truth; cap them (approximately,
# which is O(1)) so a client spamming bad commands cannot grow a key without bound.
RULINGS_MAXLEN = 10_000
PROMPTS_MAXLEN = 1_000


class EventStore:
    """Async event store over one `redis.asyncio.Redis` or `RedisCluster` (see keys.py, connect.py)."""

    def __init__(self, redis: Redis, *, coalesce_appends: bool = False,
                 durability: Durability | None = None) -> None:
        """`coalesce_appends`: appends issued in the same loop turn (a rules service judging
        many games at once) share one pipeline (coalesce.py). `durability`: when a write is
        acknowledged (default: $HEXLOG_DURABILITY, else a replica's wherever one exists)."""
        if decodes_responses(redis):
            raise ValueError(
                "EventStore needs a client with decode_responses=False (events are bytes)"
            )
        self.redis = redis
        self.durability = durability or Durability()
        self._appends: Redis | CoalescingRunner = (
            CoalescingRunner(redis) if coalesce_appends else redis)

    # -- writes ----------------------------------------------------------------------------------

    async def create_game(
        self,
        game_id: str,
        created_event: bytes,
        meta: Mapping[str, FieldValue],
        *,
        secret: Mapping[str, FieldValue] | None = None,
        command_id: str | None = None,
        outcome: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """Create meta (version 1 + `meta`), the secret hash (`secret`: the seed and the
        credentials, readable by the rules service only) and event 1 atomically;
        GameExistsError if the game is there.

        With `command_id`, the creating request's `outcome` (default `{"status": "created"}`)
        is stored in the same script (scope `org`), so a redelivered create gets the original
        outcome back (returned) instead of GameExistsError. Returns the stored outcome, or None
        without one.
        """
        if "version" in meta:
            raise ValueError("meta must not set 'version': the store owns it")
        k = game_keys(game_id)
        fields: dict[str, FieldValue] = {"created_at": datetime.now(UTC).isoformat(), **meta}
        pairs: list[EncodableT] = [x for kv in fields.items() for x in kv]
        hidden: list[EncodableT] = [x for kv in (secret or {}).items() for x in kv]
        keys = [k.ev, k.meta, k.feed, k.secret, k.outcomes]
        body = b""
        field = ""
        if command_id is not None:
            field = outcome_field(ORGANISER, command_id)
            body = msgspec.json.encode({"status": "created", "game": game_id, **(outcome or {})})
        replicated = bool(field) and await self.durability.replicated(self.redis)
        if replicated:
            body = pending(body)
        while True:
            args: list[EncodableT] = [game_id, created_event, command_id or "", body, field,
                                      len(pairs), *pairs, *hidden]
            acks = 0
            if replicated:
                reply, acks = await script("create_game").run_waited(
                    self.redis, keys, args, self.durability.replicas, self.durability.wait_ms)
            else:
                reply = await script("create_game").run(self.redis, keys, args)
            # The index is outside the game's slot, so it is written after the script; doing
            # it on the other paths too heals a crash between the two.
            await self.redis.zadd(GAMES_INDEX, {game_id: time.time()}, nx=True)
            if reply[0] not in (b"duplicate", b"created"):
                raise GameExistsError(f"game {game_id!r} exists (version {int(reply[1])})")
            raw = reply[1] if reply[0] == b"duplicate" else body
            if replicated and is_pending(raw):
                try:
                    # (a WAIT answers for this call's own write only: "created")
                    await settle(self.redis, self.durability, k, field, raw,
                                 acks if reply[0] == b"created" else 0,
                                 Publication(game_id, command_id or ""))
                except OutcomeLost:
                    self.durability.lost(field)
                    continue  # lost with its primary before a replica had it: create it again
                raw = published(raw)
            if reply[0] == b"duplicate":
                return _decode_outcome(raw)
            return None if command_id is None else _decode_outcome(raw)

    async def append(
        self,
        game_id: str,
        expected_version: int,
        command_id: str,
        events: Sequence[bytes],
        *,
        scope: str,
        outcome_extra: bytes | None = None,
        command: bytes = b"",
        prompt: PromptWrite | None = None,
        finished_winner: int | None = None,
    ) -> AppendResult:
        """Append `events` after `expected_version`, once per (`scope`, `command_id`): the
        scope is who sent the command (keys.py: `s<seat>`, `ref`, `org`, `svc`).

        `outcome_extra`, if given, must be one JSON value; it is stored in the outcome under
        "extra" so a redelivered command gets it back unchanged. `command`, if given, is the
        command's body (JSON), kept with the batch's first event for audits (`read_entries`).
        `prompt`, if given, is written in the same script when (and only when) the events are.
        `finished_winner`, if given (-1: no winner), marks the game finished in meta in the same
        step as its final event.
        """
        began = time.perf_counter()
        try:
            return await self._append(game_id, expected_version, command_id, events, scope,
                                      outcome_extra, command, prompt, finished_winner)
        except ResponseError:
            metrics.SCRIPT_ERRORS.labels("append").inc()
            raise
        finally:
            metrics.APPEND_SECONDS.observe(time.perf_counter() - began)

    async def _append(self, game_id: str, expected_version: int, command_id: str,
                      events: Sequence[bytes], scope: str, outcome_extra: bytes | None,
                      command: bytes, prompt: PromptWrite | None,
                      finished_winner: int | None) -> AppendResult:
        call = append_call(game_id, expected_version, command_id, events, scope=scope,
                           outcome_extra=outcome_extra, command=command, prompt=prompt,
                           finished_winner=finished_winner)
        if await self.durability.replicated(self.redis):
            return await self._append_replicated(
                game_keys(game_id), expected_version, outcome_field(scope, command_id),
                call.outcome, command, events,
                Publication(game_id, command_id, call.first, call.last, finished_winner, prompt))
        return call.result(await script("append").run(self._appends, call.keys, call.args))

    async def append_many(
        self, calls: Sequence[AppendCall], after: Callable[[Pipeline], object] | None = None,
    ) -> tuple[list[AppendResult | Exception], list[Any]]:
        """Several games' appends in one pipeline (one write, one read; each still its own
        script run with its own reply): the rules service's pass over one read of its command
        streams (services/rules/batch.py). Only without replica durability and on one server
        (`batches_appends`). A call whose script fails has its error in its place.

        `after` may queue more commands behind the appends, in the same round trip (the rules
        service's acks and next read); their replies come second, errors in their place."""
        began = time.perf_counter()
        lua = script("append")
        pipe: Any = lean_pipeline(self.redis)  # its execute_command is untyped
        for call in calls:
            pipe.execute_command("EVALSHA", lua.sha, len(call.keys), *call.keys, *call.args)
        if after is not None:
            after(pipe)
        replies = await pipe.execute(raise_on_error=False)
        results: list[AppendResult | Exception] = []
        for call, reply in zip(calls, replies, strict=False):
            if isinstance(reply, NoScriptError):  # the server forgot it (a restart): loaded
                try:
                    reply = await lua.run(self.redis, call.keys, call.args)
                except ResponseError as exc:
                    reply = exc
            if isinstance(reply, Exception):
                metrics.SCRIPT_ERRORS.labels("append").inc()
                results.append(reply)
                continue
            try:
                results.append(call.result(reply))
            except CorruptLogError as exc:
                results.append(exc)
        spent = time.perf_counter() - began
        for _ in calls:
            metrics.APPEND_SECONDS.observe(spent)
        return results, replies[len(calls):]

    async def batches_appends(self) -> bool:
        """Whether `append_many` may be used: one server (not a Cluster), writes not waiting
        for a replica."""
        return not is_cluster(self.redis) and not await self.durability.replicated(self.redis)

    async def _append_replicated(self, k: GameKeys, expected_version: int, field: str,
                                 outcome: bytes, command: bytes, events: Sequence[bytes],
                                 publication: Publication) -> AppendResult:
        """`append` under replica durability: the batch and its outcome (marked) first, the
        rest once a replica holds them (replicated.py); written again if its primary is lost
        before that."""
        marked = pending(outcome)
        args: list[EncodableT] = [expected_version, field, k.game_id, marked, OUTCOMES_TTL_SECONDS,
                                  command, "", "0", 0, *events]
        while True:
            reply, acks = await script("append").run_waited(
                self._appends, [k.ev, k.meta, k.outcomes, k.feed], args,
                self.durability.replicas, self.durability.wait_ms)
            status, raw = reply[0], reply[1]
            if status == b"accepted":
                raw = marked
            elif status != b"duplicate" or not is_pending(raw):
                return _append_result(k.game_id, reply, outcome, publication.first,
                                      publication.last)
            stored = Publication.of(k.game_id, publication.command_id, raw)
            if stored.first == publication.first:  # this batch: its end and next prompt too
                stored = publication
            try:
                # A WAIT answers for this call's own write only: a duplicate (another writer's,
                # or ours met again after a cut connection) is confirmed afresh.
                await settle(self.redis, self.durability, k, field, raw,
                             acks if status == b"accepted" else 0, stored)
            except OutcomeLost:
                self.durability.lost(field)
                continue
            detail = published(raw) if status == b"duplicate" else reply[1]
            return _append_result(k.game_id, [status, detail], outcome, publication.first,
                                  publication.last)

    async def record_outcome(
        self, command_id: str, game_id: str, outcome: Mapping[str, Any], *, scope: str
    ) -> dict[str, Any]:
        """Store a rejection for `command_id` unless it already has an outcome; return the one
        that stands. First writer wins, so a redelivered or concurrently handled command always
        gets the same answer, whether the other side accepted or rejected it. The outcome of a
        request for a game that does not exist (a refused create) expires with the others'."""
        if outcome.get("status") == "accepted":
            raise ValueError("accepted outcomes are written by append, atomically with the events")
        k = game_keys(game_id)
        field = outcome_field(scope, command_id)
        body = msgspec.json.encode({"game": game_id, **outcome})
        if not await self.durability.replicated(self.redis):
            return _decode_outcome(await script("record_outcome").run(
                self.redis, [k.outcomes, k.meta], [field, body, OUTCOMES_TTL_SECONDS]))
        marked = pending(body)
        while True:
            raw, _ = await script("record_outcome").run_waited(
                self.redis, [k.outcomes, k.meta], [field, marked, OUTCOMES_TTL_SECONDS],
                self.durability.replicas, self.durability.wait_ms)
            if not is_pending(raw):
                return _decode_outcome(raw)
            try:
                # The reply is the same whether this call wrote it or a cut call before it did
                # (sent again): its WAIT cannot answer for it, a confirmation does.
                await settle(self.redis, self.durability, k, field, raw, 0,
                             Publication.of(game_id, command_id, raw))
            except OutcomeLost:
                self.durability.lost(field)
                continue
            return _decode_outcome(published(raw))

    async def get_outcome(
        self, command_id: str, game_id: str, *, scope: str, settle: bool = False
    ) -> dict[str, Any] | None:
        """The command's outcome once it is acknowledged; None before. An outcome still
        waiting for a replica (replicated.py) is not one yet: None, unless `settle` (a writer,
        the rules service, meeting a command again), which waits for the replica and
        publishes it first."""
        k = game_keys(game_id)
        field = outcome_field(scope, command_id)
        raw = cast("bytes | None", await self.redis.hget(k.outcomes, field))
        if raw is None:
            return None
        if is_pending(raw):
            if not settle:
                return None
            try:
                await _settle(self.redis, self.durability, k, field, raw, 0,
                              Publication.of(game_id, command_id, raw))
            except OutcomeLost:
                return None
            raw = published(raw)
        return _decode_outcome(raw)

    async def append_ruling(self, game_id: str, fields: Mapping[str, FieldValue]) -> str:
        """Record a rejection in the game's rulings stream; returns the entry id."""
        body: dict[FieldT, EncodableT] = {k: v for k, v in fields.items()}
        entry_id = await self.redis.xadd(
            game_keys(game_id).rulings, body, maxlen=RULINGS_MAXLEN, approximate=True
        )
        return _text(entry_id)

    async def rulings(self, game_id: str) -> list[dict[str, str]]:
        """The game's rulings stream (rejections, oldest first), each entry's fields as text."""
        entries = await self.redis.xrange(game_keys(game_id).rulings)
        return [{_text(k): _text(v) for k, v in (fields or {}).items()} for _, fields in entries or []]

    async def publish_prompt(self, game_id: str, data: bytes) -> str:
        """Add a prompt (encoded by the caller) to the game's prompt stream; returns its id."""
        fields: dict[FieldT, EncodableT] = {"__data__": data}
        entry_id = await self.redis.xadd(
            game_keys(game_id).prompts, fields, maxlen=PROMPTS_MAXLEN, approximate=True
        )
        return _text(entry_id)

    async def ensure_group(self, stream: str, group: str, start_id: str = "0") -> bool:
        """Create `group` on `stream` (and the stream); True if created, False if it existed.
        Run before any consumer starts: FastStream stops if its group is missing."""
        try:
            await self.redis.xgroup_create(stream, group, id=start_id, mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" in str(e):
                return False
            raise
        return True

    # -- reads -----------------------------------------------------------------------------------

    async def read(
        self, game_id: str, after_version: int = 0, count: int | None = None
    ) -> list[tuple[int, bytes]]:
        """Events with version > `after_version` (at most `count`), as (version, payload)."""
        return [(e.version, e.data) for e in await self.read_entries(game_id, after_version, count)]

    async def read_entries(
        self, game_id: str, after_version: int = 0, count: int | None = None
    ) -> list[LogEntry]:
        """Like `read`, with each entry's command id and, on a batch's first entry, the body of
        the command that caused it (None where none was recorded)."""
        if after_version < 0:
            raise ValueError(f"after_version must be >= 0, got {after_version}")
        entries = await self.redis.xrange(
            game_keys(game_id).ev, f"{after_version + 1}-0", "+", count=count
        )
        out: list[LogEntry] = []
        for entry_id, fields in entries or []:
            version = int(_text(entry_id).split("-", 1)[0])
            if fields is None or version != after_version + len(out) + 1:
                raise CorruptLogError(f"game {game_id!r}: gap before version {version}")
            out.append(LogEntry(version, cast(bytes, fields[b"__data__"]),
                                _text(fields.get(b"cmd", b"")),
                                cast("bytes | None", fields.get(b"command"))))
        return out

    async def version(self, game_id: str) -> int:
        """The game's version (its last event), 0 if it does not exist."""
        raw = await self.redis.hget(game_keys(game_id).meta, "version")
        return 0 if raw is None else int(raw)

    async def meta(self, game_id: str) -> dict[str, str] | None:
        raw = await self.redis.hgetall(game_keys(game_id).meta)
        if not raw:
            return None
        return {_text(k): _text(v) for k, v in raw.items()}

    async def secret(self, game_id: str) -> dict[str, str] | None:
        """The game's secrets (seed, credentials); the rules service's Redis user only."""
        raw = await self.redis.hgetall(game_keys(game_id).secret)
        if not raw:
            return None
        return {_text(k): _text(v) for k, v in raw.items()}

    async def games(self) -> list[str]:
        """All game ids, oldest first (from the global index)."""
        return [_text(g) for g in await self.redis.zrange(GAMES_INDEX, 0, -1)]

    # -- snapshots -------------------------------------------------------------------------------

    async def save_snapshot(
        self, game_id: str, version: int, schema: int, rules_version: str, state: bytes
    ) -> bool:
        """Cache `state` at `version`; False (nothing written) if that would go backwards or past
        the log (only snap.version < version <= meta.version is written)."""
        if version < 1:
            raise ValueError(f"snapshot version must be >= 1, got {version}")
        k = game_keys(game_id)
        reply = await script("save_snapshot").run(
            self.redis, [k.snap, k.meta], [version, schema, rules_version, state]
        )
        return bool(reply[0] == b"saved")

    async def load_snapshot(self, game_id: str) -> Snapshot | None:
        raw = await self.redis.hgetall(game_keys(game_id).snap)
        if not raw:
            return None
        return Snapshot(
            version=int(raw[b"version"]),
            schema=int(raw[b"schema"]),
            rules_version=_text(raw[b"rules_version"]),
            state=cast(bytes, raw[b"state"]),
        )

    async def load_state(
        self,
        game_id: str,
        *,
        init: Callable[[bytes], S],
        apply: Callable[[S, bytes], S],
        snapshot_decode: Callable[[bytes], S] | None = None,
        schema: int | None = None,
        rules_version: str | None = None,
    ) -> Loaded[S] | None:
        """Fold a game: from a valid snapshot if there is one, else `init(event 1)`; then `apply`
        each later event. None if the game has no events.

        A snapshot is used only if `snapshot_decode` is given and its schema and rules_version
        equal the given ones; any other snapshot (or one that fails to decode) is ignored, as a
        cache should be. The store stays generic: it never imports the engine.
        """
        state: S | None = None
        start = 0
        if snapshot_decode is not None:
            if schema is None or rules_version is None:
                raise ValueError("snapshot_decode needs schema and rules_version to check against")
            snap = await self.load_snapshot(game_id)
            if snap is not None and snap.schema == schema and snap.rules_version == rules_version:
                try:
                    state, start = snapshot_decode(snap.state), snap.version
                except Exception:  # a cache that does not decode is dropped, never fatal
                    log.warning(
                        "snapshot of %s at v%d does not decode; refolding", game_id, snap.version
                    )
        tail = await self.read(game_id, after_version=start)
        version = tail[-1][0] if tail else start
        if state is None:
            if not tail:
                return None
            state, tail = init(tail[0][1]), tail[1:]
        for _, payload in tail:
            state = apply(state, payload)
        return Loaded(state=state, version=version, snapshot_version=start)


_settle = settle  # `get_outcome` has a parameter of that name


@dataclass(slots=True)  # (not frozen: made for every command, and frozen costs 4x to make)
class AppendCall:
    """One append script call, its keys and arguments made (`append_call`), and what its
    reply means (`result`)."""

    game_id: str
    keys: list[str]
    args: list[EncodableT]
    outcome: bytes
    first: int
    last: int

    def result(self, reply: Any) -> AppendResult:
        return _append_result(self.game_id, reply, self.outcome, self.first, self.last)


def append_call(game_id: str, expected_version: int, command_id: str, events: Sequence[bytes],
                *, scope: str, outcome_extra: bytes | None = None, command: bytes = b"",
                prompt: PromptWrite | None = None,
                finished_winner: int | None = None) -> AppendCall:
    """The append script's call for `EventStore.append` (the arguments as there); under
    replica durability `append` takes only its checks, outcome and version range from it."""
    if not events:
        raise ValueError("append needs at least one event")
    if expected_version < 0:
        raise ValueError(f"expected_version must be >= 0, got {expected_version}")
    k = game_keys(game_id)
    first, last = expected_version + 1, expected_version + len(events)
    outcome = _accepted_outcome(game_id, first, last, outcome_extra)
    keys = [k.ev, k.meta, k.outcomes, k.feed]
    extra: list[EncodableT] = [0]
    if prompt is not None:
        keys += [prompt.stream, prompt.deadlines]
        pairs = [x for kv in prompt.fields.items() for x in kv]
        extra = [len(prompt.fields), *pairs, prompt.member, prompt.deadline_ms, prompt.previous]
    args: list[EncodableT] = [
        expected_version, outcome_field(scope, command_id), game_id, outcome,
        OUTCOMES_TTL_SECONDS, command, "" if finished_winner is None else finished_winner, "1",
        *extra, *events]
    return AppendCall(game_id, keys, args, outcome, first, last)


def _append_result(game_id: str, reply: Any, outcome: bytes, first: int,
                   last: int) -> AppendResult:
    """append.lua's reply as an AppendResult (`outcome`: the one an accepted batch stored)."""
    status, detail = reply[0], reply[1]
    if status == b"accepted":
        return AppendResult("accepted", last, first, last, msgspec.json.decode(outcome))
    if status == b"duplicate":
        original = _decode_outcome(detail)
        return AppendResult(
            "duplicate",
            version=int(original.get("to", 0)),
            first=int(original.get("from", 0)),
            last=int(original.get("to", 0)),
            outcome=original,
        )
    if status == b"conflict":
        return AppendResult("conflict", version=int(detail))
    if status == b"missing":
        return AppendResult("missing")
    raise CorruptLogError(f"game {game_id!r}: log top is {detail!r}, meta disagrees")


def _accepted_outcome(game_id: str, first: int, last: int, extra: bytes | None) -> bytes:
    outcome: dict[str, Any] = {"status": "accepted", "game": game_id, "from": first, "to": last}
    if extra is not None:
        try:
            msgspec.json.decode(extra)
        except msgspec.DecodeError as e:
            raise ValueError(f"outcome_extra must be one JSON value: {e}") from None
        outcome["extra"] = msgspec.Raw(extra)
    return msgspec.json.encode(outcome)


def _decode_outcome(raw: Any) -> dict[str, Any]:
    value = msgspec.json.decode(raw)
    if not isinstance(value, dict):
        raise CorruptLogError(f"command outcome is not a JSON object: {raw!r}")
    return value


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
