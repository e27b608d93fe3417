"""Prompts for the active seat's own phases: roll, main (trade/build), road building.

Option 0 is the default a silent seat gets: roll the dice, end the turn, the first free road.
"""

from __future__ import annotations

from events.commands import Command, StopRoadBuilding
from events.prompts import Prompt
from services.rules.engine.base.building import pieces_left
from services.rules.engine.base.common import can_afford, holds_any
from services.rules.engine.base.option_commands import (
    cities,
    end_turn,
    roads,
    roll_dice,
    settlements,
)
from services.rules.engine.base.roads import legal_road_edges, legal_settlement_vertices
from services.rules.engine.state import MAIN, ROAD_BUILDING, ROLL, SETTLEMENT, Rules, State


def building_options(state: State, seat: int, out: list[Command] | None = None) -> list[Command]:
    """The builds `seat` can afford and place, appended to `out` (a new list by default)."""
    p = state.players[seat]
    rules = state.rules
    hand = p.hand
    if out is None:
        out = []
    topo = state.board.topo
    if can_afford(hand, rules.cache.road_cost) and pieces_left(state, seat, "road") > 0:
        road = roads(seat, topo.n_edges)
        out.extend([road[e] for e in legal_road_edges(state, seat)])
    if can_afford(hand, rules.cache.settlement_cost) and pieces_left(state, seat, "settlement") > 0:
        settlement = settlements(seat, len(topo.vertices))
        out.extend([settlement[v] for v in legal_settlement_vertices(state, seat)])
    if can_afford(hand, rules.cache.city_cost) and pieces_left(state, seat, "city") > 0:
        level = state.vertex_level
        city = cities(seat, len(topo.vertices))
        out.extend([city[v] for v in sorted(p.settlements) if level[v] == SETTLEMENT])
    return out


def extras(
    state: State, seat: int, phase: str, out: list[Command] | None = None
) -> list[Command]:
    """The modules' and other areas' options (`rules.hooks.extra_options`), appended to `out`."""
    if out is None:
        out = []
    for more in state.rules.hooks.extra_options:
        out.extend(more(state, seat, phase))
    return out


def prompt_roll(state: State) -> list[Prompt]:
    seat = state.current
    options = extras(state, seat, ROLL, [roll_dice(seat)])
    return [Prompt(seat=seat, stage=ROLL, options=options, default=options[0])]


def prompt_main(state: State) -> list[Prompt]:
    seat = state.current
    options = extras(state, seat, MAIN, building_options(state, seat, [end_turn(seat)]))
    may_trade = holds_any(state.players[seat].hand)
    return [Prompt(seat=seat, stage=MAIN, options=options, default=options[0], may_trade=may_trade)]


def prompt_road_building(state: State) -> list[Prompt]:
    seat = state.current
    road = roads(seat, state.board.topo.n_edges)
    options: list[Command] = [road[e] for e in legal_road_edges(state, seat)]
    if not options:
        options = [StopRoadBuilding(seat=seat)]
    return [Prompt(seat=seat, stage=ROAD_BUILDING, options=options, default=options[0])]


def install(rules: Rules) -> None:
    rules.prompt(ROLL, prompt_roll)
    rules.prompt(MAIN, prompt_main)
    rules.prompt(ROAD_BUILDING, prompt_road_building)
