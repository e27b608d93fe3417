"""Spending fish (docs/rules/fishermen.md §6.4): five actions, each paid with tokens whose fish
reach its price, no change given; the tokens go face up to the spent pile. The robber action
may also come before the roll; the others come after it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from events.commands import Command
from events.events import Event, RoadBuilt
from events.fishermen import (
    FishAction,
    FishBuildRoad,
    FishDevelopmentCardTaken,
    FishRemoveRobber,
    FishResourceTaken,
    FishSpent,
    FishSteal,
    FishTakeDevelopmentCard,
    FishTakeResource,
    RobberLeftBoard,
)
from events.types import RESOURCES
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import take_from_bank
from services.rules.engine.base.devcards import take_dev_card
from services.rules.engine.base.roads import legal_road_edges
from services.rules.engine.base.scoring import derive_victory
from services.rules.engine.base.sites import check_road, pieces_left
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.fishermen.common import FISH_DISCOUNT, PRICES, fish
from services.rules.engine.scenarios.fishermen.tokens import give_up, held_tokens
from services.rules.engine.state import MAIN, NO_ONE, ROLL, Rules, State

FISH_COMMANDS: tuple[type[Command], ...] = (
    FishRemoveRobber, FishSteal, FishTakeResource, FishBuildRoad, FishTakeDevelopmentCard,
)


def price(state: State, seat: int, action: FishAction) -> int:
    """The action's price, less the pair rule's discount where there is one (`FISH_DISCOUNT`:
    with Catan for Two, §6.8)."""
    discount = state.rules.capability(FISH_DISCOUNT)
    return PRICES[action] - (discount(state, seat) if discount is not None else 0)


def pay(state: State, seat: int, tokens: Sequence[int], action: FishAction) -> FishSpent:
    """The payment for `action`, or Rejected: the spender's own turn, tokens held, enough fish."""
    if seat != state.current or (state.phase != MAIN and not (
            action == "robber" and state.phase == ROLL)):
        raise reject("fishermen.spend.own_turn", "fish are spent on your own turn, after the roll")
    if not tokens or not held_tokens(fish(state).hands[seat], tokens):
        raise reject("fishermen.spend.tokens_held", "pay with fish tokens you hold")
    cost = price(state, seat, action)
    if sum(tokens) < cost:
        raise reject("fishermen.spend.no_change", f"this action costs {cost} fish, not {sum(tokens)}")
    return FishSpent(seat=seat, tokens=tuple(sorted(tokens)), action=action)


def remove_robber(state: State, cmd: FishRemoveRobber, dealer: Dealer) -> list[Event]:
    spent = pay(state, cmd.seat, cmd.tokens, "robber")
    if state.robber == NO_ONE:
        raise reject("fishermen.spend.robber", "the robber is not on the board")
    return [spent, RobberLeftBoard(seat=cmd.seat, reason="fish")]


def steal(state: State, cmd: FishSteal, dealer: Dealer) -> list[Event]:
    spent = pay(state, cmd.seat, cmd.tokens, "steal")
    if cmd.victim == cmd.seat or not 0 <= cmd.victim < state.n or not state.players[cmd.victim].cards:
        raise reject("fishermen.spend.steal", "steal from another player who holds cards")
    return [spent, *state.rules.hooks.steal(state, cmd.seat, cmd.victim, dealer)]


def take_resource(state: State, cmd: FishTakeResource, dealer: Dealer) -> list[Event]:
    spent = pay(state, cmd.seat, cmd.tokens, "bank")
    r = state.rules.vocab.resource_index.get(cmd.resource)
    if r is None or state.bank[r] <= 0:
        raise reject("fishermen.spend.bank", f"the bank has no {cmd.resource}")
    return [spent, FishResourceTaken(seat=cmd.seat, resource=cmd.resource)]


def build_road(state: State, cmd: FishBuildRoad, dealer: Dealer) -> list[Event]:
    spent = pay(state, cmd.seat, cmd.tokens, "road")
    if pieces_left(state, cmd.seat, "road") <= 0:
        raise reject("fishermen.spend.road", "you have no road left to build")
    check_road(state, cmd.seat, cmd.edge)
    return [spent, RoadBuilt(seat=cmd.seat, edge=cmd.edge, free=True)]


def take_card(state: State, cmd: FishTakeDevelopmentCard, dealer: Dealer) -> list[Event]:
    spent = pay(state, cmd.seat, cmd.tokens, "devcard")
    if not any(state.deck):
        raise reject("fishermen.spend.devcard", "the development deck is empty")
    card = dealer.pick(f"devcard:{state.dev_draws}", state.rules.vocab.dev_cards, state.deck)
    return [spent, FishDevelopmentCardTaken(seat=cmd.seat, card=card, n=state.dev_draws)]


# --- options --------------------------------------------------------------------------------


def payments(hand: list[int], cost: int) -> tuple[tuple[int, ...], ...]:
    """The ways to pay `cost` from a hand with no token to spare: every token counts (taking
    any one away falls short). Overpaying is legal, but these are all a seat needs."""
    return _payments(hand[1], hand[2], hand[3], cost)


@lru_cache(maxsize=4096)
def _payments(ones: int, twos: int, threes: int, cost: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for a in range(ones + 1):
        for b in range(twos + 1):
            for c in range(threes + 1):
                total = a + 2 * b + 3 * c
                smallest = 1 if a else 2 if b else 3
                if total >= cost and total - smallest < cost:
                    out.append((1,) * a + (2,) * b + (3,) * c)
    return tuple(out)


def options(state: State, seat: int, phase: str) -> list[Command]:
    if seat != state.current or phase not in (MAIN, ROLL):
        return []
    hand = fish(state).hands[seat]
    if hand[1] + 2 * hand[2] + 3 * hand[3] < 1:
        return []
    out: list[Command] = []

    def ways(action: FishAction) -> tuple[tuple[int, ...], ...]:
        return payments(hand, price(state, seat, action))

    if state.robber != NO_ONE:
        out += [FishRemoveRobber(seat=seat, tokens=t) for t in ways("robber")]
    if phase != MAIN:
        return out
    victims = [s for s in range(state.n) if s != seat and state.players[s].cards]
    for t in ways("steal"):
        out += [FishSteal(seat=seat, victim=v, tokens=t) for v in victims]
    bank = state.bank
    for t in ways("bank"):
        out += [FishTakeResource(seat=seat, resource=r, tokens=t)
                for i, r in enumerate(RESOURCES) if bank[i] > 0]
    road_ways = ways("road")
    if road_ways and pieces_left(state, seat, "road") > 0:
        edges = legal_road_edges(state, seat)
        for t in road_ways:
            out += [FishBuildRoad(seat=seat, edge=e, tokens=t) for e in edges]
    if any(state.deck):
        out += [FishTakeDevelopmentCard(seat=seat, tokens=t) for t in ways("devcard")]
    return out


def own_turn_refusal(state: State, command: Command) -> str | None:
    """A fish action at the wrong moment breaks the fish rule, not a phase rule of the base."""
    return "fishermen.spend.own_turn" if type(command) in FISH_COMMANDS else None


# --- evolvers -------------------------------------------------------------------------------


def evolve_spent(state: State, e: FishSpent) -> None:
    give_up(state, e.seat, e.tokens)


def evolve_resource(state: State, e: FishResourceTaken) -> None:
    vec = [0] * len(state.bank)
    vec[state.rules.vocab.resource_index[e.resource]] = 1
    take_from_bank(state, e.seat, vec)


def evolve_card(state: State, e: FishDevelopmentCardTaken) -> None:
    take_dev_card(state, e.seat, e.card)


def redact_card(e: FishDevelopmentCardTaken, seat: int | None) -> Event:
    if seat == e.seat:
        return e
    return FishDevelopmentCardTaken(seat=e.seat, card=None, n=e.n)


def install(rules: Rules) -> None:
    rules.handle(FishRemoveRobber, remove_robber)
    rules.handle(FishSteal, steal)
    rules.handle(FishTakeResource, take_resource)
    rules.handle(FishBuildRoad, build_road)
    rules.handle(FishTakeDevelopmentCard, take_card)
    rules.allow(MAIN, *FISH_COMMANDS)
    rules.allow(ROLL, FishRemoveRobber)
    rules.add_hook(hk.EXTRA_OPTIONS, options)
    rules.add_hook(hk.PHASE_REFUSAL, own_turn_refusal, first=True)
    rules.evolve_with(FishSpent, evolve_spent)
    rules.evolve_with(FishResourceTaken, evolve_resource)
    rules.evolve_with(FishDevelopmentCardTaken, evolve_card)
    rules.redact(FishDevelopmentCardTaken, redact_card)
    # A Victory Point card taken with fish may win at once.
    rules.derive((FishDevelopmentCardTaken,), derive_victory)
