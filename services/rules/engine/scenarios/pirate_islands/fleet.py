"""The pirate fleet (docs/rules/pirate-islands.md §11.7): every roll moves it clockwise along its
loop by the smaller die, then it attacks each seat with a building on a corner of its hex, the
roller first. Fleet strength (the smaller die) against the seat's warships: stronger, the seat
loses 1 card plus 1 per city (random, to the bank: chance keys fleetloss:n); weaker, the seat
names 1 resource from the bank (phase REWARD: the attacks after it wait for the choice, so
they happen in order); equal, nothing. Production, or the 7, follows the last attack."""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.pirate_islands import (
    ChooseFleetReward,
    FleetAttacked,
    FleetLooted,
    FleetMoved,
    FleetRemoved,
    FleetResult,
    FleetRewardDue,
    FleetRewardTaken,
)
from events.prompts import Prompt
from events.types import RESOURCES
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.turn import after_number
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.pirate_islands.common import (
    REWARD,
    apply,
    pirate,
    places,
    seats_from,
)
from services.rules.engine.scenarios.pirate_islands.state import FleetReward
from services.rules.engine.state import Rules, State


def attacked_seats(state: State, roller: int, hex_id: int) -> list[int]:
    """Seats with a building on a corner of the fleet's hex, the roller first."""
    owner = state.vertex_owner
    there = {owner[v] for v in state.board.topo.hex_vertices[hex_id]}
    return [s for s in seats_from(state, roller) if s in there]


def fleet_roll(state: State, seat: int, d1: int, d2: int, dealer: Dealer) -> list[Event]:
    """The fleet's part of a roll: move, attacks, then the number (production or the 7)."""
    ps = pirate(state)
    if ps.fleet < 0:
        return state.rules.hooks.resolve_number(state, seat, d1 + d2, dealer)
    steps = min(d1, d2)
    loop = places(state.board).loop
    index = (ps.fleet + steps) % len(loop)
    moved: list[Event] = [FleetMoved(seat=seat, steps=steps, index=index, hex=loop[index])]
    targets = attacked_seats(state, seat, loop[index])
    if not targets:  # the move changes nothing the number reads
        return moved + state.rules.hooks.resolve_number(state, seat, d1 + d2, dealer)
    scratch = state.copy()
    apply(scratch, moved)
    return moved + attacks(scratch, seat, targets, steps, d1 + d2, dealer)


def attacks(
    state: State, roller: int, targets: list[int], strength: int, total: int, dealer: Dealer
) -> list[Event]:
    """The attacks on `targets` in order (on a scratch state), then the rolled number."""
    out: list[Event] = []
    ps = pirate(state)
    for i, seat in enumerate(targets):
        warships = ps.warships[seat]
        result: FleetResult
        if strength > warships:
            result = "loss"
        elif strength < warships:
            result = "reward"
        else:
            result = "tie"
        step: list[Event] = [FleetAttacked(seat=seat, strength=strength, warships=warships,
                                           result=result)]
        if result == "loss":
            step.extend(loot(state, seat, dealer))
        elif result == "reward" and any(state.bank[:len(RESOURCES)]):
            step.append(FleetRewardDue(seat=seat, remaining=tuple(targets[i + 1:]),
                                       strength=strength, total=total))
            apply(state, step)
            return out + step
        apply(state, step)
        out.extend(step)
    return out + state.rules.hooks.resolve_number(state, roller, total, dealer)


def loot(state: State, seat: int, dealer: Dealer) -> list[Event]:
    """1 card plus 1 per city, drawn one at a time weighted by the hand (all if fewer)."""
    p = state.players[seat]
    due = min(1 + len(p.cities), p.cards)
    if due == 0:
        return []
    ps = pirate(state)
    hand = p.hand[:]
    names = state.rules.vocab.resources
    taken = [0] * len(hand)
    for k in range(due):
        r = names.index(dealer.pick(f"fleetloss:{ps.looted + k}", names, hand))
        hand[r] -= 1
        taken[r] += 1
    return [FleetLooted(seat=seat, count=due, n=ps.looted,
                        resources=state.rules.vocab.wire_bundle(taken))]


def choose_reward(state: State, cmd: ChooseFleetReward, dealer: Dealer) -> list[Event]:
    ps = pirate(state)
    reward = ps.reward
    if reward is None or reward.seat != cmd.seat:
        raise reject("base.turn.not_your_turn", "no fleet reward is due to you")
    r = state.rules.vocab.resource_index[cmd.resource]
    if state.bank[r] <= 0:
        raise reject("base.trade.bank_short", f"the bank has no {cmd.resource}")
    scratch = state.copy()
    taken: list[Event] = [FleetRewardTaken(seat=reward.seat, resource=cmd.resource)]
    apply(scratch, taken)
    return taken + attacks(scratch, state.current, list(reward.remaining), reward.strength,
                           reward.total, dealer)


def prompt_reward(state: State) -> list[Prompt]:
    reward = pirate(state).reward
    assert reward is not None
    seat = reward.seat
    options: list[Command] = [
        ChooseFleetReward(seat=seat, resource=name)
        for name, left in zip(RESOURCES, state.bank, strict=False) if left > 0
    ]
    return [Prompt(seat=seat, stage=REWARD, options=options, default=options[0])]


# --- evolvers -------------------------------------------------------------------------------


def evolve_moved(state: State, e: FleetMoved) -> None:
    pirate(state).fleet = e.index


def evolve_attacked(state: State, e: FleetAttacked) -> None:
    """Nothing changes by the attack itself (its outcome follows in its own events)."""


def evolve_looted(state: State, e: FleetLooted) -> None:
    ps = pirate(state)
    ps.looted += e.count
    if e.resources is None:
        return
    hand = state.players[e.seat].hand
    for name, n in e.resources.items():
        r = state.rules.vocab.resource_index[name]
        hand[r] -= n
        state.bank[r] += n


def evolve_reward_due(state: State, e: FleetRewardDue) -> None:
    pirate(state).reward = FleetReward(seat=e.seat, remaining=e.remaining, strength=e.strength,
                                       total=e.total)
    state.phase = REWARD


def evolve_reward_taken(state: State, e: FleetRewardTaken) -> None:
    ps = pirate(state)
    total = ps.reward.total if ps.reward is not None else 0
    ps.reward = None
    r = state.rules.vocab.resource_index[e.resource]
    state.players[e.seat].hand[r] += 1
    state.bank[r] -= 1
    after_number(state, total)  # back to where the roll was heading (main phase, or the 7)


def evolve_removed(state: State, e: FleetRemoved) -> None:
    pirate(state).fleet = -1


def install(rules: Rules) -> None:
    rules.set_hook(hk.RESOLVE_DICE, fleet_roll)
    rules.handle(ChooseFleetReward, choose_reward)
    rules.allow(REWARD, ChooseFleetReward)
    rules.prompt(REWARD, prompt_reward)
    rules.evolve_with(FleetMoved, evolve_moved)
    rules.evolve_with(FleetAttacked, evolve_attacked)
    rules.evolve_with(FleetLooted, evolve_looted)
    rules.evolve_with(FleetRewardDue, evolve_reward_due)
    rules.evolve_with(FleetRewardTaken, evolve_reward_taken)
    rules.evolve_with(FleetRemoved, evolve_removed)
