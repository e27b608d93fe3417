"""Maps: a vertex at a hex centre with explicit paths (the T&B plaza and its spokes), hexes
with several numbers (the lake), edge features (bridge sites), per-seat start slots."""

from events.events import Tile
from services.rules.engine.board import Board
from services.rules.engine.mapdata import load_map, parse

PLAZA = "(0,0)/(0,0)/(0,0)"
CORNER = "(0,-1)/(0,0)/(1,-1)"

TOY_MAP = {
    "name": "toy", "layout": "fixed",
    "fixed": [[0, 0, "desert", [2, 12]], [1, -1, "forest", 3], [0, -1, "hills", 0]],
    "centres": [[0, 0]],
    "paths": [[PLAZA, CORNER]],
    "edges": [[0, 0, 1, -1, "bridge_site"]],
    "terrain_numbers": {"forest": [11]},
    "slots": [{"pieces": [["settlement", CORNER]], "marks": [["site", CORNER]]}],
}


def board() -> Board:
    m = parse("toy", TOY_MAP)
    tiles = tuple(Tile(h.q, h.r, h.terrain, h.numbers[0] if h.numbers else 0)  # type: ignore[arg-type]
                  for h in m.fixed)
    return Board(tiles, (), m)


def test_a_centre_vertex_and_its_path_come_after_the_ordinary_ids() -> None:
    b = board()
    plaza, corner = b.parse_vertex(PLAZA), b.parse_vertex(CORNER)
    assert plaza == b.n_vertices - 1
    spoke = b.parse_edge(f"{PLAZA}|{CORNER}")
    assert spoke == b.n_edges - 1
    assert set(b.topo.edge_vertices[spoke]) == {plaza, corner}
    assert corner in b.topo.vertex_neighbours[plaza]


def test_several_numbers_per_hex_and_edge_features() -> None:
    b = board()
    centre, forest = b.parse_hex("(0,0)"), b.parse_hex("(1,-1)")
    assert b.hex_numbers[centre] == (2, 12)
    assert b.hex_number[centre] == 2
    assert b.hex_numbers[forest] == (3, 11)
    assert centre in b.number_hexes[12]
    assert forest in b.number_hexes[11]
    assert b.edge_features["bridge_site"] == frozenset({b.parse_edge("(0,0)/(1,-1)")})
    assert b.mapdata is not None
    assert b.mapdata.slots[0].pieces == (("settlement", CORNER),)


def test_the_base_map_keeps_its_layouts() -> None:
    m = load_map("base")
    assert m.layout == "variable"
    assert len(m.fixed) == 19
    assert len(m.frame) == 18
    assert m.variable is not None
    assert m.variable.rings == (12, 6, 1)


def test_a_modules_map_is_played_with_its_pre_placed_pieces_and_numbers() -> None:
    from toy import toy

    from services.rules.engine.mapdata import MapData, register_map
    from services.rules.engine.ruleset import SetupRound
    from services.rules.engine.vocab import PieceKind

    base = load_map("base")
    slots = (
        {"pieces": [["settlement", "(0,-2)/(0,-3)/(1,-3)"], ["ship", "(0,-3)/(1,-3)"]]},
        {"pieces": [["settlement", "(0,2)/(-1,3)/(0,3)"], ["ship", "(-1,3)/(0,3)"]]},
    )
    m = parse("toy-isles", {
        "name": "toy-isles", "layout": "fixed", "robber": "none",
        "fixed": [[h.q, h.r, "lake" if (h.q, h.r) == (0, 0) else h.terrain,
                   list(h.numbers) if h.numbers else 0] for h in base.fixed],
        "frame": [list(h) for h in base.frame],
        "terrain_numbers": {"lake": [2, 3, 11, 12]},
        "slots": list(slots),
    })
    register_map(m)
    assert isinstance(m, MapData)

    def install(rules) -> None:  # type: ignore[no-untyped-def]
        rules.vocab.add_terrain("lake")
        rules.vocab.add_piece(PieceKind("ship", "edge", 15, route=True, weight=2))
        rules.settings(setup=(SetupRound(resources=True),))  # one round after the pre-placed

    t = toy("toy-isles-module", install, seats=2, map="toy-isles")
    assert t.created.map == "toy-isles"
    assert t.created.robber is None
    assert t.created.setup["terrain:lake"] == [0, 0, 0]  # a module terrain, off the tiles
    lake = t.hex("(0,0)")
    assert t.state.board.hex_terrain[lake] == "lake"
    assert t.state.board.hex_numbers[lake] == (2, 3, 11, 12)
    for seat in (0, 1):
        p = t.state.players[seat]
        assert len(p.settlements) == 2
        assert len(p.pieces["ship"]) == 1
        ship = next(iter(p.pieces["ship"]))
        assert t.state.rules.hooks.route_weight is not None
        assert t.state.rules.hooks.route_weight(t.state, seat, ship) == 2


def test_terrain_pools_with_numbers_printed_in_place() -> None:
    """Barbarian Attack: the coastal and the inner hexes shuffle apart, tokens stay put."""
    from services.rules.engine import layout
    from services.rules.engine.chance import SeededDealer

    base = load_map("base")
    outer = [list(h) for h in base.variable.spiral[:12]]  # type: ignore[union-attr]
    inner = [list(h) for h in base.variable.spiral[12:18]]  # type: ignore[union-attr]
    m = parse("toy-pools", {
        "name": "toy-pools", "layout": "variable", "shuffle_harbors": True,
        "fixed": [[h.q, h.r, h.terrain, list(h.numbers) or 0] for h in base.fixed],
        "frame": [list(h) for h in base.frame],
        "harbors": [[s[0], s[1], g[0], g[1], k] for s, g, k in base.harbors],
        "variable": {"numbers": "fixed", "keep": [[0, 0]], "pools": [
            {"hexes": outer, "terrain": {"forest": 3, "hills": 3, "pasture": 3, "fields": 3}},
            {"hexes": inner, "terrain": {"mountains": 3, "pasture": 1, "forest": 1, "fields": 1}},
        ]},
    })
    laid, harbors = layout.lay(m, SeededDealer(b"pools"), use_fixed=False)
    by_hex = {(q, r): (t, n) for q, r, t, n in laid}
    assert all(by_hex[tuple(h)][0] != "mountains" for h in outer)  # type: ignore[index]
    assert [by_hex[(h.q, h.r)][1] for h in base.fixed] == [
        h.numbers[0] if h.numbers else 0 for h in base.fixed]
    assert by_hex[(0, 0)] == ("desert", 0)
    fixed_laid, fixed_harbors = layout.lay(m, SeededDealer(b"pools"), use_fixed=True)
    assert sorted(h.kind for h in fixed_harbors) == sorted(k for *_, k in base.harbors)
