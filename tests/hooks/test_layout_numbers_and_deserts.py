"""Two board extensions a scenario uses: numbers decided with the layout (`numbers:extra` in
`GameCreated.setup`, e.g. a token joining the hex of another) and desert-like terrains (a
barren module terrain that rules naming "the desert" mean too, `Board.desert_hexes`)."""

import pytest

from events.events import Tile
from services.rules.engine import layout
from services.rules.engine.board import Board
from services.rules.engine.mapdata import parse
from services.rules.engine.vocab import base_vocabulary

TOY_MAP = {
    "name": "toy-barren", "layout": "fixed",
    "fixed": [[0, 0, "forest", 12], [1, -1, "bog", 0], [0, -1, "desert", 0]],
}


def test_extra_numbers_from_setup_join_a_hex_and_its_token_stays_first() -> None:
    setup = {layout.EXTRA_NUMBERS: [0, 0, 2], "terrain:bog": [1, -1, 0]}
    assert layout.extra_numbers(setup) == [((0, 0), 2)]
    assert layout.from_setup(setup) == [(1, -1, "bog", 0)]  # the numbers key is no terrain
    m = parse("toy-barren", TOY_MAP)
    tiles = (Tile(0, 0, "forest", 12), Tile(0, -1, "desert", 0))
    terrains = dict(base_vocabulary().terrains) | {"bog": -1}
    b = Board(tiles, (), m, layout.from_setup(setup), terrains,
              extra_numbers=layout.extra_numbers(setup))
    h = b.hex_id((0, 0))
    assert b.hex_numbers[h] == (12, 2)
    assert b.hex_number[h] == 12
    assert b.number_hexes[2] == (h,)
    assert b.number_hexes[12] == (h,)


def test_a_desert_like_terrain_is_in_desert_hexes_beside_the_desert() -> None:
    vocab = base_vocabulary()
    vocab.add_terrain("bog", desert=True)
    assert vocab.deserts == {"desert", "bog"}
    m = parse("toy-barren", TOY_MAP)
    tiles = (Tile(0, 0, "forest", 12), Tile(0, -1, "desert", 0))
    b = Board(tiles, (), m, [(1, -1, "bog", 0)], vocab.terrains, deserts=frozenset(vocab.deserts))
    assert b.desert_hexes == (b.hex_id((0, -1)), b.hex_id((1, -1)))
    plain = Board(tiles, (), m, [(1, -1, "bog", 0)], vocab.terrains)
    assert plain.desert_hexes == (b.hex_id((0, -1)),)


def test_a_desert_like_terrain_must_yield_nothing() -> None:
    vocab = base_vocabulary()
    with pytest.raises(ValueError, match="yields"):
        vocab.add_terrain("bad", "ore", desert=True)
