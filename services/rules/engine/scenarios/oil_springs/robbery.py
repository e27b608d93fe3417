"""Oil and the robber (§12.4, §12.7): the thief's choice of oil or a random resource card, oil
in a 7's discard, and the robber kept off destroyed hexes."""

from __future__ import annotations

from events.commands import Command, DiscardResources, MoveRobber
from events.events import CardStolen, Event, ResourcesDiscarded, RobberMoved
from events.oil_springs import DiscardWithOil, OilDiscarded, OilStolen, RobForOil
from events.prompts import Prompt
from services.rules.engine.base.common import require_current, vector
from services.rules.engine.base.turn import robber_refusal
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.oil_springs.common import oil_of, oil_state, room
from services.rules.engine.state import DISCARD, ROBBER, Rules, State
from services.rules.engine.vocab import BASE_WIDTH


def steal_a_card(state: State, thief: int, victim: int, dealer: Dealer) -> list[Event]:
    """The robber's random card: resources only (oil is taken by choice, `RobForOil`)."""
    hand = state.players[victim].hand[:BASE_WIDTH]
    if not any(hand):
        return []
    names = state.rules.vocab.resources[:BASE_WIDTH]
    resource = dealer.pick(f"steal:{state.steals}", names, hand)
    wire = state.rules.vocab.wire_resource(resource)
    return [CardStolen(thief=thief, victim=victim, resource=wire, n=state.steals)]


def rob_for_oil(state: State, cmd: RobForOil, dealer: Dealer) -> list[Event]:
    """The robber moves as with `MoveRobber`, and the thief takes 1 oil."""
    require_current(state, cmd.seat)
    h = cmd.hex
    if not 0 <= h < len(state.board.topo.hexes):
        raise reject("base.place.unknown", f"there is no hex {h} on this map")
    if h not in state.rules.robber_hexes(state, cmd.seat):
        if h == state.robber:
            raise reject("base.robber.same_hex", "the robber must move to another hex")
        rule_id = robber_refusal(state, cmd.seat, h, None) or "base.robber.hex"
        raise reject(rule_id, f"the robber may not go to {state.board.hex_name(h)}")
    if cmd.victim not in state.rules.robber_victims(state, cmd.seat, h):
        rule_id = robber_refusal(state, cmd.seat, h, cmd.victim) or "base.robber.victim"
        raise reject(rule_id, f"seat {cmd.victim} cannot be robbed at that hex")
    if oil_of(state, cmd.victim) == 0:
        raise reject("oil_springs.oil.steal", f"{state.names[cmd.victim]} holds no oil")
    if room(state, cmd.seat) == 0:
        raise reject("oil_springs.oil.hand_limit", "you already hold 4 oil")
    return [RobberMoved(seat=cmd.seat, hex=h, victim=cmd.victim),
            OilStolen(thief=cmd.seat, victim=cmd.victim)]


def evolve_stolen(state: State, e: OilStolen) -> None:
    oil = oil_state(state).oil
    state.players[e.victim].hand[oil] -= 1
    state.players[e.thief].hand[oil] += 1


def discard_with_oil(state: State, cmd: DiscardWithOil, dealer: Dealer) -> list[Event]:
    """A discard naming oil: oil back to the supply (the marker stays), then the resources
    as a base discard (which closes the seat's discard)."""
    due = state.discards[cmd.seat]
    if due == 0:
        raise reject("base.turn.not_your_turn", f"{state.names[cmd.seat]} has nothing to discard")
    vec = vector(state, cmd.resources)
    if cmd.oil < 0:
        raise reject("base.command.invalid", "card counts must not be negative")
    if sum(vec) + cmd.oil != due:
        raise reject("base.discard.count", f"discard exactly {due} cards, not {sum(vec) + cmd.oil}")
    hand = state.players[cmd.seat].hand
    if cmd.oil > oil_of(state, cmd.seat) or any(v > h for v, h in zip(vec, hand, strict=True)):
        raise reject("base.discard.not_held", "you cannot discard cards you do not hold")
    events: list[Event] = []
    if cmd.oil:
        events.append(OilDiscarded(seat=cmd.seat, oil=cmd.oil))
    events.append(ResourcesDiscarded(seat=cmd.seat, resources=state.rules.vocab.wire_bundle(vec)))
    return events


def evolve_discarded(state: State, e: OilDiscarded) -> None:
    oil = oil_state(state).oil
    state.players[e.seat].hand[oil] -= e.oil
    state.bank[oil] += e.oil


def default_discard(state: State, seat: int) -> DiscardResources:
    """The silent seat's discard: the most plentiful resources, keeping the oil (a hand of more
    than 7 cards with at most 4 oil always holds enough resources)."""
    hand = state.players[seat].hand[:BASE_WIDTH]
    out = [0] * BASE_WIDTH
    for _ in range(state.discards[seat]):
        r = hand.index(max(hand))
        hand[r] -= 1
        out[r] += 1
    return DiscardResources(seat=seat, resources=state.rules.vocab.wire_bundle(out))


def prompt_discard(state: State) -> list[Prompt]:
    """The base's discard prompt; `hand` shows the resources (the seat's oil is public)."""
    vocab = state.rules.vocab
    return [
        Prompt(seat=s, stage=DISCARD, options=[], default=default_discard(state, s), discard=n,
               hand=vocab.wire_bundle(state.players[s].hand[:BASE_WIDTH]))
        for s, n in enumerate(state.discards)
        if n
    ]


def oil_thefts(state: State, options: list[Command]) -> list[Command]:
    """A `RobForOil` beside each robbery of a victim holding oil, while the thief has room."""
    out: list[Command] = []
    for o in options:
        if (isinstance(o, MoveRobber) and o.victim is not None and oil_of(state, o.victim) > 0
                and room(state, o.seat) > 0):
            out.append(RobForOil(seat=o.seat, hex=o.hex, victim=o.victim))
    return out


def install(rules: Rules) -> None:
    previous_hexes = rules.robber_hexes
    previous_robber_prompt = rules.prompters[ROBBER]

    def robber_hexes(state: State, seat: int) -> list[int]:
        dead = oil_state(state).destroyed
        hexes = previous_hexes(state, seat)
        return [h for h in hexes if h not in dead] if dead else hexes

    def refusal(state: State, seat: int, h: int, victim: int | None) -> str | None:
        return "oil_springs.robber.destroyed_hex" if h in oil_state(state).destroyed else None

    def prompt_robber(state: State) -> list[Prompt]:
        prompts = previous_robber_prompt(state)
        for p in prompts:
            p.options.extend(oil_thefts(state, p.options))
        return prompts

    rules.robber_hexes = robber_hexes
    rules.robber_refusal.insert(0, refusal)
    rules.steal = steal_a_card
    rules.prompters[ROBBER] = prompt_robber
    rules.prompters[DISCARD] = prompt_discard
    rules.handle(RobForOil, rob_for_oil)
    rules.handle(DiscardWithOil, discard_with_oil)
    rules.allow(ROBBER, RobForOil)
    rules.allow(DISCARD, DiscardWithOil)
    rules.evolve_with(OilStolen, evolve_stolen)
    rules.evolve_with(OilDiscarded, evolve_discarded)
