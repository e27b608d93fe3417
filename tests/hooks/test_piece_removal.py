"""`PieceRemoved` and `pieces.remove`: a piece leaves the board (an Oil Springs flood, a
Barbarian Attack conquest) and route lengths, harbors and awards are recomputed."""

from toy import toy

from events.commands import Command
from events.events import Event, LongestRoadChanged
from events.pieces import PieceRemoved
from services.rules.engine import hook_keys as hk
from services.rules.engine.chance import Dealer
from services.rules.engine.state import State
from services.rules.engine.testing import Table


class Flood(Command, frozen=True, kw_only=True):
    """A toy command (not registered on the wire): remove one of `owner`'s pieces."""

    owner: int
    kind: str
    site: int


def flood(state: State, cmd: Flood, dealer: Dealer) -> list[Event]:
    return [PieceRemoved(seat=cmd.owner, kind=cmd.kind, site=cmd.site)]


def flooding(**table: object) -> Table:
    def install(rules) -> None:  # type: ignore[no-untyped-def]
        rules.handle(Flood, flood)
        rules.allow("main", Flood)

    return toy("toy-flood", install, **table)


def test_a_removed_road_shortens_the_route_and_passes_longest_road_on() -> None:
    t = flooding()
    t.turn_of(0)
    topo = t.state.board.topo
    # A trail of 5 roads for seat 0 from its settlement.
    start = next(iter(t.state.players[0].settlements))
    trail, v = [], start
    while len(trail) < 5:
        e = next(e for e in topo.vertex_edges[v] if t.state.edge_owner[e] == -1 and e not in trail
                 and all(t.state.vertex_owner[w] in (-1, 0) for w in topo.edge_vertices[e]))
        t.road(0, e)
        trail.append(e)
        a, b = topo.edge_vertices[e]
        v = b if a == v else a
    t.state.longest_holder, t.state.longest_length = 0, t.state.players[0].road_length
    before = t.state.players[0].road_length
    events = t.when(Flood(seat=0, owner=0, kind="road", site=trail[2]))
    assert t.state.players[0].road_length < before
    assert any(isinstance(e, LongestRoadChanged) for e in events)


def test_a_removed_harbor_settlement_gives_the_ratio_back() -> None:
    t = flooding()
    board = t.state.board
    v = next(v for v in board.topo.land_vertices if board.vertex_harbor[v] == "3:1"
             and t.state.vertex_owner[v] == -1)
    t.place(1, v)
    assert t.state.players[1].ratios[0] <= 3
    t.turn_of(1)
    t.when(Flood(seat=1, owner=1, kind="settlement", site=v))
    assert t.state.players[1].ratios[0] == 4
    assert t.state.vertex_owner[v] == -1


def test_the_kit_places_and_removes_pieces_of_a_modules_kind() -> None:
    from services.rules.engine.vocab import PieceKind

    def install(rules) -> None:  # type: ignore[no-untyped-def]
        rules.vocab.add_piece(PieceKind("ship", "edge", 15, route=True))
        rules.add_hook(hk.ROAD_PERMITS, lambda state, seat, e: not state.board.topo.edge_is_land[e])

    t = toy("toy-kit-ships", install)
    v = next(iter(t.state.players[0].settlements))
    e = t.state.board.topo.vertex_edges[v][0]
    if t.state.edge_owner[e] != -1:
        e = next(f for f in t.state.board.topo.vertex_edges[v] if t.state.edge_owner[f] == -1)
    before = len(t.state.players[0].roads)
    t.piece(0, "ship", e)
    assert t.state.players[0].pieces["ship"] == {e}
    assert len(t.state.players[0].roads) == before + 1
    t.remove(0, "ship", e)
    assert t.state.players[0].pieces["ship"] == set()
    assert t.state.edge_owner[e] == -1
    t.set_robber(None)
    assert t.state.robber == -1
    t.set_bank(ore=0)
    assert t.state.bank[4] == 0
