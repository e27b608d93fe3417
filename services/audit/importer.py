"""`hexlog import`: an archive back into Redis, as a read-only game.

The events go in through the store's own scripts (create, then one append per command with its
body), so the imported log is laid out exactly like a live one and exports to the same file.
The game's meta has no seed and no credentials: the rules service never takes a command for it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from redis.asyncio import Redis

from events.events import GameFinished
from services.rules.record import Batch, GameRecord
from services.store import EventStore, StoreError
from services.store.keys import ORGANISER, SERVICE, seat_scope


def scope_of(batch: Batch) -> str:
    """The outcome scope a batch's command had (the log keeps its id, not its scope): the
    service's own moves have `deadline:`/`forfeit:` ids, a seat's command names its seat."""
    if batch.command is None:
        return ORGANISER
    if batch.command_id.startswith(("deadline:", "forfeit:")):
        return SERVICE
    return seat_scope(batch.command.seat)


async def import_record(redis: Redis, record: GameRecord) -> int:
    """Write `record` as game `record.game_id`; returns the number of rulings written.
    Refuses (GameExistsError) if the game exists."""
    store = EventStore(redis)
    created = record.created
    first = record.events[0]
    done = isinstance(record.events[-1].event, GameFinished)
    meta = {
        "status": "finished" if done else "imported",
        "ruleset": created.ruleset,
        "seats": created.seats,
        "seed_sha256": created.seed_sha256,
        "imported_at": datetime.now(UTC).isoformat(),
    }
    await store.create_game(record.game_id, first.raw, meta)
    for batch in record.batches[1:]:
        entries = record.events[batch.first - 1 : batch.last]
        result = await store.append(record.game_id, batch.first - 1, batch.command_id,
                                    [e.raw for e in entries], scope=scope_of(batch),
                                    command=entries[0].command_raw or b"")
        if not result.accepted:
            raise StoreError(f"import of {record.game_id} stopped at version {batch.first}: {result.status}")
    for ruling in record.rulings:
        await store.append_ruling(record.game_id, ruling.fields)
    return len(record.rulings)
