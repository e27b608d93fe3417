"""A tournament waits for a service that is gone instead of giving up: it says so when the
service goes, again every 10 s with the time waited, and when it is back; only an absence
longer than its patience stops it, in one line. A game does not count as stalled for the time
no rules service was there to move it. (The clock is given: these are the decisions, not the
timing, but for one test of how an observation is dated; tests/cli/test_rules_crashes.py runs
them against a rules service killed for real.)"""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from services.client import ServiceError
from services.protocol import SERVICE_TTL_S, alive_key
from services.tournament.runner import Away, Presence, Stall, last_beat


def watch(limit_s: float = 600.0) -> tuple[Presence, list[Away]]:
    told: list[Away] = []
    return Presence("rules", limit_s, told.append, now=0.0), told


def test_an_absence_is_told_once_then_every_ten_seconds_then_its_end() -> None:
    rules, told = watch()
    rules.update(0.5, now=0.5)  # a heartbeat
    for now in (4.0, 4.5, 5.0, 13.9):
        rules.update(None, now)
    assert rules.away
    assert told == [Away("rules", 3.5)]
    rules.update(None, 14.0)  # 10 s after the first notice
    assert told[-1] == Away("rules", 13.5)
    rules.update(None, 20.0)
    assert len(told) == 2
    rules.update(25.0, now=25.0)  # back
    assert not rules.away
    assert rules.alive_since == 25.0
    assert told[-1] == Away("rules", 24.5, back=True)
    rules.update(25.5, now=25.5)
    assert len(told) == 3  # being there is not news


def test_a_short_gap_nobody_noticed_is_not_told() -> None:
    rules, told = watch()
    for now in (1.0, 2.0, 3.0):  # a new instance beat before the old key expired
        rules.update(now, now)
    assert told == []
    assert rules.alive_since == 0.0


def test_only_an_absence_longer_than_the_patience_stops_the_run() -> None:
    rules, told = watch(limit_s=600.0)
    rules.update(None, 599.0)
    with pytest.raises(ServiceError, match=r"^no rules service for 601 s \(the limit is 600 s, "
                                           r"--wait-for-services\); .* --resume"):
        rules.update(None, 601.0)
    assert len(told) == 1


def test_the_last_beat_is_read_from_the_alive_keys_ttl() -> None:
    assert last_beat(-2, 100.0) is None  # no key: every instance gone
    assert last_beat(SERVICE_TTL_S * 1000, 100.0) == 100.0  # just renewed
    assert last_beat(1000, 100.0) == 100.0 - (SERVICE_TTL_S - 1)
    assert last_beat(-1, 100.0) == 100.0  # no TTL: set by hand


def test_a_game_is_not_stalled_for_the_time_no_rules_service_was_there() -> None:
    stall = Stall("g-1", limit_s=60.0, now=0.0)
    stall.check(7, serving_since=0.0, now=0.0)
    stall.check(7, serving_since=None, now=300.0)  # the rules service away: waited out
    stall.check(7, serving_since=300.0, now=359.0)  # back at 300: 59 s of standing still
    stall.check(8, serving_since=300.0, now=359.5)  # it moved
    stall.check(8, serving_since=300.0, now=419.0)
    with pytest.raises(ServiceError, match="game g-1 has not moved for 60s"):
        stall.check(8, serving_since=300.0, now=420.0)



async def test_a_slow_round_trip_does_not_shorten_an_absence(redis: Redis) -> None:
    """An alive key that expired was not renewed for at least SERVICE_TTL_S, whatever the
    client's clock said when it asked: the first notice never says less (the reply here is held
    back 0.5 s past the key's expiry, as on a loaded machine)."""
    told: list[Away] = []
    rules = Presence("rules", 600.0, told.append)
    await redis.set(alive_key("rules"), "r-1", ex=SERVICE_TTL_S)
    await rules.observe(redis)  # just renewed
    assert not rules.away
    await redis.client_pause(int((SERVICE_TTL_S + 0.5) * 1000), all=True)
    await rules.observe(redis)  # sent at once, answered after the pause: the key expired
    assert rules.away
    assert len(told) == 1
    assert told[0].gone_s >= SERVICE_TTL_S, told
