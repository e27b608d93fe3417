"""Battles at the end of the turn (docs/rules/barbarian-attack.md §9.8).

An `end_of_turn` step: the coastal hexes in the fixed order; where the knights on a hex's six
paths outnumber its barbarians (at least one), the battle is won: the barbarians are shared out
as prisoners (throws `prisoners:<n>`), an involved player left without one gets 3 gold, then
the colour die (`lossdie:<n>`) removes the knights on two opposite paths (3 gold each).
Decision (hexlog): where the knights do not outnumber the barbarians nothing happens (no
fight, no die). Battles are worked out one after another on a copy, since knights lost at one
hex no longer fight at the next; the step is idempotent (a won hex has no barbarians left).

With Catan for Two (§9.12) the foreign knight fights like any knight and takes part in the
sharing as a player would, but it is never lost. Decision (hexlog): its throw is the fixed 3
the rules give it, which two dice beat but for a 2; hexlog lets it lose every throw-off. A
prisoner it takes goes back to the supply. What a lost knight pays is then the pair's rule
(`LOST_KNIGHT_PAY`: 2 gold and 1 trade token while the supply has one, instead of 3 gold).
"""

from __future__ import annotations

from itertools import combinations

from events.barbarian_attack import FOREIGN, CoastalBattleWon
from events.events import Event, GameFinished
from services.rules.engine import hook_keys as hk
from services.rules.engine import pieces
from services.rules.engine.base.scoring import scores
from services.rules.engine.chance import Dealer
from services.rules.engine.scenarios.barbarian_attack.common import (
    COMPENSATION,
    LOSS_GOLD,
    LOSS_SIDES,
    LOST_KNIGHT_PAY,
    attack,
    geometry,
    knight_owner,
    refresh_harbors,
)
from services.rules.engine.state import Rules, State

FACES = (1, 2, 3, 4, 5, 6)


class Throws:
    """The throw-offs of one battle (chance points `prisoners:<n>` from index `n`).

    Decision (hexlog): players throw two dice and equal throws are repeated, so every group of
    `places` winners among the contenders is equally likely; a throw-off is one chance point
    over those groups (the same odds, and finite for search)."""

    def __init__(self, dealer: Dealer, n: int) -> None:
        self.dealer = dealer
        self.n = n
        self.made: list[tuple[int, ...]] = []

    def best(self, contenders: list[int], places: int) -> list[int]:
        groups = list(combinations(sorted(contenders), places))
        won = self.dealer.pick(f"prisoners:{self.n + len(self.made)}", groups, (1,) * len(groups))
        self.made.append(won)
        return list(won)


def share(state: State, barbarians: int, counts: dict[int, int], throws: Throws,
          prisoners: list[int], gold: list[int]) -> None:
    """barbarian_attack.battle.prisoners / .compensation. The foreign knight (`FOREIGN`, never
    alone: one knight cannot outnumber a barbarian) loses every throw-off and is paid nothing;
    its prisoner is not in `prisoners`."""
    involved = sorted(counts)
    seats = [s for s in involved if s != FOREIGN]
    if len(involved) == 1:
        prisoners[involved[0]] += barbarians
        return
    if barbarians < len(involved):
        won = seats if barbarians >= len(seats) else throws.best(seats, barbarians)
        for s in won:
            prisoners[s] += 1
        for s in seats:
            if not prisoners[s]:
                gold[s] += COMPENSATION
        return
    for s in seats:
        prisoners[s] += 1
    for _ in range(barbarians - len(involved)):
        top = max(counts.values())
        leaders = [s for s in seats if counts[s] == top]
        winner = leaders[0] if len(leaders) == 1 else throws.best(leaders, 1)[0]
        prisoners[winner] += 1
        for s in leaders:
            if s != winner:
                gold[s] += COMPENSATION


def battle(state: State, h: int, dealer: Dealer) -> CoastalBattleWon | None:
    a = attack(state)
    barbarians = a.barbarians[h]
    if barbarians <= 0:
        return None
    sides = state.board.topo.hex_edges[h]
    owner = knight_owner(state)
    knights = [(owner[e], e) for e in sides if e in owner]
    if len(knights) <= barbarians:
        return None
    counts: dict[int, int] = {}
    for s, _ in knights:
        counts[s] = counts.get(s, 0) + 1
    prisoners = [0] * state.n
    gold = [0] * state.n
    throws = Throws(dealer, a.prisoner_throws)
    share(state, barbarians, counts, throws, prisoners, gold)
    die = dealer.pick(f"lossdie:{a.dice}", FACES, (1,) * 6)
    doomed = {sides[i] for i in LOSS_SIDES[die]}
    lost = tuple((s, e) for s, e in knights if e in doomed and s != FOREIGN)
    pay = state.rules.capability(LOST_KNIGHT_PAY)
    for s, _ in lost:
        gold[s] += pay.gold if pay is not None else LOSS_GOLD
    return CoastalBattleWon(hex=h, barbarians=barbarians, knights=tuple(knights),
                        prisoners=tuple(prisoners), gold=tuple(gold), throws=tuple(throws.made),
                        n=a.prisoner_throws, die=die, die_n=a.dice, lost=lost)


def winnable(state: State, h: int) -> bool:
    b = attack(state).barbarians[h]
    if b <= 0:
        return False
    owner = knight_owner(state)
    return sum(1 for e in state.board.topo.hex_edges[h] if e in owner) > b


def battles(state: State, seat: int, dealer: Dealer) -> list[Event]:
    """barbarian_attack.battle.order: every coastal hex in turn, on a working copy. Battles only
    take knights away, so when no hex can be won now none will be (the common case: no copy)."""
    if not any(winnable(state, h) for h in geometry(state.board).coastal):
        return []
    work = state.copy()
    events: list[Event] = []
    pay = state.rules.capability(LOST_KNIGHT_PAY)
    for h in geometry(state.board).coastal:
        fought = battle(work, h, dealer)
        if fought is not None:
            evolve_battle(work, fought)
            events.append(fought)
            for extra in pay.extra(work, fought) if pay is not None else ():
                work.rules.registry.evolvers[type(extra)](work, extra)
                events.append(extra)
    if events and work.rules.hooks.wins(work, seat):
        events.append(GameFinished(winner=seat, scores=scores(work), reason="victory",
                                   seed=dealer.seed_hex()))
    return events


def evolve_battle(state: State, e: CoastalBattleWon) -> None:
    a = attack(state)
    a.supply += e.barbarians - sum(e.prisoners)  # the foreign knight's prisoner
    a.barbarians[e.hex] = 0
    a.prisoner_throws += len(e.throws)
    a.dice += 1
    for s in range(state.n):
        a.prisoners[s] += e.prisoners[s]
        a.gold[s] += e.gold[s]
    for s, edge in e.lost:
        pieces.remove(state, s, "knight", edge)
        state.players[s].knights -= 1
    refresh_harbors(state)


def install(rules: Rules) -> None:
    rules.add_hook(hk.END_OF_TURN, battles)
    rules.evolve_with(CoastalBattleWon, evolve_battle)
