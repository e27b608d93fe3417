"""The robber off the board (combinations.md §13.3): a `robber_hexes` hook may offer the place
`OFF_BOARD` (-1) and a `MoveRobber` there takes the robber off the board, robbing nobody;
`robber_refuges` (where Friendly Robber, Robber Flees and Catan for Two send the robber) is the
desert, or off the board on a desertless map whose robber starts off it."""

from __future__ import annotations

from toy import toy

from events.commands import MoveRobber, PlayKnight
from events.events import RobberMoved
from services.rules.engine import hook_keys as hk
from services.rules.engine import pending
from services.rules.engine.base.turn import OFF_BOARD, robber_refuges
from services.rules.engine.mapdata import load_map, parse, register_map
from services.rules.engine.state import NO_ONE, Rules, State


def test_a_hook_offering_off_board_takes_the_robber_off() -> None:
    def install(rules: Rules) -> None:
        rules.set_hook(hk.ROBBER_HEXES, lambda state, seat: [OFF_BOARD])

    t = toy("toy-robber-off", install)
    t.give_dev(0, "knight")
    t.turn_of(0)
    t.when(PlayKnight(seat=0))
    assert pending(t.state)[0].options == [MoveRobber(seat=0, hex=OFF_BOARD)]
    events = t.when(MoveRobber(seat=0, hex=OFF_BOARD))
    assert events == [RobberMoved(seat=0, hex=OFF_BOARD)]
    assert t.state.robber == NO_ONE


def test_off_board_is_refused_when_no_hook_offers_it() -> None:
    t = toy("toy-robber-on", lambda rules: None)
    t.give_dev(0, "knight")
    t.turn_of(0)
    t.when(PlayKnight(seat=0))
    t.rejects(MoveRobber(seat=0, hex=OFF_BOARD), "base.place.unknown")


def test_robber_refuges_are_the_desert_else_off_the_board_on_an_off_board_map() -> None:
    t = toy("toy-refuge-base", lambda rules: None)
    assert robber_refuges(t.state) == t.state.board.desert_hexes
    base = load_map("base")
    register_map(parse("toy-no-desert", {
        "name": "toy-no-desert", "layout": "fixed", "robber": "none",
        "fixed": [[h.q, h.r, "lake" if h.terrain == "desert" else h.terrain,
                   list(h.numbers) if h.numbers else 0] for h in base.fixed],
        "frame": [list(h) for h in base.frame],
    }))

    def install(rules: Rules) -> None:
        rules.vocab.add_terrain("lake")

    t2 = toy("toy-refuge-off", install, map="toy-no-desert")
    state: State = t2.state
    assert state.robber == NO_ONE
    assert robber_refuges(state) == (OFF_BOARD,)
