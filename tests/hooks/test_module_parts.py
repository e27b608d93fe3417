"""A module owns its wire types (registry), its bot advice and its narration."""

import pytest

from events.catan_for_two import DiceRerolled
from events.events import Event
from events.registry import EVENTS, register
from services.render.narrate import Context, narrate
from services.rules.engine.modules import MODULES, advice_for
from services.rules.engine.testing import Table


def test_the_wire_registry_refuses_a_tag_for_another_shape() -> None:
    assert EVENTS["DiceRerolled"] is DiceRerolled

    class DiceRerolled2(Event, frozen=True, kw_only=True, tag="DiceRerolled"):
        other: int

    with pytest.raises(ValueError, match="taken"):
        register(Event, DiceRerolled2)


def test_modules_give_advice_and_narrate_their_events() -> None:
    assert MODULES["catan-for-two"].advice in advice_for(("catan-for-two",))
    t = Table()
    line = narrate(DiceRerolled(seat=0, d1=3, d2=4, n=2), Context(t.state.names, t.state.board))
    assert "again" in line
    assert not line.startswith("DiceRerolled")


def test_a_module_draws_its_pieces_on_the_text_board() -> None:
    from toy import toy

    from services.render.text import render_board

    def drawing(state, sketch) -> None:  # type: ignore[no-untyped-def]
        sketch.mark("hex", state.board.parse_hex("(0,0)"), "~B~")  # a barbarian

    t = toy("toy-drawing", lambda rules: None, parts={"drawing": drawing})
    assert "~B~" in render_board(t.state)
    assert "~B~" not in render_board(Table().state)
