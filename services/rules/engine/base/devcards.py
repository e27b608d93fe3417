"""Development cards (docs/rules/base.md §1.8): buying (a secret draw), the one-card-per-turn and
not-on-the-turn-bought rules, Knight, Road Building, Year of Plenty, Monopoly; VP cards are
never played (they count in `total_vp`)."""

from __future__ import annotations

from typing import Final

from events.commands import (
    BuyDevelopmentCard,
    Command,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
)
from events.events import (
    DevelopmentCardBought,
    Event,
    KnightPlayed,
    MonopolyPlayed,
    RoadBuildingPlayed,
    YearOfPlentyPlayed,
)
from events.types import DEV_INDEX
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.building import pieces_left
from services.rules.engine.base.common import (
    can_afford,
    holds_any,
    pay,
    require_afford,
    require_current,
    take_from_bank,
)
from services.rules.engine.base.option_commands import (
    YEAR_OF_PLENTY_PAIRS,
    buy_development_card,
    knight_command,
    monopolies,
    road_building_command,
    years_of_plenty,
)
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import MAIN, ROAD_BUILDING, ROBBER, ROLL, Rules, State

KNIGHT: Final = DEV_INDEX["knight"]
ROAD_BUILDING_CARD: Final = DEV_INDEX["road_building"]
YEAR_OF_PLENTY: Final = DEV_INDEX["year_of_plenty"]
MONOPOLY: Final = DEV_INDEX["monopoly"]


def buy(state: State, cmd: BuyDevelopmentCard, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if not holds_any(state.deck):
        raise reject("base.dev.empty_deck", "the development deck is empty")
    require_afford(state, cmd.seat, "development_card", "base.dev.cost")
    card = dealer.pick(f"devcard:{state.dev_draws}", state.rules.vocab.dev_cards, state.deck)
    return [DevelopmentCardBought(seat=cmd.seat, card=card, n=state.dev_draws)]


def playable(state: State, seat: int, card: int) -> bool:
    p = state.players[seat]
    return not state.dev_played and p.dev[card] - p.dev_new[card] > 0


def require_playable(state: State, seat: int, card: int) -> None:
    require_current(state, seat)
    p = state.players[seat]
    name = state.rules.vocab.dev_cards[card].replace("_", " ")
    if p.dev[card] == 0:
        raise reject("base.dev.not_held", f"you hold no {name} card")
    if state.dev_played:
        raise reject("base.dev.one_per_turn", "you already played a development card this turn")
    if p.dev[card] - p.dev_new[card] <= 0:
        raise reject("base.dev.bought_this_turn", f"your {name} card was bought this turn")


def play_knight(state: State, cmd: PlayKnight, dealer: Dealer) -> list[Event]:
    require_playable(state, cmd.seat, KNIGHT)
    return [KnightPlayed(seat=cmd.seat)]


def play_road_building(state: State, cmd: PlayRoadBuilding, dealer: Dealer) -> list[Event]:
    require_playable(state, cmd.seat, ROAD_BUILDING_CARD)
    roads = min(2, pieces_left(state, cmd.seat, "road"))
    return [RoadBuildingPlayed(seat=cmd.seat, roads=roads)]


def play_year_of_plenty(state: State, cmd: PlayYearOfPlenty, dealer: Dealer) -> list[Event]:
    require_playable(state, cmd.seat, YEAR_OF_PLENTY)
    want = [0] * len(state.bank)
    index = state.rules.vocab.resource_index  # names known: vocab_check.py
    for name in cmd.resources:
        want[index[name]] += 1
    if any(w > b for w, b in zip(want, state.bank, strict=True)):
        raise reject("base.dev.bank_short", "the bank does not have those cards")
    return [YearOfPlentyPlayed(seat=cmd.seat, resources=state.rules.vocab.wire_bundle(want))]


def play_monopoly(state: State, cmd: PlayMonopoly, dealer: Dealer) -> list[Event]:
    require_playable(state, cmd.seat, MONOPOLY)
    r = state.rules.vocab.resource_index[cmd.resource]
    taken = tuple(0 if p.seat == cmd.seat else p.hand[r] for p in state.players[: state.n])
    return [MonopolyPlayed(seat=cmd.seat, resource=cmd.resource, taken=taken)]


def options(state: State, seat: int, phase: str) -> list[Command]:
    """Development card commands open to `seat` in `phase` (ROLL: only the Knight)."""
    out: list[Command] = []
    p = state.players[seat]
    if phase == MAIN and can_afford(p.hand, state.rules.cache.card_cost) and holds_any(state.deck):
        out.append(buy_development_card(seat))
    if state.dev_played:
        return out
    # `playable` for each card, inlined: a card held that was not bought this turn.
    held, new = p.dev, p.dev_new
    if held[KNIGHT] > new[KNIGHT]:
        out.append(knight_command(seat))
    if phase != MAIN:
        return out
    if held[ROAD_BUILDING_CARD] > new[ROAD_BUILDING_CARD] and pieces_left(state, seat, "road") > 0:
        out.append(road_building_command(seat))
    if held[YEAR_OF_PLENTY] > new[YEAR_OF_PLENTY]:
        bank = state.bank
        choices = years_of_plenty(seat)
        for i, (a, b) in enumerate(YEAR_OF_PLENTY_PAIRS):
            if bank[a] > (a == b) and bank[b] > 0:
                out.append(choices[i])
    if held[MONOPOLY] > new[MONOPOLY]:
        out.extend(monopolies(seat))
    return out


# --- evolvers -------------------------------------------------------------------------------


def take_dev_card(state: State, seat: int, card: str | None) -> None:
    """A seat takes a development card from the deck: one more draw; the card (None where the
    view hides it) leaves the deck for the seat's new cards. Scenarios that hand out cards
    their own way (bought otherwise, won) fold it the same."""
    state.dev_draws += 1
    if card is not None:
        c = state.rules.vocab.dev_index[card]
        state.deck[c] -= 1
        p = state.players[seat]
        p.dev[c] += 1
        p.dev_new[c] += 1


def evolve_bought(state: State, e: DevelopmentCardBought) -> None:
    pay(state, e.seat, state.rules.cache.costs["development_card"])
    take_dev_card(state, e.seat, e.card)


def _played(state: State, seat: int, card: int) -> None:
    state.players[seat].dev[card] -= 1
    state.dev_played = True


def evolve_knight(state: State, e: KnightPlayed) -> None:
    _played(state, e.seat, KNIGHT)
    state.players[e.seat].knights += 1
    state.phase = ROBBER
    state.robber_from = "knight"


def evolve_road_building(state: State, e: RoadBuildingPlayed) -> None:
    _played(state, e.seat, ROAD_BUILDING_CARD)
    if e.roads > 0:
        state.free_roads = e.roads
        state.phase = ROAD_BUILDING


def evolve_year_of_plenty(state: State, e: YearOfPlentyPlayed) -> None:
    _played(state, e.seat, YEAR_OF_PLENTY)
    take_from_bank(state, e.seat, state.rules.vocab.vector(e.resources))


def evolve_monopoly(state: State, e: MonopolyPlayed) -> None:
    _played(state, e.seat, MONOPOLY)
    r = state.rules.vocab.resource_index[e.resource]
    me = state.players[e.seat]
    for seat, n in enumerate(e.taken):
        if n:
            state.players[seat].hand[r] -= n
            me.hand[r] += n


def install(rules: Rules) -> None:
    rules.handle(BuyDevelopmentCard, buy)
    rules.handle(PlayKnight, play_knight)
    rules.handle(PlayRoadBuilding, play_road_building)
    rules.handle(PlayYearOfPlenty, play_year_of_plenty)
    rules.handle(PlayMonopoly, play_monopoly)
    rules.allow(ROLL, PlayKnight)
    rules.allow(MAIN, BuyDevelopmentCard, PlayKnight, PlayRoadBuilding, PlayYearOfPlenty, PlayMonopoly)
    rules.add_hook(hk.EXTRA_OPTIONS, options)
    rules.evolve_with(DevelopmentCardBought, evolve_bought)
    rules.evolve_with(KnightPlayed, evolve_knight)
    rules.evolve_with(RoadBuildingPlayed, evolve_road_building)
    rules.evolve_with(YearOfPlentyPlayed, evolve_year_of_plenty)
    rules.evolve_with(MonopolyPlayed, evolve_monopoly)
