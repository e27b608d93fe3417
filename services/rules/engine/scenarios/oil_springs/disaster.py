"""Disasters (§12.7) and the end of the game (§12.8).

When a turn ends with the marker at 5, the `end_of_turn` step throws two dice (chance key
"disaster:<n>"): a 7 floods the coast, another total pollutes a hex with that number, chosen at
random among those still carrying it (chance key "pollution:<n>"). The step then works out on a
copy what follows from the disaster (Longest Road and every other deriver of the ruleset) and
whether the active seat wins now that the win check no longer waits; the fifth destroyed
token abandons the island instead."""

from __future__ import annotations

from events.events import Event, GameFinished, TurnEnded
from events.oil_springs import (
    CityReduced,
    DisasterRolled,
    HexPolluted,
    IslandAbandoned,
    SpringPolluted,
)
from events.pieces import PieceRemoved
from services.rules.engine import hook_keys as hk
from services.rules.engine import pieces
from services.rules.engine.base.scoring import scores
from services.rules.engine.base.sites import pieces_left
from services.rules.engine.chance import DICE_OUTCOMES, DICE_WEIGHTS, Dealer
from services.rules.engine.scenarios.oil_springs.common import (
    MARKER_MAX,
    SPRING_LOSS,
    TRACK_SPACES,
    WIN_BONUS,
    oil_state,
    springs,
)
from services.rules.engine.state import CITY, NO_ONE, Rules, State

ABANDONED = "abandoned"  # GameFinished.reason when the island is abandoned


def apply(state: State, events: list[Event]) -> None:
    for e in events:
        state.rules.registry.evolvers[type(e)](state, e)
        state.version += 1


def flood(state: State) -> list[Event]:
    """Coastal settlements go back to their owners; coastal cities become settlements (one
    whose owner has no settlement piece left goes back too); metropolises and roads stay."""
    coastal = state.board.topo.vertex_is_coastal
    removed: list[Event] = []
    reduced: list[Event] = []
    for p in state.players[: state.n]:
        flooded = sorted(v for v in p.settlements if coastal[v])
        removed.extend(PieceRemoved(seat=p.seat, kind="settlement", site=v) for v in flooded)
        spare = pieces_left(state, p.seat, "settlement") + len(flooded)
        for v in sorted(p.cities):
            if coastal[v] and state.vertex_level[v] == CITY:
                # The city leaves (PieceRemoved: everything that counts buildings follows),
                # then a settlement of its owner takes its place.
                reduced.append(PieceRemoved(seat=p.seat, kind="city", site=v))
                if spare > 0:
                    reduced.append(CityReduced(seat=p.seat, vertex=v))
                    spare -= 1
    return removed + reduced


def pollution(state: State, seat: int, total: int, dealer: Dealer) -> list[Event]:
    ext = oil_state(state)
    board = state.board
    candidates = [h for h in board.topo.land_hexes
                  if total in board.hex_numbers[h] and h not in ext.destroyed]
    if not candidates:
        return []
    n = ext.pollutions
    h = dealer.pick(f"pollution:{n}", candidates, [1] * len(candidates))
    if h not in springs(state):
        return [HexPolluted(hex=h, number=total, n=n)]
    from_supply = min(SPRING_LOSS, state.bank[ext.oil])
    short = SPRING_LOSS - from_supply
    taken = [0] * state.n
    held = [state.players[s].hand[ext.oil] for s in range(state.n)]
    order = [(seat + i) % state.n for i in range(state.n)]
    while short > 0 and any(held[s] > taken[s] for s in order):
        for s in order:
            if short > 0 and held[s] > taken[s]:
                taken[s] += 1
                short -= 1
    return [SpringPolluted(hex=h, number=total, n=n, from_supply=from_supply, taken=tuple(taken))]


def consequences(state: State, events: list[Event], dealer: Dealer) -> list[Event]:
    """The ruleset's derivers over the disaster's events (Longest Road after a flood, a
    module's awards), as `decide` runs them after a command; `state` has the events."""
    seen = {type(e) for e in events}
    out: list[Event] = []
    for triggers, derive in state.rules.registry.derivers:
        if state.finished:
            break
        if triggers.isdisjoint(seen):
            continue
        for e in derive(state, dealer):
            apply(state, [e])
            seen.add(type(e))
            out.append(e)
    return out


def disaster_step(state: State, seat: int, dealer: Dealer) -> list[Event]:
    ext = oil_state(state)
    if ext.marker < MARKER_MAX:
        return []
    scratch = state.copy()
    d1, d2 = dealer.pick(f"disaster:{ext.disasters}", DICE_OUTCOMES, DICE_WEIGHTS)
    events: list[Event] = [DisasterRolled(seat=seat, d1=d1, d2=d2, n=ext.disasters)]
    apply(scratch, events)
    more = flood(scratch) if d1 + d2 == 7 else pollution(scratch, seat, d1 + d2, dealer)
    apply(scratch, more)
    events += more
    if len(oil_state(scratch).destroyed) >= TRACK_SPACES:
        champion = oil_state(scratch).champion
        abandoned = IslandAbandoned(champion=None if champion == NO_ONE else champion)
        apply(scratch, [abandoned])
        return [*events, abandoned, GameFinished(winner=None, scores=scores(scratch),
                                                 reason=ABANDONED, seed=dealer.seed_hex())]
    events += consequences(scratch, more, dealer)
    if not scratch.finished and scratch.rules.hooks.wins(scratch, seat):
        events.append(GameFinished(winner=seat, scores=scores(scratch), reason="victory",
                                   seed=dealer.seed_hex()))
    return events


# --- evolvers -------------------------------------------------------------------------------


def evolve_rolled(state: State, e: DisasterRolled) -> None:
    ext = oil_state(state)
    ext.marker = 0
    ext.disasters = e.n + 1


def evolve_reduced(state: State, e: CityReduced) -> None:
    """The settlement standing where the flooded city was (its PieceRemoved came first)."""
    pieces.place(state, e.seat, "settlement", e.vertex)


def evolve_polluted(state: State, e: HexPolluted) -> None:
    ext = oil_state(state)
    ext.destroyed.append(e.hex)
    ext.pollutions = e.n + 1


def evolve_spring(state: State, e: SpringPolluted) -> None:
    ext = oil_state(state)
    state.bank[ext.oil] -= e.from_supply
    for s, n in enumerate(e.taken):
        state.players[s].hand[ext.oil] -= n
    ext.removed += e.from_supply + sum(e.taken)
    ext.pollutions = e.n + 1


def evolve_abandoned(state: State, e: IslandAbandoned) -> None:
    """Nothing changes: the event records the Champion's Pyrrhic victory."""


def install(rules: Rules) -> None:
    previous_wins = rules.hook(hk.WINS)
    previous_target = rules.hook(hk.WIN_TARGET)
    previous_turn_ended = rules.registry.evolvers[TurnEnded]

    def wins(state: State, seat: int) -> bool:
        if oil_state(state).marker >= MARKER_MAX:
            return False  # a disaster is due: the check waits for it (§12.8)
        return previous_wins(state, seat)

    def win_target(state: State, seat: int) -> int:
        return previous_target(state, seat) + WIN_BONUS

    def turn_ended(state: State, e: TurnEnded) -> None:
        previous_turn_ended(state, e)
        ext = oil_state(state)
        ext.used = False
        ext.sequestered_now = False

    rules.set_hook(hk.WINS, wins, wraps=True)
    rules.set_hook(hk.WIN_TARGET, win_target, wraps=True)
    rules.evolve_with(TurnEnded, turn_ended, wraps=True)
    rules.add_hook(hk.END_OF_TURN, disaster_step)
    rules.evolve_with(DisasterRolled, evolve_rolled)
    rules.evolve_with(CityReduced, evolve_reduced)
    rules.evolve_with(HexPolluted, evolve_polluted)
    rules.evolve_with(SpringPolluted, evolve_spring)
    rules.evolve_with(IslandAbandoned, evolve_abandoned)
