"""What the scenario offers a seat: its options in the main phase (upgrades, gold, the first
wagon command), the wagon phase's prompt and the barbarian relocation's prompt."""

from __future__ import annotations

from events.commands import Command, EndTurn
from events.prompts import Prompt
from events.traders_and_barbarians import (
    EndWagonMovement,
    MoveBarbarianOnPath,
    MoveWagon,
    PayGrainForMovement,
    PlaySwiftJourney,
    TryDriveOff,
    UpgradeWagon,
)
from services.rules.engine.base.devcards import KNIGHT, playable
from services.rules.engine.base.option_commands import knight_command
from services.rules.engine.scenarios.traders_and_barbarians import gold
from services.rules.engine.scenarios.traders_and_barbarians.barbarians import (
    drive_off_targets,
    free_paths,
    movable,
)
from services.rules.engine.scenarios.traders_and_barbarians.cards import swift_playable
from services.rules.engine.scenarios.traders_and_barbarians.common import BARBARIAN, WAGON, tb
from services.rules.engine.scenarios.traders_and_barbarians.wagon import (
    GRAIN,
    can_upgrade,
    steps,
)
from services.rules.engine.state import MAIN, State


def wagon_options(state: State, seat: int) -> list[Command]:
    """Steps, the grain bonus, drive-off tries, Swift Journey's second movement."""
    t = tb(state)
    out: list[Command] = [MoveWagon(seat=seat, edge=e) for e in steps(state, seat)]
    if not t.grain_paid and state.players[seat].hand[GRAIN] > 0 and not (t.moving and t.over):
        out.append(PayGrainForMovement(seat=seat))
    out.extend(TryDriveOff(seat=seat, barbarian=b) for b in drive_off_targets(state, seat))
    if t.second and t.moving and not t.over:
        out.append(EndWagonMovement(seat=seat))
    if swift_playable(state, seat):
        out.append(PlaySwiftJourney(seat=seat))
    return out


def main_options(state: State, seat: int, phase: str) -> list[Command]:
    """The scenario's options in the main phase (`rules.hooks.extra_options`)."""
    if phase != MAIN:
        return []
    out: list[Command] = []
    if can_upgrade(state, seat):
        out.append(UpgradeWagon(seat=seat))
    out.extend(gold.options(state, seat))
    out.extend(wagon_options(state, seat))
    return out


def prompt_wagon(state: State) -> list[Prompt]:
    seat = state.current
    options: list[Command] = [EndTurn(seat=seat), *wagon_options(state, seat)]
    if playable(state, seat, KNIGHT):
        options.append(knight_command(seat))
    return [Prompt(seat=seat, stage=WAGON, options=options, default=options[0])]


def prompt_barbarian(state: State) -> list[Prompt]:
    seat = state.current
    paths = free_paths(state)
    options: list[Command] = [MoveBarbarianOnPath(seat=seat, barbarian=b, edge=e)
                              for b in movable(state) for e in paths]
    return [Prompt(seat=seat, stage=BARBARIAN, options=options, default=options[0])]
