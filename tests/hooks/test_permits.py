"""Hooks `road_permits` / `settlement_permits`: a place the base refuses that a module allows
(a ship on the sea, a settlement where a ship reaches)."""

from toy import toy

from events.commands import BuildRoad, BuildSettlement
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.roads import distance_ok, network_vertices
from services.rules.engine.state import Rules


def test_a_permit_allows_an_edge_on_the_sea() -> None:
    def install(rules: Rules) -> None:
        def ship_lane(state, seat, e):  # type: ignore[no-untyped-def]
            ends = state.board.topo.edge_vertices[e]
            return not state.board.topo.edge_is_land[e] and any(
                v in network_vertices(state, seat) for v in ends)

        rules.add_hook(hk.ROAD_PERMITS, ship_lane)

    t = toy("toy-ships", install)
    t.turn_of(0)
    topo = t.state.board.topo
    coast = next(v for v in topo.land_vertices if distance_ok(t.state, v)
                 and any(not topo.edge_is_land[e] for e in topo.vertex_edges[v]))
    t.place(0, coast)
    sea = next(e for e in topo.vertex_edges[coast] if not topo.edge_is_land[e])
    t.give(0, lumber=1, brick=1)
    t.when(BuildRoad(seat=0, edge=sea))
    assert sea in t.state.players[0].roads


def test_a_permit_allows_a_settlement_away_from_the_network() -> None:
    site = -1

    def install(rules: Rules) -> None:
        rules.add_hook(hk.SETTLEMENT_PERMITS, lambda state, seat, v: v == site)

    t = toy("toy-reach", install)
    t.turn_of(0)
    mine = network_vertices(t.state, 0)
    site = next(v for v in t.state.board.topo.land_vertices
                if distance_ok(t.state, v) and v not in mine)
    t.give(0, lumber=1, brick=1, wool=1, grain=1)
    t.when(BuildSettlement(seat=0, vertex=site))
    assert site in t.state.players[0].settlements
