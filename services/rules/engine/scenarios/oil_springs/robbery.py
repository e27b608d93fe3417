"""Oil and the robber (§12.4, §12.7): the thief's choice of oil or a random resource card, oil
in a 7's discard, and the robber kept off destroyed hexes.

Oil is a resource of the vocabulary, so it travels in the base commands: the robber's
`MoveRobber(take="oil")` takes 1 oil by choice (`CardStolen` with `n` -1: no chance, and
public, as oil held is), and a discard names oil like any resource."""

from __future__ import annotations

from events.commands import Command, DiscardResources, MoveRobber
from events.events import CardStolen, Event, RobberMoved
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import require_current
from services.rules.engine.base.turn import robber_refusal
from services.rules.engine.chance import Dealer
from services.rules.engine.registry import Handler
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.oil_springs.common import OIL, oil_of, oil_state, room
from services.rules.engine.state import DISCARD, ROBBER, Rules, State
from services.rules.engine.vocab import BASE_WIDTH

CHOSEN = -1  # CardStolen.n of a card the thief chose: no chance point


def steal_a_card(state: State, thief: int, victim: int, dealer: Dealer) -> list[Event]:
    """The robber's random card: resources only (oil is taken by choice, `take`)."""
    hand = state.players[victim].hand[:BASE_WIDTH]
    if not any(hand):
        return []
    names = state.rules.vocab.resources[:BASE_WIDTH]
    resource = dealer.pick(f"steal:{state.steals}", names, hand)
    return [CardStolen(thief=thief, victim=victim, resource=resource, n=state.steals)]


def taking_oil(previous: Handler[State]) -> Handler[State]:
    """Wrap MoveRobber: `take="oil"` moves the robber under the base's rules for a move and
    takes 1 oil from the victim instead of a random card (a victim must be named)."""

    def handler(state: State, cmd: MoveRobber, dealer: Dealer) -> list[Event]:
        if cmd.take != OIL:
            return previous(state, cmd, dealer)
        require_current(state, cmd.seat)
        h = cmd.hex
        if not 0 <= h < len(state.board.topo.hexes):
            raise reject("base.place.unknown", f"there is no hex {h} on this map")
        if h not in state.rules.hooks.robber_hexes(state, cmd.seat):
            if h == state.robber:
                raise reject("base.robber.same_hex", "the robber must move to another hex")
            rule_id = robber_refusal(state, cmd.seat, h, None) or "base.robber.hex"
            raise reject(rule_id, f"the robber may not go to {state.board.hex_name(h)}")
        if cmd.victim is None or cmd.victim not in state.rules.hooks.robber_victims(state, cmd.seat, h):
            rule_id = robber_refusal(state, cmd.seat, h, cmd.victim) or "base.robber.victim"
            raise reject(rule_id, f"seat {cmd.victim} cannot be robbed at that hex")
        if oil_of(state, cmd.victim) == 0:
            raise reject("oil_springs.oil.steal", f"{state.names[cmd.victim]} holds no oil")
        if room(state, cmd.seat) == 0:
            raise reject("oil_springs.oil.hand_limit", "you already hold 4 oil")
        return [RobberMoved(seat=cmd.seat, hex=h, victim=cmd.victim),
                CardStolen(thief=cmd.seat, victim=cmd.victim, resource=OIL, n=CHOSEN)]

    return handler


def default_discard(state: State, seat: int) -> DiscardResources:
    """The silent seat's discard: the most plentiful resources, keeping the oil (a hand of more
    than 7 cards with at most 4 oil always holds enough resources)."""
    hand = state.players[seat].hand[:BASE_WIDTH]
    out = [0] * BASE_WIDTH
    for _ in range(state.discards[seat]):
        r = hand.index(max(hand))
        hand[r] -= 1
        out[r] += 1
    return DiscardResources(seat=seat, resources=state.rules.vocab.bundle(out))


def prompt_discard(state: State) -> list[Prompt]:
    """The base's discard prompt, its default keeping the oil; `hand` shows the oil too (a
    discard may name it, §12.4)."""
    vocab = state.rules.vocab
    return [
        Prompt(seat=s, stage=DISCARD, options=[], default=default_discard(state, s), discard=n,
               hand=vocab.bundle(state.players[s].hand))
        for s, n in enumerate(state.discards)
        if n
    ]


def oil_thefts(state: State, options: list[Command]) -> list[Command]:
    """Beside each robbery of a victim holding oil, the same move taking oil, while the thief
    has room."""
    out: list[Command] = []
    for o in options:
        if (isinstance(o, MoveRobber) and o.victim is not None and oil_of(state, o.victim) > 0
                and room(state, o.seat) > 0):
            out.append(MoveRobber(seat=o.seat, hex=o.hex, victim=o.victim, take=OIL))
    return out


def install(rules: Rules) -> None:
    previous_hexes = rules.hook(hk.ROBBER_HEXES)
    previous_robber_prompt = rules.registry.prompters[ROBBER]

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

    rules.set_hook(hk.ROBBER_HEXES, robber_hexes, wraps=True)
    rules.add_hook(hk.ROBBER_REFUSAL, refusal, first=True)
    rules.set_hook(hk.STEAL, steal_a_card)
    rules.prompt(ROBBER, prompt_robber, wraps=True)
    rules.prompt(DISCARD, prompt_discard)
    rules.handle(MoveRobber, taking_oil(rules.registry.handlers[MoveRobber]))
