"""A module resource (oil) in the bank and the hands: views show the base five in their bundles
and the module's resources beside them (`ext["resources"]`), a seat's own only."""

from toy import toy

from services.rules.engine import view
from services.rules.engine.state import Rules


def test_a_view_shows_the_base_bundles_and_the_module_resource_beside_them() -> None:
    def install(rules: Rules) -> None:
        rules.vocab.add_resource("oil", bank=15, hand_limit=4)

    t = toy("toy-oil-view", install)
    t.give(0, oil=2, ore=1)
    mine = view(t.state, 0)
    assert mine.players[0].hand == {"ore": 1}
    assert mine.bank["ore"] == 18
    assert mine.ext["resources"] == {"bank": {"oil": 13}, "hands": {0: {"oil": 2}}}
    theirs = view(t.state, 1)
    assert theirs.players[0].hand is None
    assert 0 not in theirs.ext["resources"]["hands"]  # only its own (empty) entry
