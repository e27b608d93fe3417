"""A live game as the rules service holds it: folded state, dealer, seats' credentials.

Loaded from Redis (snapshot + tail, or a full fold) on first use and kept in memory; the log
stays the source of truth, so a slot can be dropped and reloaded at any time.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, field

from events.codec import codec
from events.events import GameCreated
from services.rules.engine import RULES_VERSION, evolve, initial_state, snapshot
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import State
from services.store import EventStore


def credential_hash(credential: str) -> str:
    return hashlib.sha256(credential.encode()).hexdigest()


@dataclass
class GameSlot:
    game_id: str
    created: GameCreated
    state: State
    dealer: SeededDealer
    cred_hashes: list[str]
    controllers: list[str]
    secrets: list[str]  # credentials of bot-controlled seats, sent with their prompts
    deadline_ms: int
    referee_hash: str = ""  # sha256 of the referee credential ("" for games without one)
    prompted: str = ""  # the deadline-set member of the open prompt
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def version(self) -> int:
        return self.state.version


async def load_slot(store: EventStore, game_id: str) -> GameSlot | None:
    meta = await store.meta(game_id)
    if meta is None or "seed" not in meta:
        return None
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
        dealer=SeededDealer(bytes.fromhex(meta["seed"])),
        cred_hashes=json.loads(meta["cred_hashes"]),
        controllers=json.loads(meta["controllers"]),
        secrets=json.loads(meta.get("bot_secrets", "[]")),
        deadline_ms=int(meta.get("deadline_ms", "30000")),
        referee_hash=meta.get("referee_hash", ""),
    )
