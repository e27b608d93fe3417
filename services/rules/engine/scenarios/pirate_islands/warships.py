"""Warships (docs/rules/pirate-islands.md §11.8) and the development deck (§11.11).

A Knight (with 4 seats also a Victory Point card, which is a Knight in every respect: it is
worth no VP while held) turns the rear-most ordinary ship of the route into a warship, as the
turn's development card; it needs an ordinary ship. There is no robber, so the base Knight is
never played. With 3 seats the deck loses its VP cards; it is never rebuilt once empty."""

from __future__ import annotations

from events.commands import Command, PlayKnight, PlayRoadBuilding
from events.events import Event, GameCreated
from events.pirate_islands import CommissionWarship, WarshipCard, WarshipCommissioned
from events.types import DEV_INDEX
from services.rules.engine import hook_keys as hk
from services.rules.engine import hooks
from services.rules.engine.base import devcards
from services.rules.engine.base.common import require_current
from services.rules.engine.base.devcards import KNIGHT, require_playable
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.pirate_islands.common import pirate
from services.rules.engine.scenarios.pirate_islands.ships import free_pieces
from services.rules.engine.state import MAIN, ROLL, Rules, State

VP_CARD = DEV_INDEX["victory_point"]
CARDS = {"knight": KNIGHT, "victory_point": VP_CARD}


def warship_cards(state: State) -> tuple[WarshipCard, ...]:
    return ("knight", "victory_point") if state.n == 4 else ("knight",)


def commission(state: State, cmd: CommissionWarship, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if cmd.card not in warship_cards(state):
        raise reject("pirate_islands.warship.convert",
                     "with 3 players only a Knight makes a warship")
    require_playable(state, cmd.seat, CARDS[cmd.card])
    ps = pirate(state)
    if ps.warships[cmd.seat] >= len(ps.routes[cmd.seat]):
        raise reject("pirate_islands.warship.needs_ship", "every ship of yours is a warship")
    return [WarshipCommissioned(seat=cmd.seat, card=cmd.card,
                                warships=ps.warships[cmd.seat] + 1)]


def play_knight(state: State, cmd: PlayKnight, dealer: Dealer) -> list[Event]:
    raise reject("pirate_islands.warship.convert",
                 "there is no robber: a Knight makes a warship (CommissionWarship)")


def warship_options(state: State, seat: int) -> list[Command]:
    ps = pirate(state)
    if state.dev_played or ps.warships[seat] >= len(ps.routes[seat]):
        return []
    p = state.players[seat]
    return [CommissionWarship(seat=seat, card=card) for card in warship_cards(state)
            if p.dev[CARDS[card]] > p.dev_new[CARDS[card]]]


def wrap_dev_options(prev: hooks.ExtraOptions[State]) -> hooks.ExtraOptions[State]:
    """The base card options without the robber's Knight, with warships and ship-only Road
    Building."""

    def options(state: State, seat: int, phase: str) -> list[Command]:
        out = [o for o in prev(state, seat, phase) if not isinstance(o, PlayKnight)]
        if phase in (ROLL, MAIN):
            out.extend(warship_options(state, seat))
        p = state.players[seat]
        if (phase == MAIN and not state.dev_played
                and not any(isinstance(o, PlayRoadBuilding) for o in out)
                and p.dev[devcards.ROAD_BUILDING_CARD] > p.dev_new[devcards.ROAD_BUILDING_CARD]
                and free_pieces(state, seat) > 0):
            out.append(PlayRoadBuilding(seat=seat))
        return out

    return options


def evolve_commissioned(state: State, e: WarshipCommissioned) -> None:
    card = CARDS[e.card]
    state.players[e.seat].dev[card] -= 1
    state.dev_played = True
    pirate(state).warships[e.seat] = e.warships


def deck_for_seats(state: State, created: GameCreated) -> None:
    """With 3 seats the VP cards leave the deck (20 cards)."""
    if state.n == 3:
        state.deck[VP_CARD] = 0


def held_vp_cards(state: State, seat: int, public: bool) -> int:
    """With 4 seats a held VP card is a Knight: it takes back the point the base counts."""
    if public or state.n != 4:
        return 0
    return -state.players[seat].dev[VP_CARD]


def install(rules: Rules) -> None:
    rules.handle(CommissionWarship, commission)
    rules.handle(PlayKnight, play_knight)
    rules.allow(ROLL, CommissionWarship)
    rules.allow(MAIN, CommissionWarship)
    rules.replace_in_hook(hk.EXTRA_OPTIONS, devcards.options, wrap_dev_options)
    rules.add_hook(hk.VP_BONUS, held_vp_cards)
    rules.evolve_with(WarshipCommissioned, evolve_commissioned)
