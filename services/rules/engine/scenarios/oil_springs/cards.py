"""Development cards on oil (§12.4): Year of Plenty may take oil, and a Monopoly naming oil takes
single tokens round from the next seat until the taker reaches the limit.

Oil is a resource of the vocabulary, so the base cards' commands name it (`PlayYearOfPlenty`
with "oil", `PlayMonopoly(resource="oil")`) and the base's card rules apply (one card per turn,
not the turn it was bought, the bank has the cards); this module changes only what oil does:
oil beyond the limit of 4 is not taken, and Monopoly goes round."""

from __future__ import annotations

from events.commands import Command, PlayMonopoly, PlayYearOfPlenty
from events.events import Event, MonopolyPlayed, YearOfPlentyPlayed
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.devcards import MONOPOLY, YEAR_OF_PLENTY, playable, require_playable
from services.rules.engine.chance import Dealer
from services.rules.engine.registry import Handler
from services.rules.engine.scenarios.oil_springs.common import OIL, oil_state, room
from services.rules.engine.state import MAIN, Rules, State


def plenty_within_limit(previous: Handler[State]) -> Handler[State]:
    """Wrap PlayYearOfPlenty: oil beyond the limit is not taken (the card is still played)."""

    def handler(state: State, cmd: PlayYearOfPlenty, dealer: Dealer) -> list[Event]:
        events = previous(state, cmd, dealer)
        if OIL not in cmd.resources:
            return events
        out: list[Event] = []
        for e in events:
            if isinstance(e, YearOfPlentyPlayed) and e.resources.get(OIL, 0) > room(state, cmd.seat):
                kept = dict(e.resources)
                kept[OIL] = room(state, cmd.seat)
                e = YearOfPlentyPlayed(seat=e.seat, resources={k: n for k, n in kept.items() if n})
            out.append(e)
        return out

    return handler


def monopoly_round(previous: Handler[State]) -> Handler[State]:
    """Wrap PlayMonopoly: on oil, single tokens round from the next seat, up to the limit."""

    def handler(state: State, cmd: PlayMonopoly, dealer: Dealer) -> list[Event]:
        if cmd.resource != OIL:
            return previous(state, cmd, dealer)
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
        return [MonopolyPlayed(seat=cmd.seat, resource=OIL, taken=tuple(taken))]

    return handler


def options(state: State, seat: int, phase: str) -> list[Command]:
    """Year of Plenty and Monopoly naming oil (the base lists the five resources only)."""
    if phase != MAIN or seat != state.current:
        return []
    out: list[Command] = []
    ext = oil_state(state)
    space = room(state, seat)
    if playable(state, seat, YEAR_OF_PLENTY) and space > 0 and state.bank[ext.oil] > 0:
        if space >= 2 and state.bank[ext.oil] >= 2:
            out.append(PlayYearOfPlenty(seat=seat, resources=(OIL, OIL)))
        vocab = state.rules.vocab
        out.extend(PlayYearOfPlenty(seat=seat, resources=(OIL, r))
                   for i, r in enumerate(vocab.resources) if r != OIL and state.bank[i] > 0)
    if playable(state, seat, MONOPOLY) and space > 0:
        out.append(PlayMonopoly(seat=seat, resource=OIL))
    return out


def install(rules: Rules) -> None:
    rules.handle(PlayYearOfPlenty, plenty_within_limit(rules.registry.handlers[PlayYearOfPlenty]))
    rules.handle(PlayMonopoly, monopoly_round(rules.registry.handlers[PlayMonopoly]))
    rules.add_hook(hk.EXTRA_OPTIONS, options)
