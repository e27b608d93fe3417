"""The Caravans' shared names: rule ids, phases, and the module state (docs/rules/caravans.md §8)."""

from __future__ import annotations

from typing import Final

from services.rules.engine.modstate import StateKey
from services.rules.engine.rules import register
from services.rules.engine.scenarios.caravans.state import CaravanState
from services.rules.engine.state import State

NAME = "caravans"
EXT = "caravans"
BID = "caravans.bid"  # phase: the seats bid in turn, from the builder
NAME_PATH = "caravans.name"  # phase: the voters name their placement, sealed
SECOND = "caravans.second"  # phase (Catan for Two): the vote's second camel

CAMELS = 22  # caravans.camel.supply
WIN_TARGET = 12  # caravans.win.target (Harbormaster adds its 1 on top)
ARROWS = 3
# The oasis corner each arrow points from, and its start path (§8.2 DECISION): arrow 0 north,
# 1 south-east, 2 south-west.
ARROW_CORNERS = ("(0,-1)/(0,0)/(1,-1)", "(0,0)/(0,1)/(1,0)", "(-1,0)/(-1,1)/(0,0)")
START_PATHS = ("(0,-1)/(1,-1)", "(0,1)/(1,0)", "(-1,0)/(-1,1)")
OASIS = "oasis"

register({
    "caravans.board.oasis": (
        "Caravans: the oasis lies on the centre with no token and never produces; the 18 other "
        "hexes take all 18 tokens."
    ),
    "caravans.robber.offboard_start": (
        "Caravans: the robber starts off the board and enters on the first 7 or Knight."
    ),
    "caravans.robber.not_oasis": "Caravans: the robber never stands on the oasis.",
    "caravans.camel.trigger": (
        "Caravans: a turn in which the active player built a settlement or a city ends with "
        "one camel vote; set-up never does."
    ),
    "caravans.camel.supply": "Caravans: there are 22 camels; when they are gone no more votes are held.",
    "caravans.vote.bid_order": (
        "Caravans: bids are made once each, from the builder clockwise, and are public."
    ),
    "caravans.vote.bid_cards": "Caravans: a bid is made only of wool and grain the bidder holds.",
    "caravans.vote.sealed": (
        "Caravans: each voter names one legal placement, sealed until every voter has named one."
    ),
    "caravans.vote.majority": "Caravans: a bidder with more votes than all the others together decides.",
    "caravans.vote.coalition": (
        "Caravans: otherwise a placement backed by two or more bidders with more votes than any "
        "other placement wins."
    ),
    "caravans.vote.plurality": (
        "Caravans: otherwise the single bidder with the most votes decides, else the active player."
    ),
    "caravans.vote.bids_spent": "Caravans: every card bid goes to the bank.",
    "caravans.camel.start": (
        "Caravans: a new caravan's first camel goes on the start path of an unused arrow."
    ),
    "caravans.camel.extend": (
        "Caravans: a further camel goes on a free path at its caravan's head, so caravans never branch."
    ),
    "caravans.camel.oasis_edge": "Caravans: a caravan's first camel never stands on an oasis-edge path.",
    "caravans.camel.one_per_path": (
        "Caravans: a path holds one camel at most; camels and roads may share a path."
    ),
    "caravans.camel.merge": (
        "Caravans: a caravan whose head reaches another caravan's vertex merges with it there."
    ),
    "caravans.road.camel_double": "Caravans: a road beside a camel counts 2 for road length.",
    "caravans.vp.between_camels": (
        "Caravans: a building on a vertex touched by two or more camels is worth 1 VP more."
    ),
    "caravans.win.target": "Caravans: the game is won with 12 VP (13 with Harbormaster).",
    "caravans.two_player.two_camels": (
        "Caravans with Catan for Two: a vote places two camels, in two different caravans."
    ),
    "caravans.two_player.tie": (
        "Caravans with Catan for Two: a tied vote lets each player place one camel, the active "
        "player first."
    ),
    "caravans.two_player.robber_offboard": (
        "Caravans with Catan for Two: the robber token action takes the robber off the board."
    ),
    "caravans.event_cards.robber_flees": (
        "Caravans with Event Cards: Robber Flees takes the robber off the board."
    ),
    "caravans.friendly_robber.offboard": (
        "Caravans with Friendly Robber: a robber with no legal hex leaves the board."
    ),
})


def ext(state: State) -> CaravanState:
    x: CaravanState = state.ext[EXT]
    return x


def pairs(flat: tuple[int, ...] | list[int]) -> list[tuple[int, int]]:
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


CARAVANS: Final = StateKey(EXT, CaravanState)  # the module's state (modstate.py)
