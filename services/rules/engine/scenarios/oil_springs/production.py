"""Producing oil (§12.3) and the dead hexes of pollution (§12.7).

Springs produce nothing through the base (their terrain yields no base resource); a number's
oil is paid out here, token by token in rounds from the roller, and recorded in `OilProduced`.
A destroyed hex's production is taken back out of the base's answer."""

from __future__ import annotations

from events.events import Event
from events.oil_springs import OilProduced
from services.rules.engine import hook_keys as hk
from services.rules.engine.chance import Dealer
from services.rules.engine.scenarios.oil_springs.common import HAND_LIMIT, oil_state, springs
from services.rules.engine.state import Rules, State


def oil_owed(state: State, total: int) -> list[int]:
    """Oil each seat is owed for `total`: 1/2/3 per settlement/city/metropolis on an
    unrobbed spring with that number (`vertex_level` is 3 under a metropolis)."""
    board = state.board
    owed = [0] * state.n
    for h in springs(state):
        if h == state.robber or total not in board.hex_numbers[h]:
            continue
        for v in board.topo.hex_vertices[h]:
            o = state.vertex_owner[v]
            if 0 <= o < state.n:
                owed[o] += state.vertex_level[v]
    return owed


def round_robin(state: State, roller: int, owed: list[int]) -> list[int]:
    """Pay `owed` one token at a time: the roller first, then the next seats in order, again
    and again, passing over the fully paid and those at the limit, while the supply lasts."""
    ext = oil_state(state)
    supply = state.bank[ext.oil]
    room = [max(0, HAND_LIMIT - state.players[s].hand[ext.oil]) for s in range(state.n)]
    due = [min(o, r) for o, r in zip(owed, room, strict=True)]
    paid = [0] * state.n
    order = [(roller + i) % state.n for i in range(state.n)]
    while supply > 0 and any(paid[s] < due[s] for s in order):
        for s in order:
            if supply > 0 and paid[s] < due[s]:
                paid[s] += 1
                supply -= 1
    return paid


def produce_oil(state: State, roller: int, total: int) -> list[Event]:
    owed = oil_owed(state, total)
    if not any(owed):
        return []
    paid = round_robin(state, roller, owed)
    return [OilProduced(gains=tuple(paid))] if any(paid) else []


def evolve_produced(state: State, e: OilProduced) -> None:
    oil = oil_state(state).oil
    for seat, n in enumerate(e.gains):
        state.players[seat].hand[oil] += n
        state.bank[oil] -= n


def install(rules: Rules) -> None:
    previous_number = rules.hook(hk.RESOLVE_NUMBER)
    previous_production = rules.hook(hk.PRODUCTION)

    def resolve_number(state: State, seat: int, total: int, dealer: Dealer) -> list[Event]:
        events = previous_number(state, seat, total, dealer)
        if total != 7:
            events = events + produce_oil(state, seat, total)
        return events

    def production(state: State, total: int) -> list[list[int]]:
        gains = previous_production(state, total)
        board = state.board
        for h in oil_state(state).destroyed:
            r = board.hex_resource[h]
            if h == state.robber or r < 0 or total not in board.hex_numbers[h]:
                continue
            for v in board.topo.hex_vertices[h]:
                o = state.vertex_owner[v]
                if 0 <= o < state.n:
                    gains[o][r] = max(0, gains[o][r] - state.vertex_level[v])
        return gains

    rules.set_hook(hk.RESOLVE_NUMBER, resolve_number, wraps=True)
    rules.set_hook(hk.PRODUCTION, production, wraps=True)
    rules.evolve_with(OilProduced, evolve_produced)
