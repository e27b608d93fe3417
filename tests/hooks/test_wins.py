"""Hook `wins`: a win predicate beyond total VP (Pirate Islands: fortress and 10 VP; Oil
Springs may end with no winner)."""

from toy import toy

from events.commands import BuildRoad
from events.events import GameFinished
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.roads import legal_road_edges
from services.rules.engine.state import Rules


def test_a_module_decides_who_wins() -> None:
    def install(rules: Rules) -> None:
        rules.set_hook(hk.WINS, lambda state, seat: len(state.players[seat].roads) >= 3)

    t = toy("toy-wins", install)
    t.turn_of(0)
    t.give(0, lumber=1, brick=1)
    events = t.when(BuildRoad(seat=0, edge=legal_road_edges(t.state, 0)[0]))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


def test_a_module_vp_event_triggers_the_victory_check() -> None:
    """`rules.registry.vp_events`: an event after which a module's VP bonus may have changed (no
    building, no award) is followed by the victory check."""
    from events.commands import EndTurn
    from events.events import TurnEnded

    rich: set[int] = set()

    def install(rules: Rules) -> None:
        rules.add_hook(hk.VP_BONUS, lambda state, seat, public: 8 if seat in rich else 0)
        rules.registry.vp_events.add(TurnEnded)

    t = toy("toy-vp-events", install)
    t.turn_of(0)
    rich.add(1)
    events = t.when(EndTurn(seat=0))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 1
