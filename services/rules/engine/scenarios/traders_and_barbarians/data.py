"""The scenario's fixed data: trade hexes and their commodities, the wagon cards (wagon.toml),
the development deck, and the rule ids (docs/rules/traders-and-barbarians.md)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from events.types import RESOURCE_INDEX
from services.rules.engine.rules import register

NAME = "traders-and-barbarians"
TARGET = 13
START_GOLD = 5
GRAIN_MP = 2
GOLD_PER_RESOURCE = 2
GOLD_BUYS_PER_TURN = 2
BARBARIANS = 3
BARBARIAN_START = ("(0,0)/(1,-1)", "(0,0)/(0,1)", "(-1,0)/(0,0)")

COMMODITIES = ("glass", "marble", "sand", "tools")
COMMODITY_INDEX = {c: i for i, c in enumerate(COMMODITIES)}
# The trade hexes by terrain: what each needs, and its stack (Decision: 6 and 6, §10.7).
TRADE_HEXES = ("castle", "quarry", "glassworks")
NEEDS: dict[str, frozenset[str]] = {
    "castle": frozenset({"glass", "marble"}),
    "quarry": frozenset({"tools"}),
    "glassworks": frozenset({"sand"}),
}
STACKS: dict[str, dict[str, int]] = {
    "castle": {"tools": 6, "sand": 6},
    "quarry": {"marble": 6, "sand": 6},
    "glassworks": {"glass": 6, "tools": 6},
}


@dataclass(frozen=True)
class WagonCard:
    level: int
    mp: int
    gold: int
    drive_off: frozenset[int]
    cost: tuple[int, ...]
    vp: int


def _cards() -> tuple[WagonCard, ...]:
    data = tomllib.loads((resources.files(__package__) / "wagon.toml").read_text())
    out = []
    for level, card in enumerate(data["card"], start=1):
        cost = [0] * 5
        for name, n in card["cost"].items():
            cost[RESOURCE_INDEX[name]] = int(n)
        out.append(WagonCard(level, int(card["mp"]), int(card["gold"]),
                             frozenset(int(f) for f in card["drive_off"]), tuple(cost),
                             int(card["vp"])))
    return tuple(out)


CARDS = _cards()
TOP_LEVEL = len(CARDS)


def card(level: int) -> WagonCard:
    return CARDS[level - 1]


# The deck (§10.10, Decision: a sixteenth Knight); the one-point cards are the base VP card.
DECK = {"knight": 16, "road_building": 3, "year_of_plenty": 0, "monopoly": 0,
        "victory_point": 3}
SWIFT_JOURNEY = "swift_journey"
SWIFT_COPIES = 3

P = "traders_and_barbarians."
RULE_TEXTS = {
    P + "board.layout": "The trade hexes lie at (2,-2), (0,2), (-2,0); sixteen terrain hexes are shuffled; tokens without 2 and 12 skip the trade hexes.",
    P + "board.trade_hex": "On a trade hex no road goes on a sea side and nothing is built on a sea-only corner or the plaza; spokes take roads.",
    P + "setup.city": "The second set-up placement is a city, bringing one resource per adjacent producing hex.",
    P + "setup.wagon": "A player's wagon starts on their set-up city; their wagon card 1 is face up.",
    P + "setup.gold": "Each player starts with 5 gold.",
    P + "roll.reroll": "Totals of 2 and 12 are re-thrown until another total comes up.",
    P + "seven.move_barbarian": "On a 7 the active player relocates one barbarian to a different, barbarian-free path.",
    P + "seven.steal": "A barbarian moved onto another player's road draws one random resource card from that player.",
    P + "barbarian.one_per_path": "A path holds at most one barbarian.",
    P + "road.barbarian_path": "A road may be built on a path holding a barbarian.",
    P + "wagon.movement_points": "A wagon has the MP of its card, +2 once per turn for 1 grain.",
    P + "wagon.path": "A wagon moves along a path from the vertex it stands on.",
    P + "wagon.path_cost": "A path costs 2 MP without a road (or with a damaged one), 1 with any road, bridge or ship, +2 with a barbarian.",
    P + "wagon.toll": "Using another player's road pays them 1 gold, a bridge 2.",
    P + "wagon.afford": "A step is taken only if its MP and its toll can both be paid.",
    P + "wagon.plaza_stop": "A wagon entering a plaza stops there.",
    P + "wagon.phase": "The wagon moves after trading and building, and the move may be skipped.",
    P + "commodity.carry_one": "A wagon carries at most one commodity token.",
    P + "commodity.deliver": "A commodity the plaza's hex needs is delivered: 1 VP and the gold of the wagon card.",
    P + "commodity.draw": "An empty wagon at a plaza draws the top token of that hex's stack, if any is left.",
    P + "wagon.upgrade": "A wagon is upgraded one card at a time, up to card 5, during trade and build, by paying the next card's cost.",
    P + "wagon.card_vp": "Wagon card 5 is worth 1 VP.",
    P + "drive_off.level": "Driving off needs wagon card 2 or better.",
    P + "drive_off.position": "The wagon must stand on an end of the barbarian's path.",
    P + "drive_off.once": "Each barbarian may be tried once per turn.",
    P + "drive_off.roll": "One die; a face of the wagon card moves the barbarian to any free path, without a steal.",
    P + "dev.deck": "The deck is 16 Knight, 3 Road Building, 3 Swift Journey and 3 one-point cards.",
    P + "dev.knight": "A Knight moves a barbarian, stealing from the owner of a road it lands on.",
    P + "dev.swift_journey": "Swift Journey gives the wagon a second full movement this turn.",
    P + "road.no_longest": "There is no Longest Road card.",
    P + "gold.buy": "2 gold buy 1 resource, at most twice per turn, while the bank has it.",
    P + "gold.sell": "Resources sell for gold at 4:1, 3:1 at a generic harbor and 2:1 at the matching 2:1 harbor.",
    P + "gold.not_resource": "Gold is not a resource card.",
    P + "gold.trade": "In a domestic trade the active player may give or ask gold on one side; each side must hold what it gives.",
    P + "win.target": "The game is won with 13 VP (14 with Harbormaster).",
    P + "two_player.neutral_toll": "With Catan for Two a toll on a neutral road goes half (rounded up) to the bank, half (rounded down) to the opponent.",
    P + "two_player.token_barbarian": "With Catan for Two a token action may relocate a barbarian to a free, road-less path.",
    P + "two_player.trade_hex_token": "With Catan for Two a settlement touching a trade hex earns 1 extra trade token.",
    P + "event_cards.robber_attacks": "With Event Cards, Robber Attacks is resolved as this scenario's 7.",
    P + "event_cards.robber_flees": "With Event Cards, Robber Flees has no effect.",
}
register(RULE_TEXTS)
