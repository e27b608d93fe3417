"""Catan for Two, rules 1 and 5: the neutral players, their start settlements and the
neutral piece owed after each road or settlement."""

from __future__ import annotations

from collections.abc import Callable

from events.catan_for_two import (
    BuildNeutralRoad,
    BuildNeutralSettlement,
    NeutralBuildRequired,
    NeutralPiece,
    NeutralRoadBuilt,
    NeutralSettlementBuilt,
)
from events.commands import BuildRoad, BuildSettlement, Command
from events.events import (
    Event,
    GameCreated,
    RoadBuilt,
    SettlementBuilt,
)
from events.prompts import Prompt
from services.rules.engine.base.common import require_current
from services.rules.engine.base.roads import (
    legal_road_edges,
    legal_settlement_vertices,
    network_vertices,
    touches_own_road,
)
from services.rules.engine.base.scoring import derive_longest_road
from services.rules.engine.base.sites import (
    check_road,
    check_settlement_site,
    pieces_left,
    require_piece,
)
from services.rules.engine.board import Board
from services.rules.engine.chance import Dealer
from services.rules.engine.registry import Handler
from services.rules.engine.rules import reject
from services.rules.engine.state import SETTLEMENT, Rules, State
from services.rules.engine.variants.catan_for_two.common import (
    NEUTRAL,
    NEUTRAL_STARTS,
    SETUP_KEY,
    TOKENS_KEY,
    TwoState,
    neutrals,
    new_two_state,
    opponent,
    two,
)
from services.rules.engine.variants.catan_for_two.tokens import token_gain

# --- set-up: the neutral players (rule 1) ---------------------------------------------------


def init(state: State, created: GameCreated) -> TwoState:
    starts = created.setup.get(SETUP_KEY) or start_vertices(state.board)
    for k, v in enumerate(starts):
        owner = state.n + k
        state.players.append(state.new_player(owner))
        state.vertex_owner[v] = owner
        state.vertex_level[v] = SETTLEMENT
        state.players[owner].settlements.add(v)
    return new_two_state(state.n, in_play=created.setup.get(TOKENS_KEY, [1]) != [0])


def start_vertices(board: Board) -> list[int]:
    return [board.vertex_id(*hexes) for hexes in NEUTRAL_STARTS]


# --- neutral building (rule 5) --------------------------------------------------------------


def neutral_options(state: State, seat: int, piece: str) -> list[Command]:
    out: list[Command] = []
    for k in neutrals(state):
        if pieces_left(state, k, piece) <= 0:
            continue
        if piece == "road":
            out.extend(BuildNeutralRoad(seat=seat, neutral=k, edge=e)
                       for e in legal_road_edges(state, k))
        else:
            out.extend(BuildNeutralSettlement(seat=seat, neutral=k, vertex=v)
                       for v in legal_settlement_vertices(state, k))
    return out


def owed_piece(state: State, cause: NeutralPiece) -> NeutralPiece | None:
    """What the build of a `cause` owes the neutrals on this board (None: nothing fits)."""
    if cause == "settlement" and neutral_options(state, state.current, "settlement"):
        return "settlement"
    if neutral_options(state, state.current, "road"):
        return "road"
    return None


def after(state: State, events: list[Event]) -> State:
    scratch = state.copy()
    for e in events:
        state.rules.registry.evolvers[type(e)](scratch, e)
    return scratch


def owing(previous: Handler[State], cause: NeutralPiece) -> Handler[State]:
    """Wrap BuildRoad/BuildSettlement: token gains, then the neutral piece owed (if any)."""

    def handler(state: State, cmd: BuildRoad | BuildSettlement, dealer: Dealer) -> list[Event]:
        events = list(previous(state, cmd, dealer))
        if isinstance(cmd, BuildSettlement):  # cause == "settlement"
            events.extend(token_gain(state, cmd.seat, cmd.vertex))
        piece = owed_piece(after(state, events), cause)
        if piece is not None:
            events.append(NeutralBuildRequired(seat=cmd.seat, piece=piece, cause=cause))
        return events

    return handler


def owing_a(cause: NeutralPiece) -> Callable[[Handler[State]], Handler[State]]:
    """The wrapper of the build command of `cause` (`owing`, named for provenance)."""

    def owing_neutral(previous: Handler[State]) -> Handler[State]:
        return owing(previous, cause)

    return owing_neutral


def check_neutral(state: State, seat: int, neutral: int, piece: str) -> None:
    require_current(state, seat)
    if neutral not in neutrals(state):
        raise reject("catan_for_two.neutral.unknown", f"{neutral} is not a neutral player")
    due = two(state).due
    if due != piece:
        raise reject("catan_for_two.neutral.piece", f"the neutral player is owed a {due}")
    require_piece(state, neutral, piece)


def build_neutral_road(state: State, cmd: BuildNeutralRoad, dealer: Dealer) -> list[Event]:
    check_neutral(state, cmd.seat, cmd.neutral, "road")
    check_road(state, cmd.neutral, cmd.edge)
    return [NeutralRoadBuilt(seat=cmd.seat, neutral=cmd.neutral, edge=cmd.edge)]


def build_neutral_settlement(
    state: State, cmd: BuildNeutralSettlement, dealer: Dealer
) -> list[Event]:
    check_neutral(state, cmd.seat, cmd.neutral, "settlement")
    check_settlement_site(state, cmd.neutral, cmd.vertex)
    if not touches_own_road(state, cmd.neutral, cmd.vertex):
        name = state.board.vertex_name(cmd.vertex)
        raise reject("base.build.settlement_connect", f"{name} does not touch that neutral's roads")
    return [NeutralSettlementBuilt(seat=cmd.seat, neutral=cmd.neutral, vertex=cmd.vertex)]


def evolve_required(state: State, e: NeutralBuildRequired) -> None:
    t = two(state)
    t.due, t.resume = e.piece, state.phase
    state.phase = NEUTRAL


def evolve_neutral_road(state: State, e: NeutralRoadBuilt) -> None:
    # In the NEUTRAL phase the base evolver only places the (free) piece.
    state.rules.registry.evolvers[RoadBuilt](state, RoadBuilt(seat=e.neutral, edge=e.edge, free=True))
    neutral_done(state)


def evolve_neutral_settlement(state: State, e: NeutralSettlementBuilt) -> None:
    state.rules.registry.evolvers[SettlementBuilt](
        state, SettlementBuilt(seat=e.neutral, vertex=e.vertex, free=True)
    )
    neutral_done(state)


def neutral_done(state: State) -> None:
    t = two(state)
    state.phase, t.due = t.resume, ""


def prompt_neutral(state: State) -> list[Prompt]:
    seat = state.current
    options = neutral_options(state, seat, two(state).due)
    default = default_neutral(state, seat, options)
    return [Prompt(seat=seat, stage=NEUTRAL, options=options, default=default)]


def default_neutral(state: State, seat: int, options: list[Command]) -> Command:
    """A silent seat's neutral piece: away from its own network, close to the opponent's."""
    topo = state.board.topo
    mine = network_vertices(state, seat)
    theirs = network_vertices(state, opponent(state, seat))

    def closeness(o: Command) -> tuple[int, int]:
        if isinstance(o, BuildNeutralRoad):
            ends: tuple[int, ...] = topo.edge_vertices[o.edge]
        else:
            assert isinstance(o, BuildNeutralSettlement)
            ends = (o.vertex,)
        around = {u for v in ends for u in (v, *topo.vertex_neighbours[v])}
        return len(around & mine), -len(around & theirs)

    return min(options, key=closeness)


def install(rules: Rules) -> None:
    """Rules 1 and 5: a neutral piece is owed after each road and settlement built."""
    rules.wrap_handler(BuildRoad, owing_a("road"))
    rules.wrap_handler(BuildSettlement, owing_a("settlement"))
    rules.handle(BuildNeutralRoad, build_neutral_road)
    rules.handle(BuildNeutralSettlement, build_neutral_settlement)
    rules.allow(NEUTRAL, BuildNeutralRoad, BuildNeutralSettlement)
    rules.prompt(NEUTRAL, prompt_neutral)
    rules.evolve_with(NeutralBuildRequired, evolve_required)
    rules.evolve_with(NeutralRoadBuilt, evolve_neutral_road)
    rules.evolve_with(NeutralSettlementBuilt, evolve_neutral_settlement)
    # A neutral piece can take Longest Road or cut a road.
    rules.derive((NeutralRoadBuilt, NeutralSettlementBuilt), derive_longest_road)
