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
