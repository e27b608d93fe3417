"""Per-ruleset vocabularies: a module adds a resource with its own bank and hand limit (oil), a
development card, a terrain and a piece kind; vectors widen, the base indices stay."""

from toy import toy

from services.rules.engine.base.sites import pieces_left
from services.rules.engine.vocab import PieceKind


def test_a_module_extends_the_vocabularies() -> None:
    def install(rules) -> None:  # type: ignore[no-untyped-def]
        v = rules.vocab
        v.add_resource("oil", bank=15, hand_limit=4)
        v.add_terrain("oil_spring", "oil")
        v.add_dev_card("treason", 4)
        v.add_piece(PieceKind("metropolis", "vertex", 4, level=3, vp=3))
        rules.costs["metropolis"] = (0, 1, 0, 1, 1, 2)

    t = toy("toy-oil", install)
    vocab = t.state.rules.vocab
    assert vocab.resources[:5] == ("lumber", "brick", "wool", "grain", "ore")
    assert vocab.resource_index["oil"] == 5
    assert t.state.bank[5] == 15
    assert all(len(p.hand) == 6 and len(p.dev) == 6 for p in t.state.players)
    assert len(t.state.rules.costs["road"]) == 6  # base costs padded to the new width
    assert vocab.terrains["oil_spring"] == 5
    assert t.state.deck[vocab.dev_index["treason"]] == 4
    assert pieces_left(t.state, 0, "metropolis") == 4
    t.give(0, oil=2)
    assert t.hand(0) == {"oil": 2}


def test_a_module_resource_never_goes_silently_into_a_base_event() -> None:
    import pytest

    from events.commands import MoveRobber
    from services.rules.engine import pending

    stolen: list[tuple[int, int]] = []

    def install(rules) -> None:  # type: ignore[no-untyped-def]
        rules.vocab.add_resource("oil", bank=15, hand_limit=4)

        def steal_oil(state, thief, victim, dealer):  # type: ignore[no-untyped-def]
            stolen.append((thief, victim))  # a module would take oil with its own event
            return []

        rules.steal = steal_oil

    t = toy("toy-oil-steal", install)
    vocab = t.state.rules.vocab
    with pytest.raises(ValueError, match="oil"):
        vocab.wire_bundle([0, 0, 0, 0, 0, 2])
    assert vocab.wire_bundle([1, 0, 0, 0, 0, 0]) == {"lumber": 1}
    t.turn_of(0)
    t.state.phase = "robber"
    options = pending(t.state)[0].options
    option = next(o for o in options if isinstance(o, MoveRobber) and o.victim is not None)
    t.give(option.victim, oil=1)
    t.when(option)
    assert stolen == [(0, option.victim)]
