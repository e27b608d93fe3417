"""Attacking the fortress (docs/rules/pirate-islands.md §11.10) and the win (§11.12).

A seat whose route reaches its own fortress vertex attacks it in its main phase: one die
(chance key fortress:n) against its warships. More warships: the fortress loses 1 strength;
fewer: the two front ships are lost; equal: the front ship. The attack ends the turn. At
strength 0 the fortress is the attacker's settlement (a `fortress` piece: 1 VP, production,
not from the 5 settlements; Decision (hexlog): it does not become a city); when the last one
falls the fleet leaves. A seat wins on its own turn with its own fortress captured and the
target (10 VP, 11 with Harbormaster)."""

from __future__ import annotations

from events.commands import Command
from events.events import Event, GameFinished
from events.pieces import PieceRemoved
from events.pirate_islands import AttackFortress, FleetRemoved, FortressAttacked, FortressCaptured
from services.rules.engine import hook_keys as hk
from services.rules.engine import hooks, pieces
from services.rules.engine.base.common import check_place, require_current
from services.rules.engine.base.scoring import scores
from services.rules.engine.base.turn import finish_turn
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.pirate_islands.common import (
    FORTRESS,
    SHIP,
    apply,
    open_end,
    pirate,
    slot,
)
from services.rules.engine.state import MAIN, Rules, State

DIE = (1, 2, 3, 4, 5, 6)


def may_attack(state: State, seat: int) -> bool:
    sp = slot(state, seat)
    return pirate(state).strength[seat] > 0 and open_end(state, seat) == sp.fortress


def attack(state: State, cmd: AttackFortress, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    check_place(state, "vertex", cmd.fortress)
    seat = cmd.seat
    sp = slot(state, seat)
    ps = pirate(state)
    if cmd.fortress != sp.fortress:
        raise reject("pirate_islands.fortress.own_only", "you may attack only your own fortress")
    if ps.strength[seat] <= 0:
        raise reject("pirate_islands.fortress.captured", "your fortress has already fallen")
    if open_end(state, seat) != sp.fortress:
        raise reject("pirate_islands.fortress.connected",
                     "your route of ships does not reach your fortress")
    roll = dealer.pick(f"fortress:{ps.throws}", DIE, (1,) * 6)
    warships = ps.warships[seat]
    strength = ps.strength[seat]
    route = ps.routes[seat]
    events: list[Event]
    if warships > roll:
        strength -= 1
        events = [FortressAttacked(seat=seat, fortress=sp.fortress, roll=roll, warships=warships,
                                   result="hit", strength=strength, n=ps.throws)]
        if strength == 0:
            events.append(FortressCaptured(seat=seat, vertex=sp.fortress))
            if all(s == 0 for i, s in enumerate(ps.strength) if i != seat):
                events.append(FleetRemoved())
    else:
        lost = 2 if warships < roll else 1
        events = [FortressAttacked(seat=seat, fortress=sp.fortress, roll=roll, warships=warships,
                                   result="repelled" if lost == 2 else "tie", strength=strength,
                                   n=ps.throws)]
        events.extend(PieceRemoved(seat=seat, kind=SHIP, site=e) for e in route[::-1][:lost])
    scratch = state.copy()
    apply(scratch, events)
    if scratch.rules.hooks.wins(scratch, seat):
        return events + [GameFinished(winner=seat, scores=scores(scratch), reason="victory",
                                      seed=dealer.seed_hex())]
    return events + finish_turn(scratch, seat, dealer)  # the attack ends the turn


def options(state: State, seat: int, phase: str) -> list[Command]:
    if phase == MAIN and may_attack(state, seat):
        return [AttackFortress(seat=seat, fortress=slot(state, seat).fortress)]
    return []


def evolve_attacked(state: State, e: FortressAttacked) -> None:
    ps = pirate(state)
    ps.throws += 1
    ps.strength[e.seat] = e.strength


def evolve_captured(state: State, e: FortressCaptured) -> None:
    pieces.place(state, e.seat, FORTRESS, e.vertex)


def captured(state: State, seat: int) -> bool:
    return pirate(state).strength[seat] == 0


def wrap_wins(prev: hooks.Wins[State]) -> hooks.Wins[State]:
    def wins(state: State, seat: int) -> bool:
        return captured(state, seat) and prev(state, seat)

    return wins


def fortress_vp(state: State, seat: int, public: bool) -> int:
    return len(state.players[seat].pieces.get(FORTRESS, ()))


def install(rules: Rules) -> None:
    rules.handle(AttackFortress, attack)
    rules.allow(MAIN, AttackFortress)
    rules.add_hook(hk.EXTRA_OPTIONS, options)
    rules.wrap_hook(hk.WINS, wrap_wins)
    rules.add_hook(hk.VP_BONUS, fortress_vp)
    rules.evolve_with(FortressAttacked, evolve_attacked)
    rules.evolve_with(FortressCaptured, evolve_captured)
