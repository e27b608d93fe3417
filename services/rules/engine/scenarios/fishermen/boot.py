"""The old boot (docs/rules/fishermen.md §6.6, §6.7): public once drawn; its holder needs one
VP more to win and may pass it, on their turn after rolling, to a player with at least as many
public VP. The +1 wraps `win_target`, so it stacks with Harbormaster and `victory-points`."""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.fishermen import OldBootPassed, PassOldBoot
from services.rules.engine import hook_keys as hk
from services.rules.engine import hooks
from services.rules.engine.base.scoring import derive_victory, public_vp
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.fishermen.common import fish
from services.rules.engine.state import MAIN, Rules, State


def receivers(state: State, seat: int) -> list[int]:
    """Who the holder may pass the boot to: the others with at least the holder's public VP."""
    mine = public_vp(state, seat)
    return [s for s in range(state.n) if s != seat and public_vp(state, s) >= mine]


def pass_boot(state: State, cmd: PassOldBoot, dealer: Dealer) -> list[Event]:
    if fish(state).boot != cmd.seat or cmd.seat != state.current or state.phase != MAIN:
        raise reject("fishermen.boot.pass", "only the boot's holder passes it, on their turn after rolling")
    if cmd.to not in receivers(state, cmd.seat):
        raise reject("fishermen.boot.pass", "the boot goes only to a player with at least your public VP")
    return [OldBootPassed(seat=cmd.seat, to=cmd.to)]


def options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN or fish(state).boot != seat or seat != state.current:
        return []
    return [PassOldBoot(seat=seat, to=s) for s in receivers(state, seat)]


def boot_target(previous: hooks.SeatNumber[State]) -> hooks.SeatNumber[State]:
    def target(state: State, seat: int) -> int:
        return previous(state, seat) + (1 if fish(state).boot == seat else 0)

    return target


def evolve_passed(state: State, e: OldBootPassed) -> None:
    fish(state).boot = e.to


def install(rules: Rules) -> None:
    rules.handle(PassOldBoot, pass_boot)
    rules.allow(MAIN, PassOldBoot)
    rules.add_hook(hk.EXTRA_OPTIONS, options)
    rules.wrap_hook(hk.WIN_TARGET, boot_target)
    rules.evolve_with(OldBootPassed, evolve_passed)
    # Passing the boot lowers the passer's target: that may win the game at once.
    rules.derive((OldBootPassed,), derive_victory)
