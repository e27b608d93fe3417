"""The event store: per-game logs on Redis/Valkey streams with atomic, idempotent appends.

See keys.py for the key layout, store.py for the operations, the `.lua` files for the scripts.
"""

from services.store.results import (
    AppendResult,
    CorruptLogError,
    GameExistsError,
    Loaded,
    Snapshot,
    StoreError,
)
from services.store.store import EventStore

__all__ = [
    "AppendResult",
    "CorruptLogError",
    "EventStore",
    "GameExistsError",
    "Loaded",
    "Snapshot",
    "StoreError",
]
