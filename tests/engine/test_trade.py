"""Trading (docs/rules/base.md §1.10): maritime 4:1, 3:1 at a generic harbor and 2:1 of a harbor's
resource; domestic offers only with the active seat, no gifts, no like-for-like, one offer open
at a time, answered by the seats it is addressed to, closed with one that accepted or countered."""

from __future__ import annotations

import pytest

from events.codec import CodecError, codec
from events.commands import (
    AcceptTrade,
    CancelTrade,
    ConfirmTrade,
    CounterTrade,
    EndTurn,
    MaritimeTrade,
    ProposeTrade,
    RejectTrade,
    RollDice,
)
from events.events import (
    MaritimeTraded,
    TradeAnswered,
    TradeCancelled,
    TradeCompleted,
    TradeProposed,
)
from events.types import RESOURCE_INDEX
from services.rules.engine import pending
from services.rules.engine.state import MAIN, TRADE
from services.rules.engine.testing import Table


def table() -> Table:
    """Seat 0 has rolled (a 2: nobody produces) and has no harbor."""
    t = Table()
    assert t.state.players[0].ratios == [4, 4, 4, 4, 4]
    t.script("dice", (1, 1))
    t.when(RollDice(seat=0))
    assert all(t.hand(s) == {} for s in range(4))
    return t


def harbor_vertex(t: Table, kind: str) -> int:
    board = t.state.board
    return next(a for (a, _), hb in zip(board.harbor_vertices, board.harbors, strict=True)
                if hb.kind == kind and t.state.vertex_owner[a] == -1)


# --- maritime -------------------------------------------------------------------------------


def test_rejects_base_trade_maritime_ratio_for_three_cards_without_a_harbor() -> None:
    t = table()
    t.give(0, ore=3)
    t.rejects(MaritimeTrade(seat=0, give="ore", get="wool"), "base.trade.maritime_ratio")
    t.give(0, ore=1)
    events = t.when(MaritimeTrade(seat=0, give="ore", get="wool"))
    assert events == [MaritimeTraded(seat=0, give="ore", count=4, get="wool")]
    assert t.hand(0) == {"wool": 1}
    assert sum(t.state.bank) == 95 - 1


def test_a_generic_harbor_trades_three_for_one_base_trade_maritime_ratio() -> None:
    t = table()
    t.place(0, harbor_vertex(t, "3:1"))
    assert t.state.players[0].ratios == [3, 3, 3, 3, 3]
    t.give(0, grain=2)
    t.rejects(MaritimeTrade(seat=0, give="grain", get="brick"), "base.trade.maritime_ratio")
    t.give(0, grain=1)
    events = t.when(MaritimeTrade(seat=0, give="grain", get="brick"))
    assert events == [MaritimeTraded(seat=0, give="grain", count=3, get="brick")]


def test_a_special_harbor_trades_two_of_its_own_resource_only_base_trade_maritime_ratio() -> None:
    t = table()
    t.place(0, harbor_vertex(t, "wool"))
    assert t.state.players[0].ratios == [4, 4, 2, 4, 4]
    t.give(0, wool=2, ore=2)
    t.rejects(MaritimeTrade(seat=0, give="ore", get="grain"), "base.trade.maritime_ratio")
    events = t.when(MaritimeTrade(seat=0, give="wool", get="grain"))
    assert events == [MaritimeTraded(seat=0, give="wool", count=2, get="grain")]
    assert t.hand(0) == {"grain": 1, "ore": 2}


def test_rejects_base_trade_like_for_like_for_a_maritime_trade_of_a_resource_for_itself() -> None:
    t = table()
    t.give(0, ore=4)
    t.rejects(MaritimeTrade(seat=0, give="ore", get="ore"), "base.trade.like_for_like")
    t.when(MaritimeTrade(seat=0, give="ore", get="lumber"))


def test_rejects_base_trade_bank_short_for_a_maritime_trade_the_bank_cannot_pay() -> None:
    t = table()
    t.give(0, ore=8)
    t.give(2, wool=19)
    t.rejects(MaritimeTrade(seat=0, give="ore", get="wool"), "base.trade.bank_short")
    assert not any(isinstance(o, MaritimeTrade) and o.get == "wool" for o in pending(t.state)[0].options)
    t.when(MaritimeTrade(seat=0, give="ore", get="grain"))


# --- domestic -------------------------------------------------------------------------------


def offer(t: Table, give: dict[str, int], get: dict[str, int], to: tuple[int, ...] = ()) -> None:
    t.when(ProposeTrade(seat=0, give=give, get=get, to=to))  # type: ignore[arg-type]


def test_a_domestic_trade_is_proposed_accepted_and_confirmed() -> None:
    t = table()
    t.give(0, ore=2)
    t.give(2, wool=1)
    events = t.when(ProposeTrade(seat=0, give={"ore": 2}, get={"wool": 1}))
    assert events == [TradeProposed(seat=0, give={"ore": 2}, get={"wool": 1}, to=(1, 2, 3))]
    assert t.state.phase == TRADE
    assert t.when(AcceptTrade(seat=2)) == [TradeAnswered(seat=2, answer="accept")]
    events = t.when(ConfirmTrade(seat=0, partner=2))
    assert events == [TradeCompleted(seat=0, partner=2, give={"ore": 2}, get={"wool": 1})]
    assert (t.hand(0), t.hand(2)) == ({"wool": 1}, {"ore": 2})
    assert (t.state.phase, t.state.trade) == (MAIN, None)
    assert sum(t.state.bank) == 95 - 3


def test_rejects_base_trade_no_gift_for_an_offer_with_an_empty_side() -> None:
    t = table()
    t.give(0, ore=2)
    t.rejects(ProposeTrade(seat=0, give={"ore": 1}, get={}), "base.trade.no_gift")
    t.rejects(ProposeTrade(seat=0, give={}, get={"ore": 1}), "base.trade.no_gift")
    t.rejects(ProposeTrade(seat=0, give={"ore": 0}, get={"wool": 1}), "base.trade.no_gift")
    offer(t, {"ore": 1}, {"wool": 1})
    t.rejects(CounterTrade(seat=1, give={}, get={"ore": 1}), "base.trade.no_gift")


def test_rejects_base_trade_like_for_like_for_a_resource_on_both_sides() -> None:
    t = table()
    t.give(0, ore=2, wool=1)
    t.rejects(ProposeTrade(seat=0, give={"ore": 2}, get={"ore": 1}), "base.trade.like_for_like")
    t.rejects(ProposeTrade(seat=0, give={"ore": 1, "wool": 1}, get={"wool": 2}),
              "base.trade.like_for_like")
    offer(t, {"ore": 2}, {"grain": 1})


def test_rejects_base_trade_not_held_for_offering_or_accepting_without_the_cards() -> None:
    t = table()
    t.give(0, ore=1)
    t.give(1, wool=1)
    t.rejects(ProposeTrade(seat=0, give={"ore": 2}, get={"wool": 1}), "base.trade.not_held")
    offer(t, {"ore": 1}, {"wool": 1})
    t.rejects(AcceptTrade(seat=2), "base.trade.not_held")
    t.rejects(CounterTrade(seat=2, give={"brick": 1}, get={"ore": 1}), "base.trade.not_held")
    t.when(AcceptTrade(seat=1))


def test_rejects_base_trade_not_held_for_confirming_a_counter_the_proposer_cannot_pay() -> None:
    t = table()
    t.give(0, ore=1)
    t.give(1, wool=2)
    t.give(2, grain=1)
    offer(t, {"ore": 1}, {"wool": 1})
    # Seat 1 asks for brick, which seat 0 does not have; seat 2 counters with something payable.
    t.when(CounterTrade(seat=1, give={"wool": 2}, get={"brick": 1}))
    t.when(CounterTrade(seat=2, give={"grain": 1}, get={"ore": 1}))
    t.rejects(ConfirmTrade(seat=0, partner=1), "base.trade.not_held")
    closing = [o for p in pending(t.state) if p.seat == 0 for o in p.options]
    assert ConfirmTrade(seat=0, partner=1) not in closing
    assert ConfirmTrade(seat=0, partner=2) in closing
    events = t.when(ConfirmTrade(seat=0, partner=2))
    assert events == [TradeCompleted(seat=0, partner=2, give={"ore": 1}, get={"grain": 1})]
    assert (t.hand(0), t.hand(2)) == ({"grain": 1}, {"ore": 1})


def test_rejects_base_trade_none_open_for_answering_or_closing_when_no_offer_is_open() -> None:
    t = table()
    t.give(0, ore=1)
    t.give(1, wool=1)
    t.rejects(AcceptTrade(seat=1), "base.trade.none_open")
    t.rejects(RejectTrade(seat=1), "base.trade.none_open")
    t.rejects(CounterTrade(seat=1, give={"wool": 1}, get={"ore": 1}), "base.trade.none_open")
    t.rejects(ConfirmTrade(seat=0, partner=1), "base.trade.none_open")
    t.rejects(CancelTrade(seat=0), "base.trade.none_open")
    offer(t, {"ore": 1}, {"wool": 1})
    t.when(AcceptTrade(seat=1))


def test_rejects_base_trade_already_open_for_a_second_offer() -> None:
    t = table()
    t.give(0, ore=2)
    offer(t, {"ore": 1}, {"wool": 1})
    t.rejects(ProposeTrade(seat=0, give={"ore": 2}, get={"wool": 1}), "base.trade.already_open")
    assert t.when(CancelTrade(seat=0)) == [TradeCancelled(seat=0)]
    assert t.state.phase == MAIN
    offer(t, {"ore": 2}, {"wool": 1})


def test_rejects_base_trade_not_addressed_for_seats_the_offer_is_not_for_or_second_answers() -> None:
    t = table()
    t.give(0, ore=1)
    t.give(1, wool=1)
    t.give(3, wool=1)
    offer(t, {"ore": 1}, {"wool": 1}, to=(1, 2))
    t.rejects(AcceptTrade(seat=3), "base.trade.not_addressed")
    t.rejects(RejectTrade(seat=0), "base.trade.not_addressed")
    t.when(RejectTrade(seat=2))
    t.rejects(AcceptTrade(seat=2), "base.trade.not_addressed")
    t.when(AcceptTrade(seat=1))
    assert {p.seat for p in pending(t.state)} == {0}


def test_rejects_base_trade_partner_not_accepted_for_closing_with_a_seat_that_did_not_accept() -> None:
    t = table()
    t.give(0, ore=1)
    t.give(1, wool=1)
    t.give(2, wool=1)
    offer(t, {"ore": 1}, {"wool": 1})
    t.rejects(ConfirmTrade(seat=0, partner=1), "base.trade.partner_not_accepted")
    t.when(RejectTrade(seat=1))
    t.rejects(ConfirmTrade(seat=0, partner=1), "base.trade.partner_not_accepted")
    t.rejects(ConfirmTrade(seat=0, partner=0), "base.trade.partner_not_accepted")
    t.rejects(ConfirmTrade(seat=0, partner=7), "base.trade.partner_not_accepted")
    t.when(AcceptTrade(seat=2))
    t.rejects(ConfirmTrade(seat=2, partner=2), "base.turn.not_your_turn")
    t.when(ConfirmTrade(seat=0, partner=2))


def test_rejects_base_trade_active_only_for_offers_to_the_proposer_or_outside_the_table() -> None:
    t = table()
    t.give(0, ore=1)
    t.give(1, ore=1)
    t.rejects(ProposeTrade(seat=0, give={"ore": 1}, get={"wool": 1}, to=(0,)), "base.trade.active_only")
    t.rejects(ProposeTrade(seat=0, give={"ore": 1}, get={"wool": 1}, to=(1, 4)), "base.trade.active_only")
    # Another seat cannot open a trade in the active seat's turn.
    t.rejects(ProposeTrade(seat=1, give={"ore": 1}, get={"wool": 1}), "base.turn.not_your_turn")
    t.when(ProposeTrade(seat=0, give={"ore": 1}, get={"wool": 1}, to=(2, 1, 2)))
    assert t.state.trade is not None
    assert t.state.trade.to == (1, 2)


def test_an_offer_everyone_rejects_closes_by_itself() -> None:
    t = table()
    t.give(0, ore=1)
    offer(t, {"ore": 1}, {"wool": 1}, to=(1, 3))
    t.when(RejectTrade(seat=1))
    assert t.state.phase == TRADE
    t.when(RejectTrade(seat=3))
    assert (t.state.phase, t.state.trade) == (MAIN, None)
    t.when(EndTurn(seat=0))


def test_a_counter_offer_is_closed_on_the_counter_terms() -> None:
    t = table()
    t.give(0, ore=3)
    t.give(3, wool=1, grain=1)
    offer(t, {"ore": 1}, {"wool": 1})
    events = t.when(CounterTrade(seat=3, give={"wool": 1, "grain": 1}, get={"ore": 3}))
    assert events == [TradeAnswered(seat=3, answer="counter", give={"wool": 1, "grain": 1},
                                    get={"ore": 3})]
    t.when(ConfirmTrade(seat=0, partner=3))
    assert (t.hand(0), t.hand(3)) == ({"wool": 1, "grain": 1}, {"ore": 3})


def test_development_cards_are_never_traded_an_offer_of_one_is_refused_by_the_vocabulary() -> None:
    """Any name travels (a module's resource may: oil, gold), so the codec takes it; the game's
    vocabulary refuses it when the offer is decided, naming the field."""
    wire = b'{"type":"ProposeTrade","seat":0,"give":{"knight":1},"get":{"wool":1},"to":[]}'
    offer = codec().decode_command(wire)
    assert offer == ProposeTrade(seat=0, give={"knight": 1}, get={"wool": 1})
    t = table()
    t.give(0, ore=1)
    r = t.rejects(offer, "base.vocab.unknown_trade_good")
    assert r.message.startswith("ProposeTrade.give: 'knight' is not a trade good of this game")
    ok = codec().decode_command(wire.replace(b"knight", b"ore"))
    assert ok == ProposeTrade(seat=0, give={"ore": 1}, get={"wool": 1})
    assert t.when(ok) == [TradeProposed(seat=0, give={"ore": 1}, get={"wool": 1}, to=(1, 2, 3))]
    assert set(RESOURCE_INDEX) == {"lumber", "brick", "wool", "grain", "ore"}
    with pytest.raises(CodecError):  # the wire still checks types: a count is an integer
        codec().decode_command(wire.replace(b'"knight":1', b'"ore":"one"'))
