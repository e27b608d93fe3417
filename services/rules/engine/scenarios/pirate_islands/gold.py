"""Gold fields (docs/rules/pirate-islands.md §11.6): for each unit due (1 per settlement, 2 per
city) the owner takes one resource of their choice from the bank. The choice follows the
roll's normal production; seats choose in turn from the roller (phase GOLD), each from what
the bank still has (Decision (hexlog): as much as it has, when it cannot pay everything)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from events.commands import Command
from events.events import Event
from events.pirate_islands import ChooseGold, GoldDue, GoldTaken
from events.prompts import Prompt
from events.types import RESOURCES
from services.rules.engine import hook_keys as hk
from services.rules.engine import hooks
from services.rules.engine.base.common import take_from_bank, vector
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.pirate_islands.common import GOLD, pirate, seats_from
from services.rules.engine.state import Rules, State

GOLD_TERRAIN = "gold"


def gold_due(state: State, total: int) -> list[int]:
    board = state.board
    owner = state.vertex_owner
    level = state.vertex_level
    due = [0] * state.n
    for h in board.number_hexes.get(total, ()):
        if board.hex_terrain[h] != GOLD_TERRAIN:
            continue
        for v in board.topo.hex_vertices[h]:
            if 0 <= owner[v] < state.n:
                due[owner[v]] += level[v]
    return due


def wrap_resolve_number(prev: hooks.ResolveNumber[State]) -> hooks.ResolveNumber[State]:
    def resolve_number(state: State, seat: int, total: int, dealer: Dealer) -> list[Event]:
        events = prev(state, seat, total, dealer)
        if total != 7:
            due = gold_due(state, total)
            if any(due):
                events.append(GoldDue(counts=tuple(due)))
        return events

    return resolve_number


def chooser(state: State) -> int:
    due = pirate(state).gold
    return next(s for s in seats_from(state, state.current) if due[s])


def can_take(state: State, seat: int) -> int:
    """How many resources the seat takes now: what is due, or what the bank has."""
    return min(pirate(state).gold[seat], sum(state.bank[:len(RESOURCES)]))


def choose_gold(state: State, cmd: ChooseGold, dealer: Dealer) -> list[Event]:
    if not any(pirate(state).gold) or chooser(state) != cmd.seat:
        raise reject("base.turn.not_your_turn", "no gold is due to you now")
    vec = vector(state, cmd.resources)
    n = can_take(state, cmd.seat)
    if sum(vec) != n:
        raise reject("pirate_islands.production.gold", f"take exactly {n} resources")
    if any(v > b for v, b in zip(vec, state.bank, strict=True)):
        raise reject("base.trade.bank_short", "the bank does not have those cards")
    return [GoldTaken(seat=cmd.seat, resources=state.rules.vocab.wire_bundle(vec))]


def prompt_gold(state: State) -> list[Prompt]:
    seat = chooser(state)
    n = can_take(state, seat)
    options: list[Command] = []
    for combo in combinations_with_replacement(range(len(RESOURCES)), n):
        vec = [0] * len(state.bank)
        for r in combo:
            vec[r] += 1
        if all(v <= b for v, b in zip(vec, state.bank, strict=True)):
            options.append(ChooseGold(seat=seat, resources=state.rules.vocab.wire_bundle(vec)))
    return [Prompt(seat=seat, stage=GOLD, options=options, default=options[0])]


def evolve_due(state: State, e: GoldDue) -> None:
    pirate(state).gold = list(e.counts)
    state.phase = GOLD


def evolve_taken(state: State, e: GoldTaken) -> None:
    ps = pirate(state)
    take_from_bank(state, e.seat, state.rules.vocab.vector(e.resources))
    ps.gold[e.seat] = 0
    if not any(ps.gold):
        state.rules.hooks.roll_resolved(state)


def install(rules: Rules) -> None:
    rules.vocab.add_terrain(GOLD_TERRAIN)
    rules.wrap_hook(hk.RESOLVE_NUMBER, wrap_resolve_number)
    rules.handle(ChooseGold, choose_gold)
    rules.allow(GOLD, ChooseGold)
    rules.prompt(GOLD, prompt_gold)
    rules.evolve_with(GoldDue, evolve_due)
    rules.evolve_with(GoldTaken, evolve_taken)


