"""Traders & Barbarians with Catan for Two (docs/rules/traders-and-barbarians.md §10.14): tolls
on neutral roads split, the token action that relocates a barbarian, the extra token next to a
trade hex, the second roll without 2 and 12; two-seat games end and audit clean."""

from __future__ import annotations

import pytest
from recording import Recorder, bot_chooser
from tb_helpers import CORNER, CORNER_TO_INLAND, INLAND, TB, put_wagon, table, tb

from events.catan_for_two import TradeTokensGained
from events.commands import BuildSettlement, RollDice
from events.events import DiceRolled, ModuleSpec
from events.traders_and_barbarians import MoveBarbarianWithTokens, MoveWagon, WagonMoved
from services.audit.archive import dump_lines, read_lines
from services.audit.audit import audit
from services.rules.engine import chance_outcomes, pending
from services.rules.engine.variants.catan_for_two.common import two

C4T = ModuleSpec(name="catan-for-two")
NEUTRAL = 2  # the first neutral owner of a two-seat game
FREE = "(1,0)/(2,-1)"


def test_traders_and_barbarians_two_player_neutral_toll() -> None:
    t = table(seats=2, modules=(C4T,))
    t.turn_of(0)
    put_wagon(t, 0, INLAND)
    edge = t.edge(CORNER_TO_INLAND)
    t.road(NEUTRAL, edge)
    (_, step) = t.when(MoveWagon(seat=0, edge=edge))
    assert isinstance(step, WagonMoved)
    assert (step.toll, step.to_bank, step.toll_to) == (1, 1, None)  # the bank's larger half
    assert tb(t).gold == [4, 5]


def test_traders_and_barbarians_two_player_neutral_toll_of_two_is_shared() -> None:
    t = table(seats=2, modules=(C4T,))
    t.turn_of(0)
    put_wagon(t, 0, INLAND)
    edge = t.edge(CORNER_TO_INLAND)
    t.road(NEUTRAL, edge)
    t.state.players[NEUTRAL].pieces["bridge"] = {edge}  # a toll of 2 (a bridge's)
    (_, step) = t.when(MoveWagon(seat=0, edge=edge))
    assert isinstance(step, WagonMoved)
    assert (step.toll, step.to_bank, step.toll_to) == (2, 1, 1)
    assert tb(t).gold == [3, 6]


def test_traders_and_barbarians_two_player_token_barbarian() -> None:
    t = table(seats=2, modules=(C4T,))
    t.turn_of(0)
    options = [o for o in pending(t.state)[0].options if isinstance(o, MoveBarbarianWithTokens)]
    assert options
    assert all(t.state.edge_owner[o.edge] == -1 for o in options)
    t.road(1, t.edge(FREE))
    t.rejects(MoveBarbarianWithTokens(seat=0, barbarian=0, edge=t.edge(FREE)),
              "traders_and_barbarians.two_player.token_barbarian")  # a path with a road
    t.rejects(MoveBarbarianWithTokens(seat=0, barbarian=0, edge=tb(t).barbarians[1]),
              "traders_and_barbarians.two_player.token_barbarian")  # a path with a barbarian
    tokens = two(t.state).tokens[0]
    edge = t.edge("(1,-1)/(2,-1)")
    t.when(MoveBarbarianWithTokens(seat=0, barbarian=0, edge=edge))
    assert tb(t).barbarians[0] == edge
    assert two(t.state).tokens[0] == tokens - 1
    t.rejects(MoveBarbarianWithTokens(seat=0, barbarian=1, edge=t.edge("(1,-1)/(1,0)")),
              "catan_for_two.token.once_per_turn")


def test_traders_and_barbarians_two_player_token_barbarian_is_a_command_only_with_catan_for_two() -> None:
    t = table()
    t.turn_of(0)
    assert not any(isinstance(o, MoveBarbarianWithTokens) for o in pending(t.state)[0].options)
    # The pair's rule: without Catan for Two the command is no part of the game.
    t.rejects(MoveBarbarianWithTokens(seat=0, barbarian=0, edge=t.edge("(1,-1)/(2,-1)")),
              "base.command.unknown")


def test_traders_and_barbarians_two_player_trade_hex_token() -> None:
    t = table(seats=2, modules=(C4T,))
    t.turn_of(0)
    t.road(0, t.edge("(1,-1)/(2,-1)"))
    t.road(0, t.edge("(1,-1)/(1,0)"))
    t.give(0, lumber=1, brick=1, wool=1, grain=1)
    before = two(t.state).tokens[0]
    events = t.when(BuildSettlement(seat=0, vertex=t.vertex(CORNER)))
    gains = [e for e in events if isinstance(e, TradeTokensGained)]
    assert [g.reason for g in gains] == ["trade hex"]
    assert two(t.state).tokens[0] == before + 1


def test_traders_and_barbarians_roll_reroll_on_the_second_roll_of_catan_for_two() -> None:
    t = table(seats=2, modules=(C4T,))
    t.turn_of(0, rolled=False)
    t.script("dice", (4, 5))
    t.when(RollDice(seat=0))
    totals = set()
    outcomes = chance_outcomes(t.state, RollDice(seat=0))
    assert sum(p for p, _ in outcomes) == 1
    for _, events in outcomes:
        rolled = next(e for e in events if isinstance(e, DiceRolled))
        totals.add(rolled.d1 + rolled.d2)
    assert totals == set(range(3, 12)) - {9}


@pytest.mark.parametrize(("seed", "first"), [(b"two-1", True), (b"two-2", False)])
def test_two_seat_games_with_catan_for_two_end_and_audit_clean(seed: bytes, first: bool) -> None:
    modules = [TB, C4T] if first else [C4T, TB]
    rec = Recorder.new("g-tb-two", seed, seats=2, modules=modules, turn_limit=150)
    rec.play(bot_chooser(["heuristic", "random"]), max_decisions=50_000)
    assert rec.state.finished
    _, record = read_lines(list(dump_lines(rec.record(), "finished")))
    assert audit(record).exit_code == 0
    names = {type(r.event).__name__ for r in record.events}
    assert "DiceRerolled" not in names
