"""Development cards on oil (§12.4): Year of Plenty may take oil, and a Monopoly naming oil takes
single tokens round from the next seat until the taker reaches the limit. The base cards'
commands cannot name oil (their wire type is the base five), so these are commands of their
own, checked by the base's card rules (one card per turn, not the turn it was bought)."""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.oil_springs import (
    OilMonopolyPlayed,
    OilPlentyPlayed,
    PlayMonopolyOil,
    PlayYearOfPlentyOil,
)
from events.types import RESOURCES
from services.rules.engine.base.common import take_from_bank
from services.rules.engine.base.devcards import MONOPOLY, YEAR_OF_PLENTY, playable, require_playable
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.oil_springs.common import oil_state, room
from services.rules.engine.state import MAIN, Rules, State

PLENTY = 2  # cards Year of Plenty brings


def year_of_plenty(state: State, cmd: PlayYearOfPlentyOil, dealer: Dealer) -> list[Event]:
    require_playable(state, cmd.seat, YEAR_OF_PLENTY)
    ext = oil_state(state)
    others = PLENTY - cmd.oil
    if cmd.oil not in (1, 2) or (others == 1) != (cmd.resource is not None):
        raise reject("oil_springs.oil.year_of_plenty",
                     "Year of Plenty brings 2 cards: 2 oil, or 1 oil and 1 resource")
    if cmd.resource is not None and cmd.resource not in RESOURCES:
        raise reject("base.command.invalid", f"{cmd.resource} is not a resource")
    if state.bank[ext.oil] < cmd.oil or (
            cmd.resource is not None and state.bank[state.rules.vocab.resource_index[cmd.resource]] < 1):
        raise reject("base.dev.bank_short", "the bank does not have those cards")
    oil = min(cmd.oil, room(state, cmd.seat))  # oil beyond the limit is not taken
    resources = {cmd.resource: 1} if cmd.resource is not None else {}
    return [OilPlentyPlayed(seat=cmd.seat, oil=oil, resources=resources)]


def monopoly(state: State, cmd: PlayMonopolyOil, dealer: Dealer) -> list[Event]:
    require_playable(state, cmd.seat, MONOPOLY)
    ext = oil_state(state)
    space = room(state, cmd.seat)
    held = [p.hand[ext.oil] for p in state.players[: state.n]]
    taken = [0] * state.n
    order = [(cmd.seat + i) % state.n for i in range(1, state.n)]
    while space > 0 and any(held[s] > taken[s] for s in order):
        for s in order:
            if space > 0 and held[s] > taken[s]:
                taken[s] += 1
                space -= 1
    return [OilMonopolyPlayed(seat=cmd.seat, taken=tuple(taken))]


def played(state: State, seat: int, card: int) -> None:
    state.players[seat].dev[card] -= 1
    state.dev_played = True


def evolve_plenty(state: State, e: OilPlentyPlayed) -> None:
    played(state, e.seat, YEAR_OF_PLENTY)
    ext = oil_state(state)
    state.players[e.seat].hand[ext.oil] += e.oil
    state.bank[ext.oil] -= e.oil
    take_from_bank(state, e.seat, state.rules.vocab.vector(e.resources))


def evolve_monopoly(state: State, e: OilMonopolyPlayed) -> None:
    played(state, e.seat, MONOPOLY)
    ext = oil_state(state)
    for s, n in enumerate(e.taken):
        state.players[s].hand[ext.oil] -= n
        state.players[e.seat].hand[ext.oil] += n


def options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN or seat != state.current:
        return []
    out: list[Command] = []
    ext = oil_state(state)
    space = room(state, seat)
    if playable(state, seat, YEAR_OF_PLENTY) and space > 0 and state.bank[ext.oil] > 0:
        if space >= 2 and state.bank[ext.oil] >= 2:
            out.append(PlayYearOfPlentyOil(seat=seat, oil=2))
        index = state.rules.vocab.resource_index
        out.extend(PlayYearOfPlentyOil(seat=seat, oil=1, resource=r) for r in RESOURCES
                   if state.bank[index[r]] > 0)
    if playable(state, seat, MONOPOLY) and space > 0:
        out.append(PlayMonopolyOil(seat=seat))
    return out


def install(rules: Rules) -> None:
    rules.handle(PlayYearOfPlentyOil, year_of_plenty)
    rules.handle(PlayMonopolyOil, monopoly)
    rules.allow(MAIN, PlayYearOfPlentyOil, PlayMonopolyOil)
    rules.extra_options.append(options)
    rules.evolve_with(OilPlentyPlayed, evolve_plenty)
    rules.evolve_with(OilMonopolyPlayed, evolve_monopoly)
