"""The wagon (docs/rules/traders-and-barbarians.md §10.6–§10.8): movement points, path costs,
tolls, the plaza stop, deliveries and draws, the grain bonus, Swift Journey's second movement
and upgrades.

The wagon part of the turn (phase WAGON) begins with the first wagon command given in the main
phase (a step, the grain bonus or a drive-off try): from then on the seat no longer trades or
builds (§10.13 step 3). Ending the turn without one skips the move (`wagon.phase`)."""

from __future__ import annotations

from typing import cast

from events.events import Event
from events.traders_and_barbarians import (
    Commodity,
    CommodityDelivered,
    CommodityDrawn,
    EndWagonMovement,
    MovementPointsBought,
    MoveWagon,
    PayGrainForMovement,
    SecondMovementStarted,
    UpgradeWagon,
    WagonMoved,
    WagonMovementStarted,
    WagonUpgraded,
)
from services.rules.engine.base.common import can_afford, pay, require_current
from services.rules.engine.capabilities import DAMAGED_ROADS
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.traders_and_barbarians.common import (
    NEUTRAL_TOLL,
    WAGON,
    other_end,
    places,
    tb,
)
from services.rules.engine.scenarios.traders_and_barbarians.data import (
    COMMODITIES,
    COMMODITY_INDEX,
    GRAIN_MP,
    NEEDS,
    TOP_LEVEL,
    TRADE_HEXES,
    P,
    card,
)
from services.rules.engine.state import MAIN, NO_ONE, State

GRAIN = 3
NO_ROAD_MP = 2
ROAD_MP = 1
BARBARIAN_MP = 2
TOLL = 1
BRIDGE_TOLL = 2


def step_cost(state: State, edge: int) -> int:
    """MP of one path (`wagon.path_cost`): 2 without a road or with a road damaged by Event
    Cards' Earthquake, 1 with any route piece, +2 with a barbarian."""
    cost = ROAD_MP if state.edge_owner[edge] != NO_ONE and not damaged(state, edge) else NO_ROAD_MP
    if edge in tb(state).barbarians:
        cost += BARBARIAN_MP
    return cost


def damaged(state: State, edge: int) -> bool:
    """Whether `edge` holds a road an event put out of use (Event Cards' Earthquake: the
    `DAMAGED_ROADS` capability, where a module of the game provides it)."""
    roads = state.rules.capability(DAMAGED_ROADS)
    return roads is not None and roads.damaged(state, edge)


def toll(state: State, seat: int, edge: int) -> tuple[int, int | None, int]:
    """(gold paid, the seat paid, the part going to the supply) for using `edge`
    (`wagon.toll`): another seat's road 1, its bridge 2; a damaged road is a path without a
    road (a Decision: no toll). A neutral road (a board-only owner's: Catan for Two's) as the
    pair's rule says (`NEUTRAL_TOLL`, `two_player.neutral_toll`; without it, to the supply)."""
    owner = state.edge_owner[edge]
    if owner in (NO_ONE, seat) or damaged(state, edge):
        return 0, None, 0
    bridges = state.players[owner].pieces.get("bridge", ())
    gold = BRIDGE_TOLL if edge in bridges else TOLL
    if owner >= state.n:
        split = state.rules.capability(NEUTRAL_TOLL)
        return split(state, seat, gold) if split is not None else (gold, None, gold)
    return gold, owner, 0


def movement_mp(state: State, seat: int) -> int:
    """The MP the wagon has now: what is left, or its card's if it has not moved yet."""
    t = tb(state)
    return t.mp if t.moving else card(t.level[seat]).mp


def steps(state: State, seat: int) -> list[int]:
    """The paths the wagon can take now (MP and toll affordable)."""
    t = tb(state)
    if t.moving and t.over:
        return []
    mp = movement_mp(state, seat)
    at = t.wagon[seat]
    is_path = places(state.board).is_path
    out = []
    for e in state.board.topo.vertex_edges[at]:
        if is_path[e] and step_cost(state, e) <= mp and toll(state, seat, e)[0] <= t.gold[seat]:
            out.append(e)
    return out


def start(state: State, seat: int) -> list[Event]:
    """The wagon part of the turn begins, if this command is its first."""
    if state.phase != MAIN:
        return []
    return [WagonMovementStarted(seat=seat, mp=card(tb(state).level[seat]).mp)]


def move_wagon(state: State, cmd: MoveWagon, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    t = tb(state)
    seat, e = cmd.seat, cmd.edge
    at = t.wagon[seat]
    if t.moving and t.over:
        raise reject(P + "wagon.plaza_stop", "the wagon stopped at a plaza: its movement is over")
    if not 0 <= e < state.board.n_edges or e not in state.board.topo.vertex_edges[at] \
            or not places(state.board).is_path[e]:
        raise reject(P + "wagon.path", "the wagon moves along a path from where it stands")
    cost = step_cost(state, e)
    gold, owner, to_bank = toll(state, seat, e)
    if cost > movement_mp(state, seat) or gold > t.gold[seat]:
        raise reject(P + "wagon.afford",
                     f"the step costs {cost} MP and {gold} gold; the wagon has "
                     f"{movement_mp(state, seat)} MP and {t.gold[seat]} gold")
    to = other_end(state, e, at)
    events = start(state, seat)
    events.append(WagonMoved(seat=seat, edge=e, vertex=to, mp=cost, toll=gold, toll_to=owner,
                             to_bank=to_bank))
    trade = places(state.board).plaza_of.get(to)
    if trade is not None:
        events.extend(at_plaza(state, seat, trade, dealer))
    return events


def at_plaza(state: State, seat: int, trade: int, dealer: Dealer) -> list[Event]:
    """Deliver what this trade hex needs, then an empty wagon draws from its stack (§10.7)."""
    t = tb(state)
    kind = TRADE_HEXES[trade]
    h = places(state.board).trade_hexes[trade]
    events: list[Event] = []
    cargo = t.cargo[seat]
    if cargo in NEEDS[kind]:
        gold = card(t.level[seat]).gold
        events.append(CommodityDelivered(seat=seat, commodity=cast(Commodity, cargo), hex=h,
                                         gold=gold))
        cargo = ""
    stack = t.stacks[trade]
    if not cargo and any(stack):
        drawn = dealer.pick(f"commodity:{kind}:{t.draws}", COMMODITIES, stack)
        events.append(CommodityDrawn(seat=seat, commodity=cast(Commodity, drawn), hex=h,
                                     n=t.draws))
    return events


def pay_grain(state: State, cmd: PayGrainForMovement, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    t = tb(state)
    if t.grain_paid:
        raise reject(P + "wagon.movement_points", "grain buys 2 MP once per turn")
    if state.players[cmd.seat].hand[GRAIN] < 1:
        raise reject(P + "wagon.movement_points", "2 more MP cost 1 grain")
    if t.moving and t.over:
        raise reject(P + "wagon.plaza_stop", "the wagon stopped at a plaza: its movement is over")
    return [*start(state, cmd.seat), MovementPointsBought(seat=cmd.seat, mp=GRAIN_MP)]


def end_movement(state: State, cmd: EndWagonMovement, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    t = tb(state)
    if not t.second:
        raise reject(P + "dev.swift_journey", "no second movement is due")
    return [SecondMovementStarted(seat=cmd.seat, mp=card(t.level[cmd.seat]).mp)]


def upgrade(state: State, cmd: UpgradeWagon, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    level = tb(state).level[cmd.seat]
    if level >= TOP_LEVEL:
        raise reject(P + "wagon.upgrade", f"wagon card {TOP_LEVEL} is the last")
    if not can_afford(state.players[cmd.seat].hand, card(level + 1).cost):
        raise reject(P + "wagon.upgrade", f"wagon card {level + 1} costs more than you hold")
    return [WagonUpgraded(seat=cmd.seat, level=level + 1)]


def can_upgrade(state: State, seat: int) -> bool:
    level = tb(state).level[seat]
    return level < TOP_LEVEL and can_afford(state.players[seat].hand, card(level + 1).cost)


# --- evolvers -------------------------------------------------------------------------------


def evolve_started(state: State, e: WagonMovementStarted) -> None:
    t = tb(state)
    t.moving = True
    t.mp = e.mp
    state.phase = WAGON


def evolve_moved(state: State, e: WagonMoved) -> None:
    t = tb(state)
    t.wagon[e.seat] = e.vertex
    t.mp -= e.mp
    t.gold[e.seat] -= e.toll
    if e.toll_to is not None:
        t.gold[e.toll_to] += e.toll - e.to_bank
    if e.vertex in places(state.board).plaza_of:  # entering a plaza ends the movement
        if t.second:
            t.second = False
            t.mp = card(t.level[e.seat]).mp
        else:
            t.mp = 0
            t.over = True


def evolve_points(state: State, e: MovementPointsBought) -> None:
    t = tb(state)
    t.grain_paid = True
    t.mp += e.mp
    state.players[e.seat].hand[GRAIN] -= 1
    state.bank[GRAIN] += 1


def evolve_second(state: State, e: SecondMovementStarted) -> None:
    t = tb(state)
    t.second = False
    t.over = False
    t.mp = e.mp


def evolve_delivered(state: State, e: CommodityDelivered) -> None:
    t = tb(state)
    t.cargo[e.seat] = ""
    t.delivered[e.seat][COMMODITY_INDEX[e.commodity]] += 1
    t.gold[e.seat] += e.gold


def evolve_drawn(state: State, e: CommodityDrawn) -> None:
    t = tb(state)
    trade = places(state.board).trade_hexes.index(e.hex)
    t.stacks[trade][COMMODITY_INDEX[e.commodity]] -= 1
    t.cargo[e.seat] = e.commodity
    t.draws += 1


def evolve_upgraded(state: State, e: WagonUpgraded) -> None:
    pay(state, e.seat, card(e.level).cost)
    tb(state).level[e.seat] = e.level
