"""Knights on the march (docs/rules/barbarian-attack.md §9.7).

After trading and building, each of the active seat's knights may walk once: up to 3 paths
(5 for 1 grain), over any piece, ending on a path without a knight that is not a castle path.
The march begins with `BeginMarch` (or its first step) and closes trading and building for the
turn (`marching`); prompts offer the steps only once it has begun. A knight
that stands on a castle path must leave it in the march when it can: the turn cannot end
before. Decision (hexlog): paths of conquered hexes may be crossed and occupied; a castle
knight with nowhere to go stays.

With Catan for Two the shared foreign knight marches after the seat's own knights (up to 3
paths, `MarchForeignKnight`); once it has, the seat's own knights stay. Decision (hexlog): it
takes no grain boost, and like a seat's own knight it must leave a castle path in the march of
the turn it stands there, when it can.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from events.barbarian_attack import (
    BeginMarch,
    BuyResourceWithGold,
    ForeignKnightMarched,
    KnightMarched,
    MarchBegun,
    MarchForeignKnight,
    MarchKnight,
    SellResourceForGold,
)
from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    Command,
    EndTurn,
    MaritimeTrade,
    ProposeTrade,
)
from events.events import Event
from events.types import RESOURCE_INDEX
from services.rules.engine import pieces
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.barbarian_attack.common import (
    BOOST_RANGE,
    MOVE_RANGE,
    attack,
    geometry,
    knight_owner,
    knights_of,
)
from services.rules.engine.state import MAIN, Rules, State

GRAIN = RESOURCE_INDEX["grain"]
# Commands of trading and building, closed once the knights march.
CLOSED_BY_MARCH = (BuildRoad, BuildSettlement, BuildCity, BuyDevelopmentCard, MaritimeTrade,
                   ProposeTrade, BuyResourceWithGold, SellResourceForGold)


def reach(state: State, start: int, steps: int) -> dict[int, int]:
    """Paths a walk of at most `steps` paths from `start` can end on, with the fewest steps
    (any piece may be passed; the end must be free of knights and off the castle)."""
    g = geometry(state.board)
    links = g.edge_links
    seen = {start: 0}
    frontier = [start]
    for d in range(1, steps + 1):
        nxt: list[int] = []
        for e in frontier:
            for f in links[e]:
                if f not in seen:
                    seen[f] = d
                    nxt.append(f)
        frontier = nxt
    taken = knight_owner(state)
    castle = g.castle_edges
    return {e: d for e, d in seen.items() if d > 0 and e not in taken and e not in castle}


def movable(state: State, seat: int) -> list[int]:
    a = attack(state)
    if a.foreign_moved:
        return []  # the foreign knight marches last
    return sorted(e for e in knights_of(state, seat) if e not in a.moved)


def foreign_targets(state: State) -> dict[int, int]:
    """Where the foreign knight may march this turn (none once it has)."""
    a = attack(state)
    if a.foreign < 0 or a.foreign_moved:
        return {}
    return reach(state, a.foreign, MOVE_RANGE)


def foreign_options(state: State, seat: int) -> list[MarchForeignKnight]:
    return [MarchForeignKnight(seat=seat, target=e) for e in sorted(foreign_targets(state))]


def move_options(state: State, seat: int) -> list[MarchKnight]:
    grain = state.players[seat].hand[GRAIN] > 0
    out: list[MarchKnight] = []
    for e in movable(state, seat):
        for target, d in sorted(reach(state, e, BOOST_RANGE if grain else MOVE_RANGE).items()):
            out.append(MarchKnight(seat=seat, source=e, target=target, boost=d > MOVE_RANGE))
    return out


def can_march(state: State, seat: int) -> bool:
    """Some knight of the seat can move (asked at every prompt: a free neighbouring path, the
    common case, answers without a search)."""
    knights = movable(state, seat)
    if not knights:
        return bool(foreign_targets(state))
    g = geometry(state.board)
    taken = knight_owner(state)
    for e in knights:
        if any(f not in taken and f not in g.castle_edges for f in g.edge_links[e]):
            return True
    return any(reach(state, e, MOVE_RANGE) for e in knights)


def begin_march(state: State, cmd: BeginMarch, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if attack(state).marching:
        raise reject("barbarian_attack.knight.move", "the knights are marching already")
    if not can_march(state, cmd.seat):
        raise reject("barbarian_attack.knight.move", "none of your knights can march")
    return [MarchBegun(seat=cmd.seat)]


def evolve_begun(state: State, e: MarchBegun) -> None:
    attack(state).marching = True


def must_leave_castle(state: State, seat: int) -> bool:
    """barbarian_attack.knight.leave_castle: a castle knight that can still move off."""
    castle = geometry(state.board).castle_edges
    if attack(state).foreign in castle and foreign_targets(state):
        return True
    return any(e in castle and reach(state, e, MOVE_RANGE) for e in movable(state, seat))


def move_knight(state: State, cmd: MarchKnight, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if cmd.source not in knights_of(state, cmd.seat):
        raise reject("barbarian_attack.knight.move", f"you have no knight on path {cmd.source}")
    if cmd.source in attack(state).moved:
        raise reject("barbarian_attack.knight.move", "that knight has already moved this turn")
    if attack(state).foreign_moved:
        raise reject("barbarian_attack.two_player.foreign_knight",
                     "the foreign knight has marched: your own knights march before it")
    if cmd.boost and state.players[cmd.seat].hand[GRAIN] <= 0:
        raise reject("barbarian_attack.knight.boost", "a longer march costs 1 grain")
    if cmd.target in knight_owner(state):
        raise reject("barbarian_attack.knight.one_per_path", "a path holds one knight")
    if cmd.target not in reach(state, cmd.source, BOOST_RANGE if cmd.boost else MOVE_RANGE):
        rule = "barbarian_attack.knight.move"
        if not cmd.boost and cmd.target in reach(state, cmd.source, BOOST_RANGE):
            rule = "barbarian_attack.knight.boost"
        raise reject(rule, f"the knight cannot end its march on path {cmd.target}")
    return [KnightMarched(seat=cmd.seat, source=cmd.source, target=cmd.target, boost=cmd.boost)]


def evolve_moved(state: State, e: KnightMarched) -> None:
    a = attack(state)
    pieces.remove(state, e.seat, "knight", e.source)
    pieces.place(state, e.seat, "knight", e.target)
    a.moved.append(e.target)
    a.marching = True
    if e.boost:
        state.players[e.seat].hand[GRAIN] -= 1
        state.bank[GRAIN] += 1


def move_foreign(state: State, cmd: MarchForeignKnight, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    a = attack(state)
    if a.foreign < 0:
        raise reject("barbarian_attack.two_player.foreign_knight",
                     "the foreign knight is not on the board")
    if a.foreign_moved:
        raise reject("barbarian_attack.two_player.foreign_knight",
                     "the foreign knight has already marched this turn")
    if cmd.target not in foreign_targets(state):
        raise reject("barbarian_attack.knight.move",
                     f"the foreign knight cannot end its march on path {cmd.target}")
    return [ForeignKnightMarched(seat=cmd.seat, source=a.foreign, target=cmd.target)]


def evolve_foreign_moved(state: State, e: ForeignKnightMarched) -> None:
    a = attack(state)
    a.foreign = e.target
    a.foreign_moved = True
    a.marching = True


C = TypeVar("C", bound=Command)  # one of CLOSED_BY_MARCH


def closed_by_march(
    previous: Callable[[State, C, Dealer], list[Event]],
) -> Callable[[State, C, Dealer], list[Event]]:
    def handler(state: State, cmd: C, dealer: Dealer) -> list[Event]:
        if attack(state).marching and cmd.seat == state.current:
            raise reject("barbarian_attack.knight.move",
                         "the knights are marching: trading and building are over for this turn")
        return previous(state, cmd, dealer)

    return handler


EndTurnHandler = Callable[[State, EndTurn, Dealer], list[Event]]


def wrap_end_turn(previous: EndTurnHandler) -> EndTurnHandler:
    def handler(state: State, cmd: EndTurn, dealer: Dealer) -> list[Event]:
        if state.phase == MAIN and cmd.seat == state.current and must_leave_castle(state, cmd.seat):
            raise reject("barbarian_attack.knight.leave_castle",
                         "your knight on a castle path must march off it first")
        return previous(state, cmd, dealer)

    return handler


def install(rules: Rules) -> None:
    rules.handle(MarchKnight, move_knight)
    rules.handle(BeginMarch, begin_march)
    rules.allow(MAIN, MarchKnight, BeginMarch)
    rules.evolve_with(KnightMarched, evolve_moved)
    rules.evolve_with(MarchBegun, evolve_begun)
    rules.handle(MarchForeignKnight, move_foreign)
    rules.allow(MAIN, MarchForeignKnight)
    rules.evolve_with(ForeignKnightMarched, evolve_foreign_moved)
    for kind in CLOSED_BY_MARCH:
        if kind in rules.registry.handlers:
            rules.wrap_handler(kind, closed_by_march)
    rules.wrap_handler(EndTurn, wrap_end_turn)
