"""Live games as the rules service holds them, and where they come from.

A `GameSlot` is one game folded into memory with what judging it needs: its dealer (from the
secret seed), the seats' credentials (to check commands' signatures and to hand turn keys to
bot pools), who controls each seat, its deadline. The `GameRepository` loads slots (snapshot +
tail, or a full fold), keeps them, reloads them when another replica moved a game on, forgets
finished ones, and saves snapshots every `snapshot_every` versions. The log stays the source of
truth: a slot can be dropped and reloaded at any time.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, field

from events.auth import turn_key
from events.codec import codec
from events.events import GameCreated
from services.rules.engine import RULES_VERSION, evolve, initial_state, snapshot
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import State
from services.store import EventStore


def credential_hash(credential: str) -> str:
    """What meta keeps of a credential (for access checks by tools that may read meta)."""
    return hashlib.sha256(credential.encode()).hexdigest()


@dataclass
class GameSlot:
    game_id: str
    created: GameCreated
    state: State
    dealer: SeededDealer
    credentials: list[str]  # per seat ("" where unknown: a game from before signed commands)
    referee: str  # the referee's credential ("" for games without one)
    controllers: list[str]
    deadline_ms: int
    prompted: str = ""  # the deadline-set member of the open prompt
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The last turn key made (seat, version, key): the prompt's key is the one its answer is
    # checked with, so each command's HMAC derivation is done once, not twice.
    last_key: tuple[int, int, bytes] | None = field(default=None, repr=False)

    @property
    def version(self) -> int:
        return self.state.version

    def key(self, seat: int, version: int) -> bytes | None:
        """The turn key that signs `seat`'s commands on `version` (-1: the referee), or None
        when that seat has no credential here."""
        last = self.last_key
        if last is not None and last[0] == seat and last[1] == version:
            return last[2]
        credential = self.referee if seat < 0 else (
            self.credentials[seat] if 0 <= seat < len(self.credentials) else "")
        if not credential:
            return None
        key = turn_key(credential, self.game_id, seat, version)
        self.last_key = (seat, version, key)
        return key


CATCH_UP_MAX = 64  # events; beyond, a reload from the snapshot folds less


class GameRepository:
    """The live games in memory, at most `max_slots` of them: beyond, the games used least
    recently whose lock is free are dropped (they are folded again from their snapshot and
    tail when a command comes), so the memory a rules service holds is bounded however many
    games stay live and idle."""

    def __init__(self, store: EventStore, snapshot_every: int, max_slots: int = 0) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        self.max_slots = max_slots  # 0: no bound
        self.slots: dict[str, GameSlot] = {}  # the least recently used first

    async def slot(self, game_id: str) -> GameSlot | None:
        slot = self.slots.pop(game_id, None)
        if slot is None:
            slot = await load_slot(self.store, game_id)
            if slot is None:
                return None
            # (another task may have loaded it meanwhile: the one kept wins, so that a
            # game has one lock)
            slot = self.slots.pop(game_id, slot)
        self.slots[game_id] = slot  # the most recently used now
        if self.max_slots and len(self.slots) > self.max_slots:
            self.evict()
        return slot

    def cached(self, game_id: str) -> GameSlot | None:
        """The game if it is in memory (now the most recently used), without loading it."""
        slot = self.slots.pop(game_id, None)
        if slot is not None:
            self.slots[game_id] = slot
        return slot

    def evict(self) -> None:
        """Drop the least recently used games beyond `max_slots`, never one in use (its
        lock held). A dropped game's open prompt stays in Redis; its deadline, if it fires
        after the seat answered, finds the version moved on and does nothing."""
        over = len(self.slots) - self.max_slots
        for game_id in list(self.slots):
            if over <= 0:
                break
            if not self.slots[game_id].lock.locked():
                del self.slots[game_id]
                over -= 1

    async def reload(self, slot: GameSlot) -> GameSlot:
        """Refold from the log (another replica moved the game, or an append failed)."""
        fresh = await load_slot(self.store, slot.game_id)
        assert fresh is not None
        slot.state = fresh.state
        return slot

    async def refresh(self, slot: GameSlot) -> GameSlot:
        """Catch up with the log if it is ahead of this cache (another replica committed
        since): fold only the events not seen here, one read. With several replicas a game's
        commands go to whichever reads them first, so this runs on most of them; a full
        reload (meta, secrets, snapshot, tail) each time halved the rate of two replicas.
        Anything unexpected (a long tail, an event that does not fold) reloads instead."""
        tail = await self.store.read(slot.game_id, slot.version, count=CATCH_UP_MAX + 1)
        if not tail:
            return slot
        if len(tail) > CATCH_UP_MAX:
            return await self.reload(slot)
        c = codec()
        try:
            for _, data in tail:
                evolve(slot.state, c.decode_event_envelope(data).event)
        except Exception:  # the cache is half folded now: the log decides
            return await self.reload(slot)
        if slot.state.version != tail[-1][0]:
            return await self.reload(slot)
        return slot

    def forget(self, game_id: str) -> None:
        self.slots.pop(game_id, None)

    def snapshot_due(self, slot: GameSlot, before: int) -> bool:
        """Whether the last commit (from version `before`) crossed a multiple of
        `snapshot_every`."""
        return slot.version // self.snapshot_every != before // self.snapshot_every

    async def save_snapshot(self, slot: GameSlot) -> None:
        await self.store.save_snapshot(slot.game_id, slot.version, snapshot.SCHEMA,
                                       RULES_VERSION, snapshot.dump(slot.state))


async def load_slot(store: EventStore, game_id: str) -> GameSlot | None:
    meta = await store.meta(game_id)
    if meta is None:
        return None
    secret = await store.secret(game_id) or _legacy_secret(meta)
    if "seed" not in secret:
        return None  # an imported archive: the service never judges it
    c = codec()
    first = await store.read(game_id, 0, count=1)
    if not first:
        return None
    created = c.decode_event_envelope(first[0][1]).event
    assert isinstance(created, GameCreated)

    def init(data: bytes) -> State:
        return initial_state(created)

    def apply(state: State, data: bytes) -> State:
        return evolve(state, c.decode_event_envelope(data).event)

    loaded = await store.load_state(
        game_id,
        init=init,
        apply=apply,
        snapshot_decode=lambda data: snapshot.load(data, created),
        schema=snapshot.SCHEMA,
        rules_version=RULES_VERSION,
    )
    if loaded is None:
        return None
    state = loaded.state
    if state.version != loaded.version:
        raise RuntimeError(f"game {game_id}: folded to {state.version}, log at {loaded.version}")
    return GameSlot(
        game_id=game_id,
        created=created,
        state=state,
        dealer=SeededDealer(bytes.fromhex(secret["seed"])),
        credentials=json.loads(secret.get("credentials", "[]")),
        referee=secret.get("referee", ""),
        controllers=json.loads(meta["controllers"]),
        deadline_ms=int(meta.get("deadline_ms", "30000")),
    )


def _legacy_secret(meta: dict[str, str]) -> dict[str, str]:
    """Games created before the secret hash kept their seed (and bot seats' credentials) in
    meta; they go on, but seats whose credential was only kept as a hash can no longer sign
    (their deadlines still play their default moves)."""
    if "seed" not in meta:
        return {}
    return {"seed": meta["seed"], "credentials": meta.get("bot_secrets", "[]")}
