"""The three barbarians (docs/rules/traders-and-barbarians.md §10.5, §10.9, §10.10): a 7 and a
Knight relocate one (stealing from the owner of another seat's road it lands on); a wagon of
card 2 or better may try to drive one off from an end of its path. There is no robber.

A relocation is a stage of its own (phase BARBARIAN); the scenario state says why (`pending`)
and, for a Knight, which phase it returns to (`resume`)."""

from __future__ import annotations

from typing import cast

from events.events import Event, KnightPlayed
from events.traders_and_barbarians import (
    BarbarianCause,
    BarbarianDriveOffTried,
    BarbarianMovedOnPath,
    MoveBarbarianOnPath,
    TryDriveOff,
)
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.traders_and_barbarians.common import (
    BARBARIAN,
    DRIVE_OFF,
    KNIGHT,
    SEVEN,
    WAGON,
    places,
    tb,
)
from services.rules.engine.scenarios.traders_and_barbarians.data import BARBARIANS, P, card
from services.rules.engine.scenarios.traders_and_barbarians.wagon import start
from services.rules.engine.state import NO_ONE, Rules, State

DIE = (1, 2, 3, 4, 5, 6)


def seven_stage(state: State) -> None:
    """A 7's discards are done: a barbarian is relocated (`seven.move_barbarian`)."""
    t = tb(state)
    t.pending = SEVEN
    state.phase = BARBARIAN


def free_paths(state: State) -> list[int]:
    """Paths without a barbarian (`barbarian.one_per_path`)."""
    taken = set(tb(state).barbarians)
    return [e for e in places(state.board).paths if e not in taken]


def movable(state: State) -> tuple[int, ...]:
    t = tb(state)
    return (t.pending_barbarian,) if t.pending == DRIVE_OFF else tuple(range(BARBARIANS))


def victim(state: State, seat: int, edge: int) -> int | None:
    """Whom a 7's or a Knight's barbarian robs on `edge`: another seat's road there (a
    Decision: one's own road steals nothing)."""
    if tb(state).pending == DRIVE_OFF:
        return None
    owner = state.edge_owner[edge]
    return owner if owner != NO_ONE and owner != seat and owner < state.n else None


def move_barbarian(state: State, cmd: MoveBarbarianOnPath, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    t = tb(state)
    if cmd.barbarian not in movable(state):
        rule = P + "drive_off.roll" if t.pending == DRIVE_OFF else P + "seven.move_barbarian"
        raise reject(rule, f"barbarian {cmd.barbarian} is not the one to move")
    if not 0 <= cmd.edge < state.board.n_edges or not places(state.board).is_path[cmd.edge]:
        raise reject(P + "seven.move_barbarian", "a barbarian goes on a path")
    if cmd.edge == t.barbarians[cmd.barbarian]:
        raise reject(P + "seven.move_barbarian", "the barbarian must move to another path")
    if cmd.edge in t.barbarians:
        raise reject(P + "barbarian.one_per_path", "that path already holds a barbarian")
    robbed = victim(state, cmd.seat, cmd.edge)
    events: list[Event] = [BarbarianMovedOnPath(
        seat=cmd.seat, barbarian=cmd.barbarian, edge=cmd.edge,
        cause=cast(BarbarianCause, t.pending or SEVEN), victim=robbed)]
    if robbed is not None:
        events.extend(state.rules.hooks.steal(state, cmd.seat, robbed, dealer))
    return events


def try_drive_off(state: State, cmd: TryDriveOff, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    t = tb(state)
    b = cmd.barbarian
    if not 0 <= b < BARBARIANS:
        raise reject(P + "drive_off.position", f"there is no barbarian {b}")
    level = t.level[cmd.seat]
    if level < 2:
        raise reject(P + "drive_off.level", "driving off needs wagon card 2 or better")
    if t.wagon[cmd.seat] not in state.board.topo.edge_vertices[t.barbarians[b]]:
        raise reject(P + "drive_off.position", "the wagon is not at an end of that barbarian's path")
    if t.tried[b]:
        raise reject(P + "drive_off.once", "that barbarian was already tried this turn")
    die = dealer.pick(f"driveoff:{t.throws}", DIE, (1,) * len(DIE))
    return [*start(state, cmd.seat), BarbarianDriveOffTried(
        seat=cmd.seat, barbarian=b, die=die, success=die in card(level).drive_off, n=t.throws)]


def drive_off_targets(state: State, seat: int) -> list[int]:
    """The barbarians the wagon may try now."""
    t = tb(state)
    if t.level[seat] < 2:
        return []
    ends = state.board.topo.edge_vertices
    at = t.wagon[seat]
    return [b for b, e in enumerate(t.barbarians) if not t.tried[b] and at in ends[e]]


# --- evolvers -------------------------------------------------------------------------------


def evolve_tried(state: State, e: BarbarianDriveOffTried) -> None:
    t = tb(state)
    t.tried[e.barbarian] = True
    t.throws += 1
    if e.success:
        t.pending = DRIVE_OFF
        t.pending_barbarian = e.barbarian
        state.phase = BARBARIAN


def evolve_moved(state: State, e: BarbarianMovedOnPath) -> None:
    t = tb(state)
    t.barbarians[e.barbarian] = e.edge
    pending, t.pending, t.pending_barbarian = t.pending, "", NO_ONE
    if pending == SEVEN:
        state.rules.hooks.roll_resolved(state)
    elif pending == KNIGHT:
        state.phase = t.resume
    else:
        state.phase = WAGON


def wrap_knight(rules: Rules) -> None:
    """A Knight relocates a barbarian (`dev.knight`) instead of moving the robber."""
    played = rules.registry.evolvers[KnightPlayed]

    def evolve_knight(state: State, e: KnightPlayed) -> None:
        resume = state.phase
        played(state, e)
        t = tb(state)
        t.pending = KNIGHT
        t.resume = resume
        state.phase = BARBARIAN

    rules.evolve_with(KnightPlayed, evolve_knight, wraps=True)
