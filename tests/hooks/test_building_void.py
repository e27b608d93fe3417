"""Hook `building_void`: a building that stays on the board but counts for nothing (a Barbarian
Attack conquest); Harbormaster gives it no harbor points."""

from toy import toy

from services.rules.engine import hook_keys as hk
from services.rules.engine.state import Rules
from services.rules.engine.variants.harbormaster import harbor_points


def test_a_voided_building_earns_no_harbor_points() -> None:
    voided: set[int] = set()

    def install(rules: Rules) -> None:
        rules.add_hook(hk.BUILDING_VOID, lambda state, seat, v: v in voided)

    t = toy("toy-void", install, seats=3)
    harbor = [v for v, k in enumerate(t.state.board.vertex_harbor) if k is not None]
    free = next(v for v in harbor if t.state.vertex_owner[v] < 0)
    t.place(0, free, city=True)
    before = harbor_points(t.state, 0)
    assert before >= 2
    voided.add(free)
    assert harbor_points(t.state, 0) == before - 2
