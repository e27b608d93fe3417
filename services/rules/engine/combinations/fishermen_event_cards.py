"""The Fishermen of Catan with Event Cards (docs/rules/fishermen.md §6.8,
`fishermen.event_cards.robber_flees`): Robber Flees takes the robber off the board (there is no
desert: the lake took its place), before the card's number produces, so a lake it left yields
fish. The card being resolved is asked of Event Cards' deck (`DICE_DECK`)."""

from __future__ import annotations

from events.events import Event
from events.fishermen import RobberLeftBoard
from services.rules.engine import hook_keys as hk
from services.rules.engine import hooks
from services.rules.engine.capabilities import DICE_DECK
from services.rules.engine.chance import Dealer
from services.rules.engine.combinations import Combination
from services.rules.engine.scenarios.fishermen.robber import evolve_left
from services.rules.engine.state import NO_ONE, Rules, State

ROBBER_FLEES = "robber_flees"


def robber_flees(previous: hooks.ResolveNumber[State]) -> hooks.ResolveNumber[State]:
    """Wrap `resolve_number`: the Robber Flees card being resolved takes the robber off the
    board first."""

    def resolve(state: State, seat: int, total: int, dealer: Dealer) -> list[Event]:
        deck = state.rules.capability(DICE_DECK)
        if deck is None or state.robber == NO_ONE or deck.resolving(state) != ROBBER_FLEES:
            return previous(state, seat, total, dealer)
        fled = RobberLeftBoard(seat=None, reason="robber_flees")
        scratch = state.copy()
        evolve_left(scratch, fled)
        return [fled, *previous(scratch, seat, total, dealer)]

    return resolve


def install(rules: Rules) -> None:
    rules.wrap_hook(hk.RESOLVE_NUMBER, robber_flees)


COMBINATION = Combination(pair=("fishermen", "event-cards"), install=install,
                          description="Robber Flees takes the robber off the board")
