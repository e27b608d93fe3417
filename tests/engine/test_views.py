"""What a seat may see (docs/design.md "Visibility", docs/rules/chance-and-hidden-information.md §14): its own hand, development cards
and VP; of the others only counts and public VP. `redact` hides a stolen card from everyone but
thief and victim, and a bought card from everyone but the buyer."""

from __future__ import annotations

import pytest

from events.codec import codec
from events.commands import BuyDevelopmentCard, MoveRobber, RollDice
from events.events import CardStolen, DevelopmentCardBought, DiceRolled, TradeCompleted
from services.rules.engine import redact, view
from services.rules.engine.testing import Table


def table() -> Table:
    t = Table()
    t.give(0, ore=2, wool=1)
    t.give(1, brick=3)
    t.give(2, grain=1, lumber=1)
    t.give_dev(1, "victory_point")
    t.give_dev(1, "knight")
    t.give_dev(2, "monopoly")
    return t


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_seat_sees_its_own_hand_cards_and_vp_and_only_counts_of_the_others(seat: int) -> None:
    t = table()
    v = view(t.state, seat)
    assert v.seat == seat
    for pv in v.players:
        p = t.state.players[pv.seat]
        assert pv.cards == sum(p.hand)
        assert pv.dev_cards == sum(p.dev)
        if pv.seat == seat:
            assert pv.hand == t.hand(seat)
            assert pv.dev_hand == {k: n for k, n in
                                   zip(["knight", "victory_point", "road_building",
                                        "year_of_plenty", "monopoly"], p.dev, strict=True) if n}
            assert pv.vp is not None
        else:
            assert pv.hand is None
            assert pv.dev_hand is None
            assert pv.vp is None


def test_public_vp_leaves_out_hidden_victory_cards_which_only_the_holder_sees() -> None:
    t = table()
    assert view(t.state, 1).players[1].vp == 3
    assert view(t.state, 0).players[1].public_vp == 2
    assert view(t.state, None).players[1].public_vp == 2


def test_a_spectator_sees_counts_only_and_a_referee_sees_everything() -> None:
    t = table()
    spectator = view(t.state, None)
    assert {(pv.hand, pv.dev_hand, pv.vp) for pv in spectator.players} == {(None, None, None)}
    assert [pv.cards for pv in spectator.players] == [3, 3, 2, 0]
    referee = view(t.state, None, referee=True)
    assert [pv.hand for pv in referee.players] == [t.hand(s) for s in range(4)]
    assert referee.players[1].vp == 3


def redeal(cards: list[list[int]], order: int) -> list[list[int]]:
    """The same number of cards per seat and per kind in total, dealt in another order."""
    pool = [k for hand in cards for k, n in enumerate(hand) for _ in range(n)]
    pool = pool[order:] + pool[:order] if pool else pool
    pool.reverse()
    out = []
    for hand in cards:
        mine = [0] * len(hand)
        for _ in range(sum(hand)):
            mine[pool.pop()] += 1
        out.append(mine)
    return out


@pytest.mark.parametrize("seat", [0, 1, 2, 3, None])
def test_a_view_does_not_change_when_only_other_seats_hidden_cards_change(seat: int | None) -> None:
    """Non-interference: deal the other seats' cards among them again (each keeps its count,
    the bank is untouched, since its stacks are public); the encoded view is byte for byte the
    same although the state differs."""
    t = table()
    before = codec().encode(view(t.state, seat))
    others = [p for p in t.state.players if p.seat != seat]
    snapshot = t.state.to_dict()
    for order in range(1, 6):
        for p, hand in zip(others, redeal([p.hand for p in others], order), strict=True):
            p.hand = hand
        for p, dev in zip(others, redeal([p.dev for p in others], order), strict=True):
            p.dev = dev
        if t.state.to_dict() != snapshot:
            break
    assert t.state.to_dict() != snapshot
    assert codec().encode(view(t.state, seat)) == before


def test_a_view_never_shows_the_seed_or_the_deck_order() -> None:
    t = table()
    encoded = codec().encode(view(t.state, 0))
    assert b"table" not in encoded  # the Table's seed
    assert view(t.state, 0).dev_deck == sum(t.state.deck)


def test_redact_hides_a_stolen_card_from_everyone_but_thief_and_victim() -> None:
    t = table()
    t.script("dice", (3, 4)).script("steal", "brick")
    t.when(RollDice(seat=0))
    events = t.when(MoveRobber(seat=0, hex=t.hex("(-2,2)"), victim=1))
    stolen = events[-1]
    assert stolen == CardStolen(thief=0, victim=1, resource="brick", n=0)
    assert redact(t.state, stolen, 0) == stolen
    assert redact(t.state, stolen, 1) == stolen
    for seat in (2, 3, None):
        assert redact(t.state, stolen, seat) == CardStolen(thief=0, victim=1, resource=None, n=0)


def test_redact_hides_a_bought_card_from_everyone_but_the_buyer() -> None:
    t = table()
    t.script("dice", (1, 1)).script("devcard", "victory_point")
    t.when(RollDice(seat=0))
    t.give(0, grain=1)
    (bought,) = t.when(BuyDevelopmentCard(seat=0))
    assert bought == DevelopmentCardBought(seat=0, card="victory_point", n=0)
    assert redact(t.state, bought, 0) == bought
    for seat in (1, 2, 3, None):
        assert redact(t.state, bought, seat) == DevelopmentCardBought(seat=0, card=None, n=0)


def test_redact_leaves_public_events_alone() -> None:
    t = table()
    for e in (DiceRolled(seat=0, d1=1, d2=2, n=0),
              TradeCompleted(seat=0, partner=1, give={"ore": 1}, get={"brick": 1})):
        for seat in (0, 1, None):
            assert redact(t.state, e, seat) == e


def test_a_redacted_card_purchase_still_folds_into_a_spectator_count() -> None:
    """A projection for other seats can fold redacted events: the buyer pays and the deck
    count drops; only the card stays unknown."""
    from services.rules.engine import evolve

    t = table()
    t.script("dice", (1, 1)).script("devcard", "knight")
    t.when(RollDice(seat=0))
    t.give(0, grain=1)
    shadow = t.state.copy()
    (bought,) = t.when(BuyDevelopmentCard(seat=0))
    evolve(shadow, redact(t.state, bought, 2))
    assert shadow.players[0].hand == t.state.players[0].hand
    assert shadow.bank == t.state.bank
    assert shadow.dev_draws == t.state.dev_draws
