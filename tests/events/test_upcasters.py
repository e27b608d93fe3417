"""Upcasters (events/schema.py): an event stored in an older shape is decoded through the chain
of small functions into today's shape, and its envelope says so; a current event is untouched."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from events.codec import codec
from events.events import TurnEnded
from events.schema import unregister, upcaster, version_of


def stored(schema: int | None, event: dict[str, Any]) -> bytes:
    env: dict[str, Any] = {"game_id": "g", "version": 7, "at": "2026-01-01T00:00:00+00:00",
                           "command_id": "c", "event": event}
    if schema is not None:
        env["schema"] = schema
    return msgspec.json.encode(env)


@pytest.fixture
def turn_ended_v3() -> Iterator[None]:
    """Pretend TurnEnded was once `{"player", "to"}` (v1), then `{"seat", "to"}` (v2)."""

    @upcaster("TurnEnded", 1)
    def v1(d: dict[str, Any]) -> dict[str, Any]:
        d["seat"] = d.pop("player")
        return d

    @upcaster("TurnEnded", 2)
    def v2(d: dict[str, Any]) -> dict[str, Any]:
        d["next"] = d.pop("to")
        return d

    yield
    unregister("TurnEnded", 2)
    unregister("TurnEnded", 1)


def test_an_old_shape_is_upcast_through_the_whole_chain(turn_ended_v3: None) -> None:
    assert version_of("TurnEnded") == 3
    env = codec().decode_event_envelope(stored(1, {"type": "TurnEnded", "player": 2, "to": 3}))
    assert env.event == TurnEnded(seat=2, next=3)
    assert env.schema == 3
    env = codec().decode_event_envelope(stored(2, {"type": "TurnEnded", "seat": 2, "to": 3}))
    assert env.event == TurnEnded(seat=2, next=3)
    assert env.schema == 3


def test_an_envelope_without_a_schema_is_version_1(turn_ended_v3: None) -> None:
    env = codec().decode_event_envelope(stored(None, {"type": "TurnEnded", "player": 0, "to": 1}))
    assert env.event == TurnEnded(seat=0, next=1)


def test_a_current_event_is_not_upcast(turn_ended_v3: None) -> None:
    env = codec().decode_event_envelope(stored(3, {"type": "TurnEnded", "seat": 1, "next": 2}))
    assert env.event == TurnEnded(seat=1, next=2)
    assert env.schema == 3


def test_without_upcasters_every_type_is_at_version_1() -> None:
    assert version_of("TurnEnded") == 1
    env = codec().decode_event_envelope(stored(None, {"type": "TurnEnded", "seat": 1, "next": 2}))
    assert env.schema == 1


def test_a_chain_has_no_holes_and_a_newer_log_is_refused(turn_ended_v3: None) -> None:
    with pytest.raises(ValueError, match="already"):
        upcaster("TurnEnded", 1)(lambda d: d)
    with pytest.raises(ValueError, match="starts there"):
        upcaster("TurnEnded", 5)(lambda d: d)
    with pytest.raises(ValueError, match="newer"):
        codec().decode_event_envelope(stored(4, {"type": "TurnEnded", "seat": 1, "next": 2}))


# --- retired shapes (2026-12): oil and gold in the base commands and events -----------------

from events.commands import (  # noqa: E402
    AcceptTrade,
    DiscardResources,
    MoveRobber,
    PlayMonopoly,
    PlayYearOfPlenty,
    ProposeTrade,
    RejectTrade,
)
from events.events import (  # noqa: E402
    CardStolen,
    MonopolyPlayed,
    ResourcesDiscarded,
    TradeAnswered,
    TradeCompleted,
    TradeProposed,
    YearOfPlentyPlayed,
)

RETIRED_EVENTS = [
    ({"type": "OilStolen", "thief": 0, "victim": 2},
     CardStolen(thief=0, victim=2, resource="oil", n=-1)),
    ({"type": "OilDiscarded", "seat": 1, "oil": 2},
     ResourcesDiscarded(seat=1, resources={"oil": 2})),
    ({"type": "OilPlentyPlayed", "seat": 0, "oil": 1, "resources": {"ore": 1}},
     YearOfPlentyPlayed(seat=0, resources={"ore": 1, "oil": 1})),
    ({"type": "OilPlentyPlayed", "seat": 0, "oil": 0, "resources": {}},  # the limit: none taken
     YearOfPlentyPlayed(seat=0, resources={})),
    ({"type": "OilMonopolyPlayed", "seat": 3, "taken": [1, 0, 2, 0]},
     MonopolyPlayed(seat=3, resource="oil", taken=(1, 0, 2, 0))),
    ({"type": "OilTradeProposed", "seat": 0, "give": {}, "get": {"ore": 2}, "give_oil": 2,
      "get_oil": 0, "to": [1, 2]},
     TradeProposed(seat=0, give={"oil": 2}, get={"ore": 2}, to=(1, 2))),
    ({"type": "OilTradeCompleted", "seat": 0, "partner": 1, "give": {"wool": 1}, "get": {},
      "give_oil": 0, "get_oil": 1},
     TradeCompleted(seat=0, partner=1, give={"wool": 1}, get={"oil": 1})),
    ({"type": "GoldTradeProposed", "seat": 0, "give": {}, "get": {"ore": 1}, "give_gold": 3,
      "get_gold": 0, "to": [1]},
     TradeProposed(seat=0, give={"gold": 3}, get={"ore": 1}, to=(1,))),
    ({"type": "GoldTraded", "seat": 0, "partner": 1, "give_gold": 3, "get_gold": 0},
     TradeCompleted(seat=0, partner=1, give={"gold": 3}, get={})),
    ({"type": "GoldTradeOffered", "seat": 2, "partner": 0, "give": {"wool": 1}, "get": {},
      "give_gold": 0, "get_gold": 1},
     TradeProposed(seat=2, give={"wool": 1}, get={"gold": 1}, to=(0,))),
    ({"type": "GoldTradeCompleted", "seat": 2, "partner": 0, "give": {"wool": 1}, "get": {},
      "give_gold": 0, "get_gold": 1},
     TradeCompleted(seat=2, partner=0, give={"wool": 1}, get={"gold": 1})),
    ({"type": "GoldTradeDeclined", "seat": 2, "partner": 0},
     TradeAnswered(seat=0, answer="reject")),
]


@pytest.mark.parametrize(("old", "new"), RETIRED_EVENTS, ids=[o["type"] for o, _ in RETIRED_EVENTS])
def test_a_retired_event_is_read_as_the_base_event_it_became(old: dict[str, Any], new: Any) -> None:
    env = codec().decode_event_envelope(stored(None, old))
    assert env.event == new
    assert env.schema == version_of(type(new).__name__)


RETIRED_COMMANDS = [
    ({"type": "RobForOil", "seat": 0, "hex": 7, "victim": 2},
     MoveRobber(seat=0, hex=7, victim=2, take="oil")),
    ({"type": "DiscardWithOil", "seat": 1, "resources": {"ore": 3}, "oil": 1},
     DiscardResources(seat=1, resources={"ore": 3, "oil": 1})),
    ({"type": "PlayYearOfPlentyOil", "seat": 0, "oil": 2},
     PlayYearOfPlenty(seat=0, resources=("oil", "oil"))),
    ({"type": "PlayYearOfPlentyOil", "seat": 0, "oil": 1, "resource": "wool"},
     PlayYearOfPlenty(seat=0, resources=("oil", "wool"))),
    ({"type": "PlayMonopolyOil", "seat": 0}, PlayMonopoly(seat=0, resource="oil")),
    ({"type": "ProposeOilTrade", "seat": 0, "give": {"ore": 1}, "get": {}, "get_oil": 1},
     ProposeTrade(seat=0, give={"ore": 1}, get={"oil": 1})),
    ({"type": "ProposeGoldTrade", "seat": 0, "give": {}, "get": {"ore": 1}, "give_gold": 2,
      "to": [2]},
     ProposeTrade(seat=0, give={"gold": 2}, get={"ore": 1}, to=(2,))),
    ({"type": "OfferGoldTrade", "seat": 0, "partner": 1, "give": {"wool": 1}, "get_gold": 1},
     ProposeTrade(seat=0, give={"wool": 1}, get={"gold": 1}, to=(1,))),
    ({"type": "AcceptGoldTrade", "seat": 1}, AcceptTrade(seat=1)),
    ({"type": "DeclineGoldTrade", "seat": 1}, RejectTrade(seat=1)),
]


@pytest.mark.parametrize(("old", "new"), RETIRED_COMMANDS,
                         ids=[o["type"] for o, _ in RETIRED_COMMANDS])
def test_a_retired_command_in_a_stored_log_is_read_as_its_replacement(
        old: dict[str, Any], new: Any) -> None:
    assert codec().decode_command(msgspec.json.encode(old)) == new


def test_an_unknown_command_type_is_still_refused() -> None:
    from events.codec import CodecError

    with pytest.raises(CodecError, match="NoSuchCommand"):
        codec().decode_command(b'{"type":"NoSuchCommand","seat":0}')
