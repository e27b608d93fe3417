"""Hook `robber_home`: where a rule that sends the robber "to the desert" sends it. The base
answers the first desert; a module may answer off the board (-1), which Friendly Robber's last
resort and Event Cards' Robber Flees then use, and which `MoveRobber` accepts only there."""

from toy import toy

from events.commands import MoveRobber
from events.events import ModuleSpec, RobberMoved
from services.rules.engine import hook_keys as hk
from services.rules.engine import pending
from services.rules.engine.state import NO_ONE, ROBBER, Rules
from services.rules.engine.testing import Table


def test_the_base_home_is_the_desert() -> None:
    t = Table()
    assert t.state.rules.hooks.robber_home(t.state) == t.hex("(0,0)")


def test_a_module_sends_the_robber_off_the_board_and_only_there() -> None:
    def install(rules: Rules) -> None:
        rules.set_hook(hk.ROBBER_HOME, lambda state: NO_ONE)
        rules.set_hook(hk.ROBBER_HEXES, lambda state, seat: [NO_ONE])  # a toy rule: nowhere but off

    t = toy("toy-robber-home", install)
    assert t.state.rules.hooks.robber_home(t.state) == NO_ONE
    t.turn_of(0)
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    assert pending(t.state)[0].options == [MoveRobber(seat=0, hex=NO_ONE)]
    assert t.when(MoveRobber(seat=0, hex=NO_ONE)) == [RobberMoved(seat=0, hex=NO_ONE, victim=None)]
    assert t.state.robber == NO_ONE


def test_off_the_board_is_refused_where_no_rule_sends_the_robber_there() -> None:
    t = Table(modules=[ModuleSpec(name="friendly-robber")])
    t.turn_of(0)
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    t.rejects(MoveRobber(seat=0, hex=NO_ONE), "base.place.unknown")
