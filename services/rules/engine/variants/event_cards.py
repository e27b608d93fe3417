"""Catan Event Cards (docs/rules/event-cards.md §3): a deck of 36 number cards is drawn instead of rolling.

The active seat's `RollDice` still starts the turn (the `roll` hook is replaced, so bots and
prompts need no change): it reveals the top card (`EventCardDrawn`), resolves the card's
event, then produces for its number (catan.com FAQ). New Year rebuilds the deck and the next
card is drawn in the same command: that card is the turn's roll. `draw_and_resolve` is that
whole step as one function, so a module that draws twice a turn (Catan for Two) can call it
twice; `rules.hooks.roll_resolved` fires exactly once per card, when its event, its stage (if the
event asks for choices) and its 7's robber are done — the point to draw a second card. The
events and their choice stages are in event_cards_stages.py; the deck data and the public
state in event_cards_deck.py (+ event_cards.toml).

How the deck stays secret and still reproducible
------------------------------------------------
Physically: shuffle the 36, lay 5 face down, New Year on them, 31 on top. The order is known to
nobody, so the state — which must hold no secret — holds no order at all. Instead each draw is
its own chance point: the card at position k of deck c is `dealer.pick("eventdeck:<c>:<k>",
kinds, copies not yet revealed from deck c)`. Drawing the top card of a well-shuffled deck is,
position by position, exactly a uniform choice among the cards not yet drawn (Fisher–Yates run
from the top), so this *is* the shuffled deck, dealt lazily:

* New Year is position 31 of every deck: after 31 revealed cards the next draw is New Year, the
  deck is rebuilt from all 36 and position 0 of deck c+1 is drawn. The 5 cards under New Year
  are, by construction, the 5 cards not revealed in that cycle; they are never drawn.
* No order exists before a card is revealed, so none can leak into `view`, an event or the
  state; the only deck facts in the state are public (which cards lie face up this cycle).
* Reproducible: with the game's `SeededDealer` the card at (c, k) is HMAC(seed, key) mapped onto
  the cards left, which every observer knows — so it is a function of the seed, the same whoever
  draws (duplicate tournaments), re-derivable by `hexlog audit` once `GameFinished` reveals the
  seed. `GameCreated.seed_sha256` already commits to every card; no per-deck commitment needed.
* Every dealer works: a `ScriptedDealer` scripts cards by kind "eventdeck" (`t.script("eventdeck",
  (6, "epidemic"))`), and a search bot's `SamplingDealer` samples the true distribution of the
  next card. A whole-deck `shuffled(dealer, "eventdeck:<c>", cards)` re-derived at every draw
  would need a dealer that answers a key the same way twice — true only of the seeded one.

Other notes: Epidemic wraps `production` (cities yield 1) through a flag set only on decide's
scratch copy; a damaged road blocks new roads (`road_blocked`) and settlement sites reached only
through it (`settlement_blocked`) until `RepairRoad`. Params: `new_year=false` plays the card's
house variant, all 36 cards before each rebuild.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from events.commands import Command
from events.event_cards import (
    AssistanceGiven,
    EventCardDrawn,
    EventChoiceMade,
    NeighborsGifted,
    RepairRoad,
    RoadRepaired,
)
from events.events import Event, GameCreated
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import can_afford, pay, require_afford, require_current
from services.rules.engine.base.turn import after_number
from services.rules.engine.capabilities import DAMAGED_ROADS, DICE_DECK
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import register, reject
from services.rules.engine.ruleset import Module
from services.rules.engine.state import CITY, MAIN, NO_ONE, Rules, State
from services.rules.engine.variants import event_cards_stages as stage_rules
from services.rules.engine.variants.event_cards_advice import ADVICE
from services.rules.engine.variants.event_cards_deck import (
    DECK,
    EVENTS,
    emit,
    ext,
    new_deck,
    new_event_state,
)
from services.rules.engine.variants.event_cards_narration import NARRATION
from services.rules.engine.variants.event_cards_stages import ASSIST, EARTHQUAKE, GIFT, GRANT, TAKE
from services.rules.engine.variants.event_cards_state import EventState

register({
    "event_cards.deck": "The event deck: 36 number cards, 2..12 as 1,2,3,4,5,6,5,4,3,2,1, New Year laid on the bottom five.",
    "event_cards.draw": "Instead of rolling, the active player reveals the top event card; New Year rebuilds the deck from all 36 and the next card is the roll.",
    "event_cards.order": "The card's event is resolved first, then production for its number.",
    "event_cards.robber_attacks": "Robber Attacks is a rolled 7: discards, the robber moves, a card is stolen.",
    "event_cards.epidemic": "Epidemic: in this production every city yields only 1 resource.",
    "event_cards.earthquake": "Earthquake: each player with an intact road and none damaged damages one road of their choice.",
    "event_cards.good_neighbors": "Good Neighbors: every player with cards gives the player on their left 1 card of their choice, all at once.",
    "event_cards.tournament": "Tournament: the player(s) with the most knights (at least 1) take 1 resource of choice.",
    "event_cards.trade_advantage": "Trade Advantage: the Longest Road holder (else the single player with most roads) takes 1 random card from a player of their choice.",
    "event_cards.calm_sea": "Calm Sea: the player(s) at the most harbors (at least 1) take 1 resource of choice.",
    "event_cards.robber_flees": "Robber Flees: the robber returns to the desert; nobody is robbed.",
    "event_cards.neighborly_assistance": "Neighborly Assistance: each player with the most VP gives 1 card of choice to a player with fewer VP, in seat order from the active player.",
    "event_cards.conflict": "Conflict: the Largest Army holder (else the single player with most knights) takes 1 random card from a player of their choice.",
    "event_cards.plentiful_year": "Plentiful Year: every player takes 1 resource of choice from the bank.",
    "event_cards.bank_shortage": "Resources several players take at once follow the bank shortage rule of production.",
    "event_cards.choice.not_asked": "Only the seats an event asks may answer it, each once and in turn where the event says so.",
    "event_cards.choice.not_held": "A player can only give a card they hold.",
    "event_cards.choice.bank_empty": "A player can only take a resource the bank still has.",
    "event_cards.choice.resource": "An event's choice names one of the five resources: a module's resource (Oil Springs' oil) is no part of the event deck.",
    "event_cards.assist.recipient": "Neighborly Assistance gives to a player with fewer VP.",
    "event_cards.take.victim": "The card is taken from another player who holds cards.",
    "event_cards.earthquake.not_your_road": "The Earthquake damages one of your own roads.",
    "event_cards.earthquake.road_damaged": "A player with a damaged road builds no new road until it is repaired.",
    "event_cards.earthquake.settlement_site": "No settlement where your only road is your damaged road.",
    "event_cards.repair.nothing": "Only a damaged road can be repaired.",
    "event_cards.repair.cost": "Repairing a damaged road costs 1 lumber and 1 brick.",
})


class EventCardsParams(msgspec.Struct, forbid_unknown_fields=True):
    new_year: bool = True  # False: the card's house variant, all 36 cards before a rebuild


# --- drawing ----------------------------------------------------------------------------------


def draw(state: State, seat: int, dealer: Dealer) -> list[Event]:
    """The cards revealed for one draw: New Year (if the deck is spent), then a number card."""
    x = ext(state)
    out: list[Event] = []
    cycle, index, drawn = x.cycle, x.index, x.drawn
    if index >= x.per_cycle:
        if x.per_cycle < DECK.size:
            out.append(EventCardDrawn(seat=seat, number=0, event="new_year", cycle=cycle, index=index))
        cycle, index, drawn = cycle + 1, 0, [0] * len(DECK.kinds)
    left = [c - d for c, d in zip(DECK.copies, drawn, strict=True)]
    number, event = dealer.pick(f"eventdeck:{cycle}:{index}", DECK.kinds, left)
    out.append(EventCardDrawn(seat=seat, number=number, event=event, cycle=cycle, index=index))
    return out


def draw_and_resolve(state: State, seat: int, dealer: Dealer) -> list[Event]:
    """Draw one card and resolve it: its event, then (unless the event waits for choices)
    production for its number. Pure like `decide`: works on a copy of `state`."""
    scratch = state.copy()
    out: list[Event] = []
    emit(scratch, out, draw(scratch, seat, dealer))
    emit(scratch, out, stage_rules.open_event(scratch))
    if not ext(scratch).waiting:
        emit(scratch, out, stage_rules.produce_card(scratch, dealer))
    return out


def evolve_drawn(state: State, e: EventCardDrawn) -> None:
    x = ext(state)
    if e.cycle != x.cycle:
        new_deck(x, e.cycle)  # a rebuilt deck (house variant: no New Year card in between)
    if e.event == "new_year":
        new_deck(x, e.cycle + 1)
        return
    k = DECK.kind(e.number, e.event)
    x.drawn[k] += 1
    x.index += 1
    x.card = k
    state.rolled = True
    state.last_roll = e.number
    # An event that may ask for choices is always followed by `EventChoiceRequired`, which
    # moves the turn on (at once when nobody is asked, else when the stage closes).
    if e.event not in stage_rules.STAGE:
        after_number(state, e.number)


class Deck:
    """`DiceDeck`: what this variant offers the others (engine/capabilities.py): the deck
    drawn instead of the dice, and the event of the card being resolved."""

    def draw(self, state: State, seat: int, dealer: Dealer) -> list[Event]:
        return draw_and_resolve(state, seat, dealer)

    def resolving(self, state: State) -> str:
        card = ext(state).card
        return DECK.kinds[card][1] if card != NO_ONE else ""


class Earthquake:
    """`DamagedRoads`: the roads the Earthquake damaged (until repaired)."""

    def damaged(self, state: State, edge: int) -> bool:
        return edge != NO_ONE and edge in ext(state).damaged


# --- hooks: Epidemic, damaged roads -------------------------------------------------------------


def wrap_production(
    previous: Callable[[State, int], list[list[int]]],
) -> Callable[[State, int], list[list[int]]]:
    def production(state: State, total: int) -> list[list[int]]:
        gains = previous(state, total)
        if not ext(state).epidemic:
            return gains
        board = state.board
        owner, level = state.vertex_owner, state.vertex_level
        for h in board.number_hexes.get(total, ()):
            r = board.hex_resource[h]
            if h == state.robber or r < 0:
                continue
            for v in board.topo.hex_vertices[h]:
                o = owner[v]
                if 0 <= o < len(gains) and level[v] == CITY and gains[o][r] > 0:
                    gains[o][r] -= 1  # a city yields like a settlement
        return gains

    return production


def damaged_road(state: State, seat: int) -> int:
    damaged = ext(state).damaged
    return damaged[seat] if 0 <= seat < len(damaged) else NO_ONE


def road_blocked(state: State, seat: int, edge: int) -> str | None:
    if damaged_road(state, seat) != NO_ONE:
        return "event_cards.earthquake.road_damaged"
    return None


def settlement_blocked(state: State, seat: int, vertex: int) -> str | None:
    """A site reached only through the damaged road (catan.com FAQ): no other road of the seat
    touches it."""
    d = damaged_road(state, seat)
    topo = state.board.topo
    if d == NO_ONE or vertex not in topo.edge_vertices[d]:
        return None
    if any(f != d and state.edge_owner[f] == seat for f in topo.vertex_edges[vertex]):
        return None
    return "event_cards.earthquake.settlement_site"


def repair_road(state: State, cmd: RepairRoad, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    edge = damaged_road(state, cmd.seat)
    if edge == NO_ONE:
        raise reject("event_cards.repair.nothing", "you have no damaged road")
    require_afford(state, cmd.seat, "road_repair", "event_cards.repair.cost")
    return [RoadRepaired(seat=cmd.seat, edge=edge)]


def evolve_repaired(state: State, e: RoadRepaired) -> None:
    pay(state, e.seat, state.rules.cache.costs["road_repair"])
    ext(state).damaged[e.seat] = NO_ONE


def repair_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN or damaged_road(state, seat) == NO_ONE:
        return []
    if not can_afford(state.players[seat].hand, state.rules.cache.costs["road_repair"]):
        return []
    return [RepairRoad(seat=seat)]


# --- visibility ---------------------------------------------------------------------------------


def view_ext(state: State, seat: int | None) -> dict[str, object]:
    """Public: the cards face up this cycle, the last card, damaged roads, who must choose;
    a seat's own pending choice. (There is no deck order to hide: none exists.)"""
    x = ext(state)
    last = DECK.kinds[x.card] if x.card != NO_ONE else None
    out: dict[str, object] = {
        "cycle": x.cycle,
        "revealed": [[n, ev, c] for (n, ev), c in zip(DECK.kinds, x.drawn, strict=True) if c],
        "until_new_year": x.per_cycle - x.index,
        "last_card": {"number": last[0], "event": last[1]} if last else None,
        "damaged_roads": [None if d == NO_ONE else d for d in x.damaged],
        "event": x.event or None,
        "waiting": [s for s in x.waiting if s not in x.choices],
    }
    if seat is not None and seat in x.choices:
        out["my_choice"] = x.choices[seat]
    return out


def redact_choice(e: EventChoiceMade, seat: int | None) -> Event:
    return e if seat == e.seat else msgspec.structs.replace(e, resource=None, edge=None)


def redact_gifts(e: NeighborsGifted, seat: int | None) -> Event:
    resources = tuple(
        r if seat in (g, t) else None
        for g, t, r in zip(e.givers, e.receivers, e.resources, strict=True)
    )
    return msgspec.structs.replace(e, resources=resources)


def redact_assistance(e: AssistanceGiven, seat: int | None) -> Event:
    return e if seat in (e.giver, e.receiver) else msgspec.structs.replace(e, resource=None)


# --- the module ---------------------------------------------------------------------------------


class EventCards(Module[State, EventCardsParams]):
    name = "event-cards"
    title = "Event Cards"
    description = "Draw event cards instead of rolling: 36 number cards with events, New Year reshuffles (docs/rules/event-cards.md §3)."
    Params = EventCardsParams
    advice = ADVICE
    narration = NARRATION
    stages = {
        EARTHQUAKE: "Earthquake: which of the seat's own roads is damaged (all seats at once)",
        GIFT: "Good Neighbors: the card the seat gives the player on its left (all at once)",
        GRANT: "Tournament, Calm Sea, Plentiful Year: the resource the seat takes from the "
               "bank (all at once)",
        ASSIST: "Neighborly Assistance: the card a leader gives, and to which poorer seat "
                "(one leader at a time)",
        TAKE: "Trade Advantage, Conflict: whom the seat takes a random card from",
    }
    conflicts = {
        "pirate-islands": "Pirate Islands moves its fleet by the smaller of two dice, and event "
        "cards carry no dice values (docs/rules/event-cards.md §3 DECISION)",
    }

    def install(self, rules: Rules, params: EventCardsParams) -> None:
        per_cycle = DECK.size - DECK.under_new_year if params.new_year else DECK.size

        def init(state: State, created: GameCreated) -> EventState:
            return new_event_state(per_cycle, created.seats)

        rules.module_state(EVENTS, init, view=view_ext)
        rules.set_hook(hk.ROLL, draw_and_resolve)  # replaces the dice: no die is rolled in this variant
        rules.provide(DICE_DECK, Deck())
        rules.provide(DAMAGED_ROADS, Earthquake())
        rules.wrap_hook(hk.PRODUCTION, wrap_production)
        rules.add_hook(hk.ROAD_BLOCKED, road_blocked)
        rules.add_hook(hk.SETTLEMENT_BLOCKED, settlement_blocked)
        rules.cost("road_repair", (1, 1, 0, 0, 0))
        rules.handle(RepairRoad, repair_road)
        rules.allow(MAIN, RepairRoad)
        rules.add_hook(hk.EXTRA_OPTIONS, repair_options)
        rules.evolve_with(EventCardDrawn, evolve_drawn)
        rules.evolve_with(RoadRepaired, evolve_repaired)
        rules.redact(EventChoiceMade, redact_choice)
        rules.redact(NeighborsGifted, redact_gifts)
        rules.redact(AssistanceGiven, redact_assistance)
        stage_rules.install(rules)


MODULE = EventCards()
