"""Using oil (§12.5: refining, metropolises, the disaster marker) and sequestering it (§12.6:
once per turn, VP, Champion of the Environment)."""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.oil_springs import (
    BuildMetropolis,
    ChampionChanged,
    MetropolisBuilt,
    OilRefined,
    OilSequestered,
    RefineOil,
    SequesterOil,
)
from events.types import RESOURCES
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import can_afford, check_place, pay
from services.rules.engine.base.scoring import derive_victory
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.oil_springs.common import (
    CHAMPION_AT,
    MARKER_MAX,
    METROPOLIS_OIL,
    METROPOLISES,
    REFINED,
    SEQUESTER_VP,
    STARTING,
    oil_of,
    oil_state,
)
from services.rules.engine.state import CITY, MAIN, NO_ONE, Rules, State

USE_COMMANDS = (RefineOil, BuildMetropolis, SequesterOil)
METROPOLIS_LEVEL = 3


def metropolis_cost(state: State) -> tuple[int, ...]:
    vocab = state.rules.vocab
    cost = vocab.vector({"brick": 1, "grain": 1, "ore": 1})
    cost[oil_state(state).oil] = METROPOLIS_OIL
    return tuple(cost)


def require_own_turn(state: State, seat: int) -> None:
    if seat != state.current or state.phase != MAIN:
        raise reject("oil_springs.use.own_turn", "oil is used on your own turn, after the roll")


def require_marker(state: State, units: int) -> None:
    ext = oil_state(state)
    if ext.marker + units > MARKER_MAX:
        raise reject("oil_springs.use.marker_cap",
                     f"the disaster marker is at {ext.marker}: {units} more oil would pass {MARKER_MAX}")
    if ext.mode == STARTING and ext.sequestered_now:
        raise reject("oil_springs.sequester.exclusive",
                     "with the starting rules a turn that sequesters uses no oil")


def refine(state: State, cmd: RefineOil, dealer: Dealer) -> list[Event]:
    require_own_turn(state, cmd.seat)
    if oil_of(state, cmd.seat) < 1:
        raise reject("oil_springs.use.refine", "refining needs 1 oil")
    if cmd.resource not in RESOURCES:
        raise reject("oil_springs.use.refine", "oil refines into a resource other than oil")
    r = state.rules.vocab.resource_index[cmd.resource]
    if state.bank[r] < REFINED:
        raise reject("oil_springs.use.refine", f"the bank has fewer than {REFINED} {cmd.resource}")
    require_marker(state, 1)
    return [OilRefined(seat=cmd.seat, resource=cmd.resource)]


def build_metropolis(state: State, cmd: BuildMetropolis, dealer: Dealer) -> list[Event]:
    require_own_turn(state, cmd.seat)
    check_place(state, "vertex", cmd.vertex)
    ext = oil_state(state)
    if state.vertex_owner[cmd.vertex] != cmd.seat or state.vertex_level[cmd.vertex] != CITY:
        raise reject("oil_springs.metropolis.cost", "a metropolis upgrades one of your cities")
    if len(ext.metropolises) >= METROPOLISES:
        raise reject("oil_springs.metropolis.limit", f"all {METROPOLISES} metropolises are built")
    if not can_afford(state.players[cmd.seat].hand, metropolis_cost(state)):
        raise reject("oil_springs.metropolis.cost", "a metropolis costs 1 brick, 1 grain, 1 ore and 2 oil")
    require_marker(state, METROPOLIS_OIL)
    return [MetropolisBuilt(seat=cmd.seat, vertex=cmd.vertex)]


def sequester(state: State, cmd: SequesterOil, dealer: Dealer) -> list[Event]:
    require_own_turn(state, cmd.seat)
    ext = oil_state(state)
    if ext.sequestered_now:
        raise reject("oil_springs.sequester.once_per_turn", "one oil may be sequestered per turn")
    if ext.mode == STARTING and ext.used:
        raise reject("oil_springs.sequester.exclusive",
                     "with the starting rules a turn that uses oil sequesters none")
    if oil_of(state, cmd.seat) < 1:
        raise reject("oil_springs.sequester.once_per_turn", "sequestering needs 1 oil")
    events: list[Event] = [OilSequestered(seat=cmd.seat)]
    count = ext.sequestered[cmd.seat] + 1
    holder = ext.champion
    if holder != cmd.seat and count >= CHAMPION_AT and (
            holder == NO_ONE or count > ext.sequestered[holder]):
        events.append(ChampionChanged(holder=cmd.seat, sequestered=count))
    return events


# --- evolvers -------------------------------------------------------------------------------


def evolve_refined(state: State, e: OilRefined) -> None:
    ext = oil_state(state)
    r = state.rules.vocab.resource_index[e.resource]
    hand = state.players[e.seat].hand
    hand[ext.oil] -= 1
    state.bank[ext.oil] += 1
    hand[r] += REFINED
    state.bank[r] -= REFINED
    ext.marker += 1
    ext.used = True


def evolve_metropolis(state: State, e: MetropolisBuilt) -> None:
    ext = oil_state(state)
    pay(state, e.seat, metropolis_cost(state))
    state.vertex_level[e.vertex] = METROPOLIS_LEVEL  # the city stays; it now yields 3
    ext.metropolises[e.vertex] = e.seat
    ext.marker += METROPOLIS_OIL
    ext.used = True


def evolve_sequestered(state: State, e: OilSequestered) -> None:
    ext = oil_state(state)
    state.players[e.seat].hand[ext.oil] -= 1
    ext.sequestered[e.seat] += 1
    ext.sequestered_now = True


def evolve_champion(state: State, e: ChampionChanged) -> None:
    oil_state(state).champion = e.holder


# --- options, VP ----------------------------------------------------------------------------


def options(state: State, seat: int, phase: str) -> list[Command]:
    """The oil actions open now (only legal ones: marker, mode, bank, pieces)."""
    if phase != MAIN or seat != state.current:
        return []
    ext = oil_state(state)
    oil = oil_of(state, seat)
    if not oil:
        return []
    out: list[Command] = []
    may_use = not (ext.mode == STARTING and ext.sequestered_now)
    if may_use and ext.marker + 1 <= MARKER_MAX:
        out.extend(RefineOil(seat=seat, resource=r) for r in RESOURCES
                   if state.bank[state.rules.vocab.resource_index[r]] >= REFINED)
    if (may_use and ext.marker + METROPOLIS_OIL <= MARKER_MAX and len(ext.metropolises) < METROPOLISES
            and can_afford(state.players[seat].hand, metropolis_cost(state))):
        out.extend(BuildMetropolis(seat=seat, vertex=v) for v in sorted(state.players[seat].cities)
                   if state.vertex_level[v] == CITY)
    if not ext.sequestered_now and not (ext.mode == STARTING and ext.used):
        out.append(SequesterOil(seat=seat))
    return out


def oil_vp(state: State, seat: int, public: bool) -> int:
    """A metropolis adds 1 to its city's 2; 3 sequestered oil make 1; the Champion 1."""
    ext = oil_state(state)
    vp = sum(1 for owner in ext.metropolises.values() if owner == seat)
    vp += ext.sequestered[seat] // SEQUESTER_VP
    if ext.champion == seat:
        vp += 1
    return vp


def refusal(state: State, cmd: Command) -> str | None:
    """Oil is used on the player's own turn, after the roll."""
    if isinstance(cmd, USE_COMMANDS):
        return "oil_springs.use.own_turn"
    return None


def install(rules: Rules) -> None:
    rules.handle(RefineOil, refine)
    rules.handle(BuildMetropolis, build_metropolis)
    rules.handle(SequesterOil, sequester)
    rules.allow(MAIN, *USE_COMMANDS)
    rules.add_hook(hk.PHASE_REFUSAL, refusal, first=True)
    rules.add_hook(hk.EXTRA_OPTIONS, options)
    rules.add_hook(hk.VP_BONUS, oil_vp)
    # These change VP during the turn: the win check follows them as it follows a build.
    rules.derive((MetropolisBuilt, OilSequestered, ChampionChanged), derive_victory)
    # Public and without chance: a table with the undo rule may take them back.
    rules.reversible_events(OilRefined, MetropolisBuilt, OilSequestered, ChampionChanged)
    rules.evolve_with(OilRefined, evolve_refined)
    rules.evolve_with(MetropolisBuilt, evolve_metropolis)
    rules.evolve_with(OilSequestered, evolve_sequestered)
    rules.evolve_with(ChampionChanged, evolve_champion)

