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
        rules.cost("metropolis", (0, 1, 0, 1, 1, 2))

    t = toy("toy-oil", install)
    vocab = t.state.rules.vocab
    assert vocab.resources[:5] == ("lumber", "brick", "wool", "grain", "ore")
    assert vocab.resource_index["oil"] == 5
    assert t.state.bank[5] == 15
    assert all(len(p.hand) == 6 and len(p.dev) == 6 for p in t.state.players)
    assert len(t.state.rules.cache.costs["road"]) == 6  # base costs padded to the new width
    assert vocab.terrains["oil_spring"] == 5
    assert t.state.deck[vocab.dev_index["treason"]] == 4
    assert pieces_left(t.state, 0, "metropolis") == 4
    t.give(0, oil=2)
    assert t.hand(0) == {"oil": 2}


def test_a_module_resource_travels_in_the_base_commands_and_events() -> None:
    from events.commands import MoveRobber, PlayMonopoly
    from services.rules.engine import pending

    def install(rules) -> None:  # type: ignore[no-untyped-def]
        rules.vocab.add_resource("oil", bank=15, hand_limit=4)

    t = toy("toy-oil-wire", install)
    vocab = t.state.rules.vocab
    assert vocab.wire_bundle([0, 0, 0, 0, 0, 2]) == {"oil": 2}
    assert vocab.wire_bundle([1, 0, 0, 0, 0, 0]) == {"lumber": 1}
    t.turn_of(0)
    t.give_dev(0, "monopoly")
    t.give(1, oil=2)
    events = t.when(PlayMonopoly(seat=0, resource="oil"))  # the base card, on the toy's oil
    assert events[0].resource == "oil"
    assert events[0].taken[1] == 2
    assert t.hand(0)["oil"] == 2
    t.state.phase = "robber"
    move = next(o for o in pending(t.state)[0].options if isinstance(o, MoveRobber))
    # The base robber draws its card at random: naming one is no rule of the base game.
    t.rejects(MoveRobber(seat=0, hex=move.hex, victim=move.victim, take="oil"),
              "base.robber.no_choice")


def test_a_name_the_vocabulary_does_not_know_is_refused_with_the_field() -> None:
    from events.commands import MaritimeTrade

    t = toy("toy-no-oil", lambda rules: None)
    t.turn_of(0)
    t.give(0, ore=4)
    r = t.rejects(MaritimeTrade(seat=0, give="ore", get="oil"), "base.vocab.unknown_resource")
    assert "MaritimeTrade.get" in r.message
    assert "lumber, brick, wool, grain, ore" in r.message
