"""Catan Event Cards: what each event does (docs/rules/event-cards.md §3.3 and its DECISIONS), with the choice
stages some events open, and the production that follows once the event is resolved.

An event either acts at once (Robber Flees; Epidemic and Robber Attacks act through the
production step) or names the seats that must choose (`EventChoiceRequired`), and the table
waits in a stage of its own until they have:

  stage (phase)              events                                  who, how
  event_cards.earthquake     Earthquake                              simultaneous: DamageRoad
  event_cards.gift           Good Neighbors                          simultaneous: GiveToNeighbor
  event_cards.grant          Tournament, Calm Sea, Plentiful Year    simultaneous: TakeResource
  event_cards.assist         Neighborly Assistance                   one leader at a time: AssistPlayer
  event_cards.take           Trade Advantage, Conflict               one seat: TakeCardFrom

Simultaneous answers are recorded privately (`EventChoiceMade`) and applied together when the
last one arrives, so nobody receives before everyone has chosen. The command that completes a
stage also carries the production of the card's number ("first the event is resolved, then the
production is distributed", catan.com FAQ).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from events.commands import Command
from events.event_cards import (
    AssistanceGiven,
    AssistPlayer,
    DamageRoad,
    EventChoiceMade,
    EventChoiceRequired,
    EventName,
    EventResourcesGranted,
    GiveToNeighbor,
    NeighborsGifted,
    RoadsDamaged,
    RobberFled,
    TakeCardFrom,
    TakeResource,
    VictimChosen,
)
from events.events import Event
from events.prompts import Prompt
from events.types import RESOURCE_INDEX, RESOURCES, vector_to_bundle
from services.rules.engine.base.common import take_from_bank
from services.rules.engine.base.scoring import public_vp
from services.rules.engine.base.turn import apply_shortage, robber_refuges
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import NO_ONE, Rules, State
from services.rules.engine.variants.event_cards_deck import DECK, close_stage, emit, ext

EARTHQUAKE = "event_cards.earthquake"
GIFT = "event_cards.gift"
GRANT = "event_cards.grant"
ASSIST = "event_cards.assist"
TAKE = "event_cards.take"
STAGE: dict[str, str] = {
    "earthquake": EARTHQUAKE,
    "good_neighbors": GIFT,
    "tournament": GRANT,
    "calm_sea": GRANT,
    "plentiful_year": GRANT,
    "neighborly_assistance": ASSIST,
    "trade_advantage": TAKE,
    "conflict": TAKE,
}

# --- who is asked -----------------------------------------------------------------------------


def most(values: list[int]) -> list[int]:
    """The seats with the maximum value; nobody if that maximum is 0 (DECISION §3.3)."""
    best = max(values)
    return [s for s, v in enumerate(values) if v == best] if best > 0 else []


def harbors(state: State, seat: int) -> int:
    """Distinct harbors at which the seat has a settlement or city (DECISION §3.3)."""
    owner = state.vertex_owner
    return sum(1 for a, b in state.board.harbor_vertices if seat in (owner[a], owner[b]))


def taker(state: State, event: str) -> int:
    """Trade Advantage: the Longest Road holder, else the single player with most roads;
    Conflict: the Largest Army holder, else the single player with most knights."""
    players = state.players
    if event == "trade_advantage":
        holder, counts = state.longest_holder, [len(p.roads) for p in players[: state.n]]
    else:
        holder, counts = state.army_holder, [p.knights for p in players[: state.n]]
    if holder == NO_ONE:
        leaders = most(counts)
        holder = leaders[0] if len(leaders) == 1 else NO_ONE
    return holder if 0 <= holder < state.n else NO_ONE


def holds_resources(state: State, seat: int) -> bool:
    """Whether the seat holds a resource card it could give (a module's tokens, such as Oil
    Springs' oil, are not cards these events move)."""
    hand = state.players[seat].hand
    return any(hand[r] for r in range(len(RESOURCES)))


def assist_givers(state: State) -> list[int]:
    """Leaders by public VP, in seat order from the active player, who hold resource cards."""
    vps = [public_vp(state, s) for s in range(state.n)]
    if len(set(vps)) == 1:
        return []
    top = max(vps)
    order = [(state.current + i) % state.n for i in range(state.n)]
    return [s for s in order if vps[s] == top and holds_resources(state, s)]


def asked(state: State, event: str) -> list[int]:
    players = state.players
    n = state.n
    if event == "earthquake":
        damaged = ext(state).damaged
        return [s for s in range(n) if players[s].roads and damaged[s] == NO_ONE]
    if event == "good_neighbors":
        return [s for s in range(n) if holds_resources(state, s)]
    if event in ("tournament", "calm_sea", "plentiful_year"):
        if not any(state.bank):
            return []
        if event == "tournament":
            return most([p.knights for p in players[:n]])
        if event == "calm_sea":
            return most([harbors(state, s) for s in range(n)])
        return list(range(n))
    if event == "neighborly_assistance":
        return assist_givers(state)
    if event in ("trade_advantage", "conflict"):
        seat = taker(state, event)
        if seat != NO_ONE and victims(state, seat):
            return [seat]
    return []


def open_event(state: State) -> list[Event]:
    """The events that resolve the card just drawn, or the stage that asks for choices."""
    event = DECK.kinds[ext(state).card][1]
    if event == "robber_flees":
        refuges = robber_refuges(state)  # the desert, or the module's place (§13.3)
        # A robber off the board (none in this ruleset, or not yet in play) stays off.
        if refuges and state.robber != NO_ONE and state.robber not in refuges:
            return [RobberFled(hex=refuges[0])]
        return []
    if event not in STAGE:
        return []
    # Always recorded, even when nobody is asked: it is what moves the turn on.
    return [EventChoiceRequired(event=event, seats=tuple(asked(state, event)))]


def produce_card(state: State, dealer: Dealer) -> list[Event]:
    """Production (or the 7) for the number of the card being resolved."""
    x = ext(state)
    number, event = DECK.kinds[x.card]
    x.epidemic = event == "epidemic"  # read by the wrapped `production` hook
    try:
        return list(state.rules.hooks.resolve_number(state, state.current, number, dealer))
    finally:
        x.epidemic = False


# --- choosing -------------------------------------------------------------------------------


def require_asked(state: State, seat: int, first: bool = False) -> None:
    x = ext(state)
    ok = seat == x.waiting[0] if first else seat in x.waiting and seat not in x.choices
    if not ok:
        raise reject("event_cards.choice.not_asked", f"{x.event} does not ask seat {seat} now")


def base_resource(resource: str) -> int:
    """The index of one of the five resources; an event's choice names no other (a module's
    resource, Oil Springs' oil, is no part of the event deck)."""
    r = RESOURCE_INDEX.get(resource)
    if r is None:
        raise reject("event_cards.choice.resource",
                     f"an event's choice names one of the five resources, not {resource}")
    return r


def require_held(state: State, seat: int, resource: str) -> int:
    r = base_resource(resource)
    if state.players[seat].hand[r] == 0:
        raise reject("event_cards.choice.not_held", f"you hold no {resource}")
    return r


def event_name(state: State) -> EventName:
    return cast(EventName, ext(state).event)


def victims(state: State, seat: int) -> list[int]:
    return [s for s in range(state.n) if s != seat and state.players[s].cards]


def recipients(state: State, seat: int) -> list[int]:
    mine = public_vp(state, seat)
    return [s for s in range(state.n) if public_vp(state, s) < mine]


def finish(state: State, out: list[Event], resolution: list[Event], dealer: Dealer) -> list[Event]:
    """Resolve the stage on the scratch copy, then produce for the card's number."""
    emit(state, out, resolution)
    if not ext(state).waiting:
        emit(state, out, produce_card(state, dealer))
    return out


def simultaneous(state: State, made: EventChoiceMade, dealer: Dealer) -> list[Event]:
    scratch = state.copy()
    out: list[Event] = []
    emit(scratch, out, [made])
    x = ext(scratch)
    if len(x.choices) < len(x.waiting):
        return out
    return finish(scratch, out, [RESOLVE[x.event](scratch)], dealer)


def damage_road(state: State, cmd: DamageRoad, dealer: Dealer) -> list[Event]:
    require_asked(state, cmd.seat)
    if cmd.edge not in state.players[cmd.seat].roads:
        raise reject("event_cards.earthquake.not_your_road", f"edge {cmd.edge} is not your road")
    return simultaneous(state, EventChoiceMade(seat=cmd.seat, event="earthquake", edge=cmd.edge), dealer)


def give_to_neighbor(state: State, cmd: GiveToNeighbor, dealer: Dealer) -> list[Event]:
    require_asked(state, cmd.seat)
    require_held(state, cmd.seat, cmd.resource)
    made = EventChoiceMade(seat=cmd.seat, event="good_neighbors", resource=cmd.resource)
    return simultaneous(state, made, dealer)


def take_resource(state: State, cmd: TakeResource, dealer: Dealer) -> list[Event]:
    require_asked(state, cmd.seat)
    if state.bank[base_resource(cmd.resource)] == 0:
        raise reject("event_cards.choice.bank_empty", f"the bank has no {cmd.resource}")
    made = EventChoiceMade(seat=cmd.seat, event=event_name(state), resource=cmd.resource)
    return simultaneous(state, made, dealer)


def assist(state: State, cmd: AssistPlayer, dealer: Dealer) -> list[Event]:
    require_asked(state, cmd.seat, first=True)
    require_held(state, cmd.seat, cmd.resource)
    if cmd.to not in recipients(state, cmd.seat):
        raise reject("event_cards.assist.recipient", f"seat {cmd.to} does not have fewer VP")
    scratch = state.copy()
    given = AssistanceGiven(giver=cmd.seat, receiver=cmd.to, resource=cmd.resource)
    return finish(scratch, [], [given], dealer)


def take_card(state: State, cmd: TakeCardFrom, dealer: Dealer) -> list[Event]:
    require_asked(state, cmd.seat, first=True)
    if cmd.victim not in victims(state, cmd.seat):
        raise reject("event_cards.take.victim", f"seat {cmd.victim} has no card you may take")
    scratch = state.copy()
    out: list[Event] = []
    emit(scratch, out, [VictimChosen(seat=cmd.seat, victim=cmd.victim, event=event_name(state))])
    # A blind draw from the victim's hand (DECISION §3.3), the same chance point as the robber's.
    return finish(scratch, out, scratch.rules.hooks.steal(scratch, cmd.seat, cmd.victim, dealer), dealer)


# --- resolving a simultaneous stage (on the scratch copy, all choices in) -----------------------


def resolve_earthquake(state: State) -> Event:
    x = ext(state)
    return RoadsDamaged(edges=tuple(x.choices.get(s, NO_ONE) for s in range(state.n)))


def resolve_gifts(state: State) -> Event:
    x = ext(state)
    givers = tuple(x.waiting)
    return NeighborsGifted(
        givers=givers,
        receivers=tuple(state.next_seat(s) for s in givers),
        resources=tuple(RESOURCES[x.choices[s]] for s in givers),
    )


def resolve_grants(state: State) -> Event:
    x = ext(state)
    gains = [[0] * len(state.bank) for _ in range(state.n)]
    for s, r in x.choices.items():
        gains[s][r] += 1
    # Several seats granted at once: the bank shortage rule of production (§0.3 DECISION).
    gains, short = apply_shortage(state, gains)
    return EventResourcesGranted(
        event=event_name(state),
        gains=tuple(vector_to_bundle(g) for g in gains),
        short=tuple(RESOURCES[r] for r in short),
    )


RESOLVE: dict[str, Callable[[State], Event]] = {
    "earthquake": resolve_earthquake,
    "good_neighbors": resolve_gifts,
    "tournament": resolve_grants,
    "calm_sea": resolve_grants,
    "plentiful_year": resolve_grants,
}

# --- prompts (every option enumerated; `default` is what a silent seat gets) ---------------------


def most_held(hand: list[int]) -> int:
    return max(range(5), key=lambda r: (hand[r], -r))


def quake_default(state: State, seat: int, roads: list[int]) -> int:
    """The road whose damage costs least: both ends still reached by the seat's other pieces."""
    topo = state.board.topo

    def covered(e: int) -> int:
        n = 0
        for v in topo.edge_vertices[e]:
            if state.vertex_owner[v] == seat or any(
                f != e and state.edge_owner[f] == seat for f in topo.vertex_edges[v]
            ):
                n += 1
        return n

    return max(roads, key=lambda e: (covered(e), -e))


def seat_options(state: State, seat: int) -> tuple[list[Command], Command]:
    p = state.players[seat]
    x = ext(state)
    if x.event == "earthquake":
        roads = sorted(p.roads)
        return [DamageRoad(seat=seat, edge=e) for e in roads], DamageRoad(
            seat=seat, edge=quake_default(state, seat, roads))
    if x.event == "good_neighbors":
        held = [r for r in range(5) if p.hand[r]]
        return [GiveToNeighbor(seat=seat, resource=RESOURCES[r]) for r in held], GiveToNeighbor(
            seat=seat, resource=RESOURCES[most_held(p.hand)])
    if x.event == "neighborly_assistance":
        to = recipients(state, seat)
        options: list[Command] = [
            AssistPlayer(seat=seat, resource=RESOURCES[r], to=t)
            for r in range(5) if p.hand[r] for t in to
        ]
        poorest = min(to, key=lambda t: (public_vp(state, t), (t - seat) % state.n))
        return options, AssistPlayer(seat=seat, resource=RESOURCES[most_held(p.hand)], to=poorest)
    if x.event in ("trade_advantage", "conflict"):
        vs = victims(state, seat)
        richest = max(vs, key=lambda v: (state.players[v].cards, -((v - seat) % state.n)))
        return [TakeCardFrom(seat=seat, victim=v) for v in vs], TakeCardFrom(seat=seat, victim=richest)
    available = [r for r in range(5) if state.bank[r]]
    fewest = min(available, key=lambda r: (p.hand[r], r))
    return [TakeResource(seat=seat, resource=RESOURCES[r]) for r in available], TakeResource(
        seat=seat, resource=RESOURCES[fewest])


def prompt_stage(state: State) -> list[Prompt]:
    x = ext(state)
    if state.phase in (ASSIST, TAKE):
        seats = x.waiting[:1]
    else:
        seats = [s for s in x.waiting if s not in x.choices]
    prompts = []
    for s in seats:
        options, default = seat_options(state, s)
        # The phase is the stage: this prompter is installed for the five stage phases
        # above only, which EventCards.stages declares.
        prompts.append(Prompt(seat=s, stage=state.phase, options=options, default=default))
    return prompts


# --- evolvers ---------------------------------------------------------------------------------


def evolve_required(state: State, e: EventChoiceRequired) -> None:
    if not e.seats:
        state.rules.hooks.roll_resolved(state)
        return
    x = ext(state)
    x.event = e.event
    x.waiting = list(e.seats)
    x.choices = {}
    state.phase = STAGE[e.event]


def close(state: State) -> None:
    """The stage is over: the turn goes on as after any resolved roll (usually to MAIN)."""
    close_stage(ext(state))
    state.rules.hooks.roll_resolved(state)


def evolve_choice(state: State, e: EventChoiceMade) -> None:
    value = e.edge if e.edge is not None else RESOURCE_INDEX[e.resource or "lumber"]
    ext(state).choices[e.seat] = value


def evolve_damaged(state: State, e: RoadsDamaged) -> None:
    damaged = ext(state).damaged
    for s, edge in enumerate(e.edges):
        if edge != NO_ONE:
            damaged[s] = edge
    close(state)


def evolve_gifted(state: State, e: NeighborsGifted) -> None:
    players = state.players
    for giver, receiver, resource in zip(e.givers, e.receivers, e.resources, strict=True):
        r = RESOURCE_INDEX[resource or "lumber"]
        players[giver].hand[r] -= 1
        players[receiver].hand[r] += 1
    close(state)


def evolve_granted(state: State, e: EventResourcesGranted) -> None:
    for seat, bundle in enumerate(e.gains):
        if bundle:
            take_from_bank(state, seat, [bundle.get(r, 0) for r in RESOURCES])
    close(state)


def evolve_assisted(state: State, e: AssistanceGiven) -> None:
    r = RESOURCE_INDEX[e.resource or "lumber"]
    state.players[e.giver].hand[r] -= 1
    state.players[e.receiver].hand[r] += 1
    x = ext(state)
    x.waiting.pop(0)
    if not x.waiting:
        close(state)


def evolve_victim(state: State, e: VictimChosen) -> None:
    close(state)


def evolve_fled(state: State, e: RobberFled) -> None:
    state.robber = e.hex


def install(rules: Rules) -> None:
    rules.handle(DamageRoad, damage_road)
    rules.handle(GiveToNeighbor, give_to_neighbor)
    rules.handle(TakeResource, take_resource)
    rules.handle(AssistPlayer, assist)
    rules.handle(TakeCardFrom, take_card)
    rules.allow(EARTHQUAKE, DamageRoad)
    rules.allow(GIFT, GiveToNeighbor)
    rules.allow(GRANT, TakeResource)
    rules.allow(ASSIST, AssistPlayer)
    rules.allow(TAKE, TakeCardFrom)
    for phase in (EARTHQUAKE, GIFT, GRANT, ASSIST, TAKE):
        rules.prompt(phase, prompt_stage)
    rules.evolve_with(EventChoiceRequired, evolve_required)
    rules.evolve_with(EventChoiceMade, evolve_choice)
    rules.evolve_with(RoadsDamaged, evolve_damaged)
    rules.evolve_with(NeighborsGifted, evolve_gifted)
    rules.evolve_with(EventResourcesGranted, evolve_granted)
    rules.evolve_with(AssistanceGiven, evolve_assisted)
    rules.evolve_with(VictimChosen, evolve_victim)
    rules.evolve_with(RobberFled, evolve_fled)
