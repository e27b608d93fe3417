"""The camel vote (docs/rules/caravans.md §8.4, §8.5): opened at the end of a turn with a build,
bids in seat order from the builder (public, paid to the bank at once), then every voter names
a placement, sealed, and the last naming reveals them all and places the camel.

The vote is an `end_of_turn` step: `CamelVoteOpened` moves the phase away from MAIN, which holds
the turn; once the camel (Catan for Two: both camels) is placed the phase is MAIN again and the
handler runs `finish_turn` for the remaining steps and the passing of the turn. Longest Road and
victory are judged right after a camel, while it is still the builder's turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.caravans import (
    BidForCamel,
    CamelBidMade,
    CamelPathNamed,
    CamelPlaced,
    CamelVoteDecided,
    CamelVoteOpened,
    NameCamelPath,
    PlaceSecondCamel,
)
from events.commands import Command
from events.events import CityBuilt, Event, SettlementBuilt, TurnEnded
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine.base import scoring
from services.rules.engine.base.turn import finish_turn
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import Rejected, reject
from services.rules.engine.scenarios.caravans import camels
from services.rules.engine.scenarios.caravans.common import (
    BID,
    NAME_PATH,
    SECOND,
    ext,
    pairs,
)
from services.rules.engine.state import MAIN, NO_ONE, SETUP, Rules, State

WOOL, GRAIN = 2, 3  # resource indices (events.types.RESOURCES)
TWO_PLAYER = "catan-for-two"  # the Catan for Two module's ext name: its installed marker

# --- opening the vote -----------------------------------------------------------------------


def vote_step(state: State, seat: int, dealer: Dealer) -> list[Event]:
    """caravans.camel.trigger / caravans.camel.supply: one vote after a turn with a build,
    when a camel is left and has somewhere to go."""
    x = ext(state)
    if not x.built or x.voted == state.turn:
        return []
    options = camels.placements(state)
    if not options:
        return []
    return [CamelVoteOpened(seat=seat, options=tuple(n for pair in options for n in pair))]


def bid_order(state: State) -> list[int]:
    """Every seat once, from the builder clockwise (caravans.vote.bid_order)."""
    return [(state.current + i) % state.n for i in range(state.n)]


def next_bidder(state: State) -> int:
    votes = ext(state).votes
    return next((s for s in bid_order(state) if votes[s] < 0), NO_ONE)


def voters(state: State) -> list[int]:
    """Who names a placement: every bidder, and the active player (who decides a tie)."""
    votes = ext(state).votes
    return [s for s in range(state.n) if votes[s] > 0 or s == state.current]


def waiting(state: State) -> list[int]:
    choices = ext(state).choices
    return [s for s in voters(state) if choices[2 * s] < 0]


# --- commands -------------------------------------------------------------------------------


def bid(state: State, cmd: BidForCamel, dealer: Dealer) -> list[Event]:
    if cmd.seat != next_bidder(state):
        raise reject("caravans.vote.bid_order",
                     f"it is seat {next_bidder(state)}'s bid (each seat bids once, from the builder)")
    hand = state.players[cmd.seat].hand
    if cmd.wool < 0 or cmd.grain < 0 or cmd.wool > hand[WOOL] or cmd.grain > hand[GRAIN]:
        raise reject("caravans.vote.bid_cards", "a bid is wool and grain from your own hand")
    return [CamelBidMade(seat=cmd.seat, wool=cmd.wool, grain=cmd.grain)]


def refusal(state: State, caravan: int, edge: int) -> Rejected:
    """The most specific rule an illegal placement breaks."""
    x = ext(state)
    geo = camels.geometry(state.board)
    if not 0 <= caravan < len(x.caravans) or not 0 <= edge < state.board.n_edges:
        return reject("base.place.unknown", "no such caravan or path")
    if edge in x.camels:
        return reject("caravans.camel.one_per_path", "that path already carries a camel")
    if not x.started[caravan]:
        if edge in geo.oasis_edges:
            return reject("caravans.camel.oasis_edge",
                          "a caravan's first camel may not stand on an oasis-edge path")
        return reject("caravans.camel.start", "a new caravan starts on its arrow's start path")
    return reject("caravans.camel.extend", "a camel goes on a free path at its caravan's head")


def name_path(state: State, cmd: NameCamelPath, dealer: Dealer) -> list[Event]:
    x = ext(state)
    if cmd.seat not in waiting(state):
        raise reject("caravans.vote.sealed", "you have no placement to name in this vote")
    if (cmd.caravan, cmd.edge) not in pairs(x.options):
        raise refusal(state, cmd.caravan, cmd.edge)
    named = CamelPathNamed(seat=cmd.seat, caravan=cmd.caravan, edge=cmd.edge)
    scratch = state.copy()
    apply(scratch, named)
    if waiting(scratch):
        return [named]
    return [named, *decide_vote(scratch, dealer)]


def place_second(state: State, cmd: PlaceSecondCamel, dealer: Dealer) -> list[Event]:
    x = ext(state)
    if cmd.seat != x.second:
        raise reject("caravans.two_player.tie", f"seat {x.second} places the second camel")
    if (cmd.caravan, cmd.edge) not in camels.placements(state, exclude=x.first):
        if cmd.caravan == x.first:
            raise reject("caravans.two_player.two_camels",
                         "the second camel goes to another caravan than the first")
        raise refusal(state, cmd.caravan, cmd.edge)
    scratch = state.copy()
    return placed(scratch, cmd.seat, cmd.caravan, cmd.edge, dealer)


# --- the decision ---------------------------------------------------------------------------


def winner(votes: Sequence[int], choices: Sequence[tuple[int, int]], active: int
           ) -> tuple[str, int | None, tuple[int, int]]:
    """(rule id, deciding seat or None for a coalition, placement) per §8.5 steps 3–5."""
    total = sum(votes)
    for s, v in enumerate(votes):
        if v > total - v:
            return "caravans.vote.majority", s, choices[s]
    backing: dict[tuple[int, int], list[int]] = {}
    for s, v in enumerate(votes):
        if v > 0:
            backing.setdefault(choices[s], []).append(s)
    sums = {p: sum(votes[s] for s in seats) for p, seats in backing.items()}
    for p, seats in backing.items():
        if len(seats) >= 2 and all(sums[p] > n for q, n in sums.items() if q != p):
            return "caravans.vote.coalition", None, p
    top = max(votes)
    leaders = [s for s, v in enumerate(votes) if v == top]
    if top > 0 and len(leaders) == 1:
        return "caravans.vote.plurality", leaders[0], choices[leaders[0]]
    return "caravans.vote.plurality", active, choices[active]


def decide_vote(scratch: State, dealer: Dealer) -> list[Event]:
    """Reveal every named placement, decide, and place the camel (on `scratch`)."""
    x = ext(scratch)
    votes = [max(v, 0) for v in x.votes]
    choices = pairs(x.choices)
    rule, decider, (caravan, edge) = winner(votes, choices, scratch.current)
    second: int | None = None
    if TWO_PLAYER in scratch.rules.states.keys:
        # caravans.two_player.tie: with equal votes each places one, the active player first.
        tied = votes[0] == votes[1]
        second = scratch.next_seat(scratch.current) if tied else decider
    decided = CamelVoteDecided(votes=tuple(votes), choices=tuple(x.choices), rule=rule,
                               decider=decider, caravan=caravan, edge=edge, second=second)
    apply(scratch, decided)
    placer = scratch.current if decider is None else decider
    return [decided, *placed(scratch, placer, caravan, edge, dealer)]


def placed(scratch: State, seat: int, caravan: int, edge: int, dealer: Dealer) -> list[Event]:
    """The camel, its consequences (Longest Road, victory), then the rest of the turn."""
    merged = camels.merge_target(scratch, caravan, camels.far_end(scratch, caravan, edge))
    events: list[Event] = [CamelPlaced(seat=seat, caravan=caravan, edge=edge, merged=merged)]
    apply(scratch, events[0])
    for derive in (scoring.derive_longest_road, scoring.derive_victory):
        for e in derive(scratch, dealer):
            apply(scratch, e)
            events.append(e)
    if scratch.finished or scratch.phase != MAIN:
        return events
    return events + finish_turn(scratch, scratch.current, dealer)


def apply(state: State, e: Event) -> None:
    state.rules.registry.evolvers[type(e)](state, e)
    state.version += 1


# --- evolvers -------------------------------------------------------------------------------


def evolve_opened(state: State, e: CamelVoteOpened) -> None:
    x = ext(state)
    x.voted = state.turn
    x.options = e.options
    x.votes = [-1] * state.n
    x.choices = [-1] * (2 * state.n)
    x.first = x.second = NO_ONE
    state.phase = BID


def evolve_bid(state: State, e: CamelBidMade) -> None:
    """caravans.vote.bids_spent: the cards go to the bank whatever the outcome."""
    hand = state.players[e.seat].hand
    for r, n in ((WOOL, e.wool), (GRAIN, e.grain)):
        hand[r] -= n
        state.bank[r] += n
    x = ext(state)
    x.votes[e.seat] = e.wool + e.grain
    if next_bidder(state) == NO_ONE:
        state.phase = NAME_PATH


def evolve_named(state: State, e: CamelPathNamed) -> None:
    # A redacted copy (another seat's view) carries no placement: the seat has named one.
    x = ext(state)
    x.choices[2 * e.seat] = -2 if e.caravan is None else e.caravan
    x.choices[2 * e.seat + 1] = -2 if e.edge is None else e.edge


def evolve_decided(state: State, e: CamelVoteDecided) -> None:
    x = ext(state)
    x.choices = list(e.choices)
    x.first = e.caravan
    x.second = NO_ONE if e.second is None else e.second


def evolve_placed(state: State, e: CamelPlaced) -> None:
    camels.place(state, e.caravan, e.edge, e.merged)
    x = ext(state)
    if state.phase == SECOND:
        x.second = NO_ONE
    elif x.second != NO_ONE:
        # The second camel needs somewhere to go in another caravan (and a camel left).
        if camels.placements(state, exclude=e.caravan):
            x.first = e.caravan
            state.phase = SECOND
            return
        x.second = NO_ONE
    state.phase = MAIN


# --- prompts --------------------------------------------------------------------------------


def prompt_bid(state: State) -> list[Prompt]:
    seat = next_bidder(state)
    hand = state.players[seat].hand
    options: list[Command] = [BidForCamel(seat=seat, wool=w, grain=g)
                              for w in range(hand[WOOL] + 1) for g in range(hand[GRAIN] + 1)]
    return [Prompt(seat=seat, stage=BID, options=options, default=options[0])]


def prompt_name(state: State) -> list[Prompt]:
    """Each waiting voter sees only the legal placements, never another voter's choice."""
    out: list[Prompt] = []
    for seat in waiting(state):
        options: list[Command] = [NameCamelPath(seat=seat, caravan=c, edge=e)
                                  for c, e in pairs(ext(state).options)]
        out.append(Prompt(seat=seat, stage=NAME_PATH, options=options, default=options[0]))
    return out


def prompt_second(state: State) -> list[Prompt]:
    x = ext(state)
    options: list[Command] = [PlaceSecondCamel(seat=x.second, caravan=c, edge=e)
                              for c, e in camels.placements(state, exclude=x.first)]
    return [Prompt(seat=x.second, stage=SECOND, options=options, default=options[0])]


# --- the trigger ----------------------------------------------------------------------------


def install(rules: Rules) -> None:
    rules.add_hook(hk.END_OF_TURN, vote_step)
    rules.handle(BidForCamel, bid)
    rules.handle(NameCamelPath, name_path)
    rules.handle(PlaceSecondCamel, place_second)
    rules.allow(BID, BidForCamel)
    rules.allow(NAME_PATH, NameCamelPath)
    rules.allow(SECOND, PlaceSecondCamel)
    rules.prompt(BID, prompt_bid)
    rules.prompt(NAME_PATH, prompt_name)
    rules.prompt(SECOND, prompt_second)
    rules.evolve_with(CamelVoteOpened, evolve_opened)
    rules.evolve_with(CamelBidMade, evolve_bid)
    rules.evolve_with(CamelPathNamed, evolve_named)
    rules.evolve_with(CamelVoteDecided, evolve_decided)
    rules.evolve_with(CamelPlaced, evolve_placed)
    built_settlement = rules.registry.evolvers[SettlementBuilt]
    built_city = rules.registry.evolvers[CityBuilt]
    turn_ended = rules.registry.evolvers[TurnEnded]

    def on_settlement(state: State, e: SettlementBuilt) -> None:
        if state.phase != SETUP and e.seat == state.current:
            ext(state).built = True
        built_settlement(state, e)

    def on_city(state: State, e: CityBuilt) -> None:
        if state.phase != SETUP and e.seat == state.current:
            ext(state).built = True
        built_city(state, e)

    def on_turn_ended(state: State, e: TurnEnded) -> None:
        ext(state).built = False
        turn_ended(state, e)

    rules.evolve_with(SettlementBuilt, on_settlement, wraps=True)
    rules.evolve_with(CityBuilt, on_city, wraps=True)
    rules.evolve_with(TurnEnded, on_turn_ended, wraps=True)
