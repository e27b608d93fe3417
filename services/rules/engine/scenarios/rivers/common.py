"""The Rivers of Catan's constants, rule ids, public state and river geometry
(docs/rules/rivers.md §7)."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from services.rules.engine.board import Board
from services.rules.engine.geometry import Hex
from services.rules.engine.modstate import StateKey
from services.rules.engine.rules import register
from services.rules.engine.scenarios.rivers.state import RiversState as RiversState
from services.rules.engine.state import State

NAME = "rivers"
EXT = "rivers"
NEUTRAL_BRIDGE = "rivers.neutral_bridge"  # phase: the neutral bridge owed (Catan for Two)
SWAMP = "swamp"
BRIDGE = "bridge"
BRIDGES_PER_SEAT = 3
BRIDGE_COST = (1, 2, 0, 0, 0)  # lumber, brick, wool, grain, ore
BRIDGE_SITE = "bridge_site"  # the map's edge feature
# The rivers, upstream to the sea (DECISION §7.2); their hexes are the river hexes.
RIVERS: tuple[tuple[Hex, ...], ...] = (
    ((1, -1), (0, 0), (-1, 1), (-2, 2)),
    ((1, 0), (0, 1), (0, 2)),
)
RIVER_HEXES: frozenset[Hex] = frozenset(h for river in RIVERS for h in river)
# The 2 is set aside and joins the hex that received the 12 (§7.2).
JOINING_TOKEN, JOINED_TOKEN = 2, 12
GOLD_ROAD, GOLD_SETTLEMENT, GOLD_BRIDGE = 1, 1, 3
BUY_PRICE = 2  # gold for 1 resource
BUYS_PER_TURN = 2
WEALTHIEST_VP, POOR_VP = 1, -2

register({
    "rivers.board.layout": "Rivers: the two rivers lie on the seven river hexes; the other twelve land hexes are shuffled.",
    "rivers.board.tokens": "Rivers: tokens go by the variable walk skipping the swamps; the 2 joins the 12's hex; swamps produce nothing.",
    "rivers.robber.swamp_start": "Rivers: the robber starts on the swamp (-2,2).",
    "rivers.road.bridge_site": "Rivers: no road may be built on a bridge site, set-up included.",
    "rivers.bridge.site": "Rivers: a bridge is built only on one of the seven bridge sites.",
    "rivers.bridge.cost": "Rivers: a bridge costs 1 lumber and 2 brick.",
    "rivers.bridge.connect": "Rivers: a bridge connects to the builder's road, bridge, settlement or city, as a road would.",
    "rivers.bridge.limit": "Rivers: each player has 3 bridges.",
    "rivers.bridge.not_free": "Rivers: a bridge is never built with Road Building or any other free-road effect.",
    "rivers.bridge.route": "Rivers: a bridge counts as a road for connections, Longest Road and blocking.",
    "rivers.gold.road": "Rivers: a road on a river path earns 1 gold.",
    "rivers.gold.settlement": "Rivers: a settlement on a river vertex earns 1 gold, in set-up too; a city earns none.",
    "rivers.gold.bridge": "Rivers: a bridge earns 3 gold.",
    "rivers.gold.buy": "Rivers: 2 gold buy 1 resource from the bank, at most twice per turn, only while the bank has it.",
    "rivers.gold.sell": "Rivers: resources sell for 1 gold at 4:1, 3:1 at a generic harbor, 2:1 of the harbor's resource at a 2:1 harbor.",
    "rivers.gold.domestic": "Rivers: gold may be given and taken in a trade between players.",
    "rivers.gold.not_resource": "Rivers: gold is not a resource card: never stolen, discarded, counted for the 7 or monopolised.",
    "rivers.wealthiest.sole_leader": "Rivers: the single player with the most gold holds the Wealthiest Settler (+1 VP); with a tie for most nobody does.",
    "rivers.poor.minimum": "Rivers: every player tied for the least gold holds a Poor Settler (-2 VP).",
    "rivers.win.target": "Rivers: the game is won with 10 VP (11 with Harbormaster).",
    "rivers.event_cards.robber_flees": "Rivers with Event Cards: Robber Flees sends the robber to a swamp.",
    "rivers.friendly_robber.swamp": "Rivers with Friendly Robber: a robber with no legal hex goes to a swamp of the mover's choice.",
    "rivers.two_player.swamp_tokens": "Rivers with Catan for Two: a settlement next to a swamp gains 2 trade tokens.",
    "rivers.two_player.robber_swamp": "Rivers with Catan for Two: the robber token action sends the robber to a swamp.",
    "rivers.two_player.neutral_bridge": "Rivers with Catan for Two: a bridge owes a neutral bridge, or a neutral road when no bridge fits.",
})


def rivers(state: State) -> RiversState:
    ext: RiversState = state.ext[EXT]
    return ext


class RiverPlaces:
    """Where the rivers are on a board: bridge sites, river paths and river vertices."""

    def __init__(self, board: Board) -> None:
        topo = board.topo
        self.bridge_sites: frozenset[int] = board.edge_features.get(BRIDGE_SITE, frozenset())
        river = [topo.hex_index[h] for h in sorted(RIVER_HEXES) if h in topo.hex_index]
        sides = {e for h in river for e in topo.hex_edges[h]}
        # A river path: any side of a river hex but the bridge sites (§7.3, DECISION 27).
        self.river_paths: frozenset[int] = frozenset(sides - self.bridge_sites)
        self.river_vertices: frozenset[int] = frozenset(v for h in river for v in topo.hex_vertices[h])


@lru_cache(maxsize=32)
def _places(board: Board) -> RiverPlaces:
    return RiverPlaces(board)


def places(state: State) -> RiverPlaces:
    return _places(state.board)


def wealthiest(gold: list[int]) -> int | None:
    """The single seat with the most gold, or None on a tie for the most."""
    top = max(gold)
    leaders = [s for s, g in enumerate(gold) if g == top]
    return leaders[0] if len(leaders) == 1 else None


def poor(gold: list[int]) -> list[int]:
    """Every seat tied for the least gold (everybody when all hold the same)."""
    least = min(gold)
    return [s for s, g in enumerate(gold) if g == least]


def wealth_vp(gold: list[int], seat: int) -> int:
    return (WEALTHIEST_VP if wealthiest(gold) == seat else 0) + (POOR_VP if seat in poor(gold) else 0)


RIVERS_STATE: Final = StateKey(EXT, RiversState)  # the module's state (modstate.py)
