"""A game's meta turns "finished" in the same script as its final event, so no client can see
the final event while the status still says "live"."""

from __future__ import annotations

from store_helpers import GAME, num

from services.store import EventStore


async def test_the_final_append_marks_the_game_finished_atomically(store: EventStore) -> None:
    await store.create_game(GAME, num(0), {"status": "live"})
    await store.append(GAME, 1, "c1", [num(1)], scope="s0")
    meta = await store.meta(GAME)
    assert meta is not None
    assert meta["status"] == "live"
    result = await store.append(GAME, 2, "c2", [num(2), num(3)], finished_winner=2, scope="s0")
    assert result.accepted
    meta = await store.meta(GAME)
    assert meta is not None
    assert (meta["status"], meta["winner"], meta["version"]) == ("finished", "2", "4")


async def test_a_refused_final_append_leaves_the_game_live(store: EventStore) -> None:
    await store.create_game(GAME, num(0), {"status": "live"})
    result = await store.append(GAME, 5, "c1", [num(1)], finished_winner=-1, scope="s0")  # stale version
    assert result.status == "conflict"
    meta = await store.meta(GAME)
    assert meta is not None
    assert meta["status"] == "live"
    assert "winner" not in meta
