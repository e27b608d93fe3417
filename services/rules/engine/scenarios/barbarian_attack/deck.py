"""The scenario's development deck (docs/rules/barbarian-attack.md §9.6).

A card is drawn (chance key `devcard:<n>`, weighted by the cards left) and carried out at once,
face up: Knighthood and Swift Knight put a knight down, Treason pays 2 gold and relocates two
barbarians, Intrigue takes a prisoner. The choice a card leaves (which path, which barbarian)
is the phase CARD. A knight card with no use is lost; an Intrigue with no barbarian on the
board is replaced by a free draw. Every used card is discarded at once, so when the deck runs
out the whole deck is shuffled again: the counts start over.

Decision (hexlog), Treason: each relocation takes a barbarian from a coastal hex this Treason
has not used yet, else from the supply; it goes to a coastal hex that is not conquered and not
used by this Treason (neither a source nor the first target); a relocation with no such move
is skipped.
"""

from __future__ import annotations

from events.barbarian_attack import (
    ATTACK_CARDS,
    FROM_SUPPLY,
    AttackCardDrawn,
    BarbarianCapturedByIntrigue,
    BarbarianRelocatedByTreason,
    CaptureByIntrigue,
    KnightRaised,
    RaiseKnight,
    RelocateByTreason,
)
from events.commands import BuyDevelopmentCard, Command
from events.events import Event
from services.rules.engine import pieces
from services.rules.engine.base.common import pay, require_afford, require_current
from services.rules.engine.base.scoring import derive_victory
from services.rules.engine.base.sites import pieces_left
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.barbarian_attack.common import (
    CARD,
    DECK,
    FULL,
    INTRIGUE,
    KNIGHTHOOD,
    SWIFT_KNIGHT,
    TREASON,
    TREASON_GOLD,
    attack,
    free_paths,
    geometry,
    on_board,
    refresh_harbors,
)
from services.rules.engine.state import MAIN, Rules, State


def knight_paths(state: State, seat: int, card: int) -> list[int]:
    """Where the knight of this card may go (none: the card is lost)."""
    if pieces_left(state, seat, "knight") <= 0:
        return []
    g = geometry(state.board)
    return free_paths(state, g.castle_edges if card == KNIGHTHOOD else g.land_edges)


def usable(state: State, seat: int, card: int) -> bool:
    if card in (KNIGHTHOOD, SWIFT_KNIGHT):
        return bool(knight_paths(state, seat, card))
    if card == INTRIGUE:
        return on_board(state) > 0
    return True


def draw(state: State, seat: int, dealer: Dealer, free: bool) -> list[Event]:
    """One card (and Intrigue's free replacements), from the counts left in the deck."""
    a = attack(state)
    deck = a.deck[:]
    n = a.draws
    events: list[Event] = []
    while True:
        name = dealer.pick(f"devcard:{n}", ATTACK_CARDS, deck)
        card = ATTACK_CARDS.index(name)
        lost = not usable(state, seat, card)
        events.append(AttackCardDrawn(seat=seat, card=name, n=n, free=free, lost=lost))
        deck[card] -= 1
        if not any(deck):
            deck = list(DECK)
        n += 1
        if not (card == INTRIGUE and lost):
            return events
        free = True  # barbarian_attack.dev.intrigue: replaced by a free card


def buy(state: State, cmd: BuyDevelopmentCard, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    require_afford(state, cmd.seat, "development_card", "base.dev.cost")
    return draw(state, cmd.seat, dealer, free=False)


# --- the choice a card leaves -----------------------------------------------------------------


def relocations(state: State, seat: int) -> list[RelocateByTreason]:
    a = attack(state)
    g = geometry(state.board)
    used = a.treason_used
    sources = [h for h in g.coastal if a.barbarians[h] > 0 and h not in used]
    if not sources and a.supply > 0:
        sources = [FROM_SUPPLY]
    targets = [h for h in g.coastal if a.barbarians[h] < FULL and h not in used]
    return [RelocateByTreason(seat=seat, source=s, target=t)
            for s in sources for t in targets if t != s]


def card_options(state: State, seat: int) -> list[Command]:
    card = attack(state).card
    if card in (KNIGHTHOOD, SWIFT_KNIGHT):
        return [RaiseKnight(seat=seat, edge=e) for e in knight_paths(state, seat, card)]
    if card == TREASON:
        return list(relocations(state, seat))
    if card == INTRIGUE:
        return [CaptureByIntrigue(seat=seat, hex=h) for h in geometry(state.board).coastal
                if attack(state).barbarians[h] > 0]
    return []


def place_knight(state: State, cmd: RaiseKnight, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    card = attack(state).card
    if cmd.edge not in knight_paths(state, cmd.seat, card):
        rule = "barbarian_attack.dev.knighthood" if card == KNIGHTHOOD else "barbarian_attack.dev.swift_knight"
        if card not in (KNIGHTHOOD, SWIFT_KNIGHT):
            rule = "base.turn.wrong_phase"
        raise reject(rule, f"no knight of this card may go on path {cmd.edge}")
    return [KnightRaised(seat=cmd.seat, edge=cmd.edge)]


def relocate(state: State, cmd: RelocateByTreason, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    legal = attack(state).card == TREASON and RelocateByTreason(
        seat=cmd.seat, source=cmd.source, target=cmd.target) in relocations(state, cmd.seat)
    if not legal:
        raise reject("barbarian_attack.dev.treason", "that barbarian cannot be relocated there")
    return [BarbarianRelocatedByTreason(seat=cmd.seat, source=cmd.source, target=cmd.target)]


def capture(state: State, cmd: CaptureByIntrigue, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    a = attack(state)
    if a.card != INTRIGUE or not 0 <= cmd.hex < len(a.barbarians) or a.barbarians[cmd.hex] <= 0:
        raise reject("barbarian_attack.dev.intrigue", "there is no barbarian to capture there")
    return [BarbarianCapturedByIntrigue(seat=cmd.seat, hex=cmd.hex)]


# --- evolvers ---------------------------------------------------------------------------------


def close_card(state: State) -> None:
    a = attack(state)
    a.card = -1
    a.treason_left = 0
    a.treason_used = []
    state.phase = MAIN


def evolve_drawn(state: State, e: AttackCardDrawn) -> None:
    a = attack(state)
    card = ATTACK_CARDS.index(e.card)
    if not e.free:
        pay(state, e.seat, state.rules.cache.costs["development_card"])
    a.draws += 1
    a.deck[card] -= 1
    if not any(a.deck):
        a.deck = list(DECK)  # barbarian_attack.dev.reshuffle
    if e.lost:
        return
    if card == TREASON:
        a.gold[e.seat] += TREASON_GOLD
        a.treason_left = 2
        a.treason_used = []
    a.card = card
    state.phase = CARD
    if not card_options(state, e.seat):
        close_card(state)


def evolve_knight_placed(state: State, e: KnightRaised) -> None:
    pieces.place(state, e.seat, "knight", e.edge)
    state.players[e.seat].knights += 1  # knights in play (Event Cards' Conflict, Tournament)
    close_card(state)


def evolve_relocated(state: State, e: BarbarianRelocatedByTreason) -> None:
    a = attack(state)
    if e.source == FROM_SUPPLY:
        a.supply -= 1
    else:
        a.barbarians[e.source] -= 1
        a.treason_used.append(e.source)
    a.barbarians[e.target] += 1
    a.treason_used.append(e.target)
    a.treason_left -= 1
    refresh_harbors(state)
    if a.treason_left <= 0 or not relocations(state, e.seat):
        close_card(state)


def evolve_captured(state: State, e: BarbarianCapturedByIntrigue) -> None:
    a = attack(state)
    a.barbarians[e.hex] -= 1
    a.prisoners[e.seat] += 1
    refresh_harbors(state)
    close_card(state)


def install(rules: Rules) -> None:
    rules.handle(BuyDevelopmentCard, buy)
    rules.handle(RaiseKnight, place_knight)
    rules.handle(RelocateByTreason, relocate)
    rules.handle(CaptureByIntrigue, capture)
    rules.allow(CARD, RaiseKnight, RelocateByTreason, CaptureByIntrigue)
    rules.evolve_with(AttackCardDrawn, evolve_drawn)
    rules.evolve_with(KnightRaised, evolve_knight_placed)
    rules.evolve_with(BarbarianRelocatedByTreason, evolve_relocated)
    rules.evolve_with(BarbarianCapturedByIntrigue, evolve_captured)
    # A relocation or a capture can free buildings (points) in the active seat's turn.
    rules.derive((BarbarianRelocatedByTreason, BarbarianCapturedByIntrigue), derive_victory)
