"""What every seat sees of the scenario (all of it is public: barbarians, knights, gold,
prisoners, the cards left in the deck, the card being carried out). Hands stay the base's."""

from __future__ import annotations

from typing import TypedDict

from events.barbarian_attack import ATTACK_CARDS, AttackCard
from services.rules.engine.currency import open_offer_gold
from services.rules.engine.scenarios.barbarian_attack.common import (
    attack,
    building_conquered,
    geometry,
)
from services.rules.engine.state import State


class AttackView(TypedDict):
    """What every seat sees of the scenario (`view["ext"]["barbarian-attack"]`)."""

    barbarians: list[list[int]]  # [coastal hex, barbarians] where there are any
    conquered: list[int]  # hexes
    conquered_buildings: list[int]  # vertices
    supply: int  # barbarians not on the board
    castle: int  # the castle's hex
    coastal: list[int]  # hexes, in the battle order
    knights: list[list[int]]  # per seat, its knights' paths
    gold: list[int]  # per seat
    prisoners: list[int]  # per seat
    deck: int  # cards left before the reshuffle
    card: AttackCard | None  # the card being carried out
    marching: bool
    moved: list[int]  # paths of knights moved this turn
    gold_buys: int  # resources bought with gold this turn
    foreign_knight: int | None  # Catan for Two: the foreign knight's path
    foreign_moved: bool
    trade_gold: list[int] | None  # the open offer's gold: [the proposer gives, it gets]


def view_ext(state: State, seat: int | None) -> AttackView:
    a = attack(state)
    g = geometry(state.board)
    return {
        # Lists, not int-keyed maps: a view crosses JSON on its way to a bot.
        "barbarians": [[h, a.barbarians[h]] for h in g.coastal if a.barbarians[h]],
        "conquered": [h for h in g.coastal if a.barbarians[h] >= 3],
        "conquered_buildings": sorted(
            v for p in state.players[: state.n] for v in (*p.settlements, *p.cities)
            if building_conquered(state, v)),
        "supply": a.supply,
        "castle": g.castle,
        "coastal": list(g.coastal),
        "knights": [sorted(p.pieces.get("knight", ())) for p in state.players[: state.n]],
        "gold": a.gold[:],
        "prisoners": a.prisoners[:],
        "deck": sum(a.deck),
        "card": ATTACK_CARDS[a.card] if a.card >= 0 else None,
        "marching": a.marching,
        "moved": a.moved[:],
        "gold_buys": a.gold_buys,
        "foreign_knight": a.foreign if a.foreign >= 0 else None,  # Catan for Two
        "foreign_moved": a.foreign_moved,
        "trade_gold": open_offer_gold(state),
    }
