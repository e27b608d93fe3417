"""Hook `route_weight`: a route piece counting more than one road (Caravans: a road beside a
camel counts 2)."""

from toy import toy

from services.rules.engine import hook_keys as hk
from services.rules.engine.base.roads import longest_road
from services.rules.engine.state import Rules


def test_weighted_edges_lengthen_the_longest_road() -> None:
    camels: set[int] = set()

    def install(rules: Rules) -> None:
        rules.set_hook(hk.ROUTE_WEIGHT, lambda state, seat, edge: 2 if edge in camels else 1)

    t = toy("toy-camels", install)
    plain = longest_road(t.state, 0)
    camels.update(t.state.players[0].roads)
    assert longest_road(t.state, 0) == 2 * plain
