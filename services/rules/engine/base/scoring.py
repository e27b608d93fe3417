"""Victory points, Longest Road, Largest Army and the win (docs/rules/base.md §1.8, §1.9, §1.11).

Awards are decided by derivers: they look at the state after a move and say what changed, so
the log records "Longest Road passes to Red" as an event rather than leaving it implicit.
"""

from __future__ import annotations

from typing import Final

from events.events import (
    CityBuilt,
    DevelopmentCardBought,
    Event,
    GameFinished,
    KnightPlayed,
    LargestArmyChanged,
    LongestRoadChanged,
    RoadBuilt,
    SettlementBuilt,
)
from events.pieces import PieceRemoved
from events.types import DEV_INDEX
from services.rules.engine import hook_keys as hk
from services.rules.engine.chance import Dealer
from services.rules.engine.state import NO_ONE, SETUP, Rules, State

VP_CARD: Final = DEV_INDEX["victory_point"]
MIN_ROAD: Final = 5
MIN_ARMY: Final = 3


def _pieces_and_awards(state: State, seat: int) -> int:
    p = state.players[seat]
    vp = len(p.settlements) + 2 * len(p.cities)
    if state.longest_holder == seat:
        vp += 2
    if state.army_holder == seat:
        vp += 2
    return vp


def public_vp(state: State, seat: int) -> int:
    """What every seat can count (§0.3: comparisons between players use this)."""
    vp = _pieces_and_awards(state, seat)
    for bonus in state.rules.hooks.vp_bonus:
        vp += bonus(state, seat, True)
    return vp


def total_vp(state: State, seat: int) -> int:
    """Public VP plus hidden points (victory point cards, hidden module points)."""
    dev = state.players[seat].dev
    vp = _pieces_and_awards(state, seat)
    for card in state.rules.vocab.point_cards:
        vp += dev[card]
    for bonus in state.rules.hooks.vp_bonus:
        vp += bonus(state, seat, False)
    return vp


def scores(state: State) -> tuple[int, ...]:
    return tuple(total_vp(state, s) for s in range(state.n))


def base_win_target(state: State, seat: int) -> int:
    return state.vp_target


def longest_road_holder(state: State) -> tuple[int, int]:
    """(holder, length) after the holder rules of §1.9: the holder keeps it while still
    (co-)longest; otherwise a sole longest with ≥ 5 takes it; ties or < 5 set it aside."""
    lengths = [p.road_length for p in state.players]
    best = max(lengths)
    holder = state.longest_holder
    if best < MIN_ROAD:
        return NO_ONE, best
    if holder != NO_ONE and lengths[holder] == best:
        return holder, best
    leaders = [s for s, n in enumerate(lengths) if n == best]
    return (leaders[0] if len(leaders) == 1 else NO_ONE), best


def derive_longest_road(state: State, dealer: Dealer) -> list[Event]:
    if not state.rules.longest_road:
        return []
    holder, length = longest_road_holder(state)
    if holder == state.longest_holder:
        return []
    return [LongestRoadChanged(holder=None if holder == NO_ONE else holder, length=length)]


def derive_largest_army(state: State, dealer: Dealer) -> list[Event]:
    holder = state.army_holder
    best = holder
    for p in state.players:
        need = MIN_ARMY if best == NO_ONE else state.players[best].knights + 1
        if p.knights >= need:
            best = p.seat
    if best == holder:
        return []
    return [LargestArmyChanged(holder=best, knights=state.players[best].knights)]


def derive_victory(state: State, dealer: Dealer) -> list[Event]:
    """Only the seat whose turn it is can win (§1.11)."""
    if state.phase == SETUP or state.finished:
        return []
    seat = state.current
    if not state.rules.hooks.wins(state, seat):
        return []
    return [GameFinished(winner=seat, scores=scores(state), reason="victory", seed=dealer.seed_hex())]


def evolve_longest(state: State, e: LongestRoadChanged) -> None:
    state.longest_holder = NO_ONE if e.holder is None else e.holder
    state.longest_length = e.length


def evolve_army(state: State, e: LargestArmyChanged) -> None:
    state.army_holder = NO_ONE if e.holder is None else e.holder


def install(rules: Rules) -> None:
    rules.set_hook(hk.WIN_TARGET, base_win_target)
    rules.derive((RoadBuilt, SettlementBuilt, PieceRemoved), derive_longest_road)
    rules.derive((KnightPlayed,), derive_largest_army)
    rules.evolve_with(LongestRoadChanged, evolve_longest)
    rules.evolve_with(LargestArmyChanged, evolve_army)


def install_victory(rules: Rules) -> None:
    """Registered last, after every module's derivers, so awards settle before the check."""
    rules.derive(
        (RoadBuilt, SettlementBuilt, CityBuilt, KnightPlayed, DevelopmentCardBought,
         LongestRoadChanged, LargestArmyChanged, PieceRemoved, *sorted(rules.registry.vp_events, key=str)),
        derive_victory,
    )
