"""Names in commands are checked against the game's vocabulary when the command is decided
(services/rules/engine/vocab_check.py): the wire carries any name, an unknown one is a
rejection naming the field and the names the game knows, never a KeyError; a known one
reaches the rules."""

from __future__ import annotations

import pytest

from events.commands import (
    DiscardResources,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    PlayMonopoly,
    PlayYearOfPlenty,
    ProposeTrade,
    RollDice,
)
from events.events import ModuleSpec
from services.rules.engine import pending
from services.rules.engine.base.trade import maritime
from services.rules.engine.base.turn import discard, end_turn, move_robber, roll_dice
from services.rules.engine.testing import Table

BASE_NAMES = "lumber, brick, wool, grain, ore"


def main_phase() -> Table:
    t = Table()
    t.turn_of(0)
    t.give(0, ore=4, wool=2)
    return t


@pytest.mark.parametrize(("command", "field"), [
    (MaritimeTrade(seat=0, give="ore", get="oil"), "MaritimeTrade.get"),
    (MaritimeTrade(seat=0, give="gold", get="wool"), "MaritimeTrade.give"),
    (PlayYearOfPlenty(seat=0, resources=("ore", "oil")), "PlayYearOfPlenty.resources"),
    (PlayMonopoly(seat=0, resource="Ore"), "PlayMonopoly.resource"),
])
def test_rejects_base_vocab_unknown_resource_naming_the_field_and_the_known_names(
        command: MaritimeTrade | PlayYearOfPlenty | PlayMonopoly, field: str) -> None:
    t = main_phase()
    t.give_dev(0, "year_of_plenty")
    t.give_dev(0, "monopoly")
    r = t.rejects(command, "base.vocab.unknown_resource")
    assert r.message.startswith(f"{field}: ")
    assert r.message.endswith(f"(it knows {BASE_NAMES})")
    assert "\n" not in r.message


def test_rejects_base_vocab_unknown_resource_in_a_discard_and_in_the_robbers_take() -> None:
    t = Table()
    t.turn_of(0, rolled=False)
    t.give(1, ore=8)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    r = t.rejects(DiscardResources(seat=1, resources={"ore": 3, "oil": 1}),
                  "base.vocab.unknown_resource")
    assert "DiscardResources.resources: 'oil'" in r.message
    t.when(DiscardResources(seat=1, resources={"ore": 4}))
    move = next(o for o in pending(t.state)[0].options if isinstance(o, MoveRobber))
    t.rejects(MoveRobber(seat=0, hex=move.hex, victim=move.victim, take="oil"),
              "base.vocab.unknown_resource")


def test_rejects_base_vocab_unknown_trade_good_gold_in_a_game_without_a_currency() -> None:
    t = main_phase()
    r = t.rejects(ProposeTrade(seat=0, give={"ore": 1}, get={"gold": 1}),
                  "base.vocab.unknown_trade_good")
    assert r.message == ("ProposeTrade.get: 'gold' is not a trade good of this game "
                         f"(it knows {BASE_NAMES})")


def test_rejects_base_robber_no_choice_when_the_thief_names_a_card_of_the_base_game() -> None:
    t = Table()
    t.turn_of(0)
    t.state.phase = "robber"
    move = next(o for o in pending(t.state)[0].options
                if isinstance(o, MoveRobber) and o.victim is not None)
    t.give(move.victim, ore=1)
    t.rejects(MoveRobber(seat=0, hex=move.hex, victim=move.victim, take="ore"),
              "base.robber.no_choice")
    assert t.when(move)[0].hex == move.hex  # the move itself, without `take`, stands


def test_a_command_without_names_keeps_its_handler_unwrapped() -> None:
    """The check costs nothing on the hot path of a roll or the end of a turn; the maritime
    trade and the robber check their own names where they look them up (SELF_CHECKED)."""
    handlers = Table().state.rules.registry.handlers
    assert handlers[RollDice] is roll_dice
    assert handlers[EndTurn] is end_turn
    assert handlers[MaritimeTrade] is maritime
    assert handlers[MoveRobber] is move_robber
    assert handlers[DiscardResources] is not discard  # names: checked, then the rules


def test_a_self_checking_handler_a_module_wraps_is_checked_before_the_module() -> None:
    """Oil Springs wraps the maritime trade (oil refused): a name neither knows is refused by
    the vocabulary's check in front of the module's rule."""
    t = Table(modules=[ModuleSpec(name="oil-springs")])
    t.finish_setup()
    t.turn_of(0)
    t.give(0, ore=4)
    assert t.state.rules.registry.handlers[MaritimeTrade] is not maritime
    t.rejects(MaritimeTrade(seat=0, give="ore", get="coal"), "base.vocab.unknown_resource")
    t.rejects(MaritimeTrade(seat=0, give="ore", get="oil"), "oil_springs.oil.no_maritime")
