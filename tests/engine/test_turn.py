"""The turn and the command gate (docs/rules/base.md §1.4; docs/design.md "Rule ids"):
unknown, malformed, out-of-turn and out-of-phase commands, rolling once and first, ending a
turn, and the end of the game."""

from __future__ import annotations

import pytest
from engine_helpers import SIDE_NE, N, corner, side

from events.commands import (
    BuildRoad,
    BuyDevelopmentCard,
    DiscardResources,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    PlaceSettlement,
    PlayKnight,
    PlayMonopoly,
    ProposeTrade,
    RollDice,
)
from events.events import DiceRolled, GameFinished, ResourcesProduced, TurnEnded
from services.rules.engine import decide, evolve, initial_state, new_game, pending
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import MAIN, OVER, ROBBER, ROLL
from services.rules.engine.testing import Table


def test_rejects_base_command_unknown_for_a_command_outside_the_ruleset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = Table()
    # A ruleset without EndTurn (as a module could define one) does not know the command.
    # (The base ruleset is shared: monkeypatch puts its handlers back after the test.)
    rules = t.state.rules
    handlers = rules.registry.handlers
    monkeypatch.setattr(rules.registry, "handlers", {k: v for k, v in handlers.items() if k is not EndTurn})
    t.script("dice", (2, 2))
    t.when(RollDice(seat=0))
    t.rejects(EndTurn(seat=0), "base.command.unknown")
    monkeypatch.setattr(rules.registry, "handlers", handlers)
    t.when(EndTurn(seat=0))


def test_rejects_base_command_invalid_for_negative_card_counts() -> None:
    t = Table()
    t.give(0, ore=2, wool=2)
    t.script("dice", (3, 3))
    t.when(RollDice(seat=0))
    t.rejects(ProposeTrade(seat=0, give={"ore": -1}, get={"wool": 1}), "base.command.invalid")
    t.rejects(ProposeTrade(seat=0, give={"ore": 1, "wool": -1}, get={"grain": 1}),
              "base.command.invalid")
    t.when(ProposeTrade(seat=0, give={"ore": 1}, get={"grain": 1}))


def test_rejects_base_command_invalid_for_a_negative_discard() -> None:
    t = Table()
    t.give(0, ore=8, wool=2)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    t.rejects(DiscardResources(seat=0, resources={"ore": 6, "wool": -1}), "base.command.invalid")
    t.when(DiscardResources(seat=0, resources={"ore": 5}))


def test_rejects_base_seat_unknown_for_a_seat_outside_the_game() -> None:
    t = Table(seats=3)
    t.rejects(RollDice(seat=3), "base.seat.unknown")
    t.rejects(RollDice(seat=-1), "base.seat.unknown")
    t.when(RollDice(seat=0))


def test_rejects_base_turn_not_your_turn_for_another_seats_roll_or_build() -> None:
    t = Table()
    t.rejects(RollDice(seat=1), "base.turn.not_your_turn")
    t.script("dice", (2, 3))
    t.when(RollDice(seat=0))
    t.give(1, brick=1, lumber=1)
    t.rejects(BuildRoad(seat=1, edge=side(t, (1, 0), SIDE_NE)), "base.turn.not_your_turn")
    t.rejects(EndTurn(seat=1), "base.turn.not_your_turn")
    t.when(EndTurn(seat=0))
    t.when(RollDice(seat=1))


def test_rejects_base_turn_wrong_phase_for_commands_of_another_phase() -> None:
    t = Table()
    t.rejects(MoveRobber(seat=0, hex=t.hex("(1,0)")), "base.turn.wrong_phase")
    t.rejects(DiscardResources(seat=0, resources={}), "base.turn.wrong_phase")
    t.rejects(PlaceSettlement(seat=0, vertex=corner(t, (1, 0), N)), "base.turn.wrong_phase")
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    assert t.state.phase == ROBBER
    t.rejects(EndTurn(seat=0), "base.turn.wrong_phase")
    t.when(MoveRobber(seat=0, hex=t.hex("(2,0)")))
    assert t.state.phase == MAIN


def test_rejects_base_roll_already_for_a_second_roll_in_a_turn() -> None:
    t = Table()
    t.script("dice", (1, 2))
    t.when(RollDice(seat=0))
    t.rejects(RollDice(seat=0), "base.roll.already")
    t.when(EndTurn(seat=0))
    t.when(RollDice(seat=1))


def test_rejects_base_roll_already_while_the_robber_of_a_rolled_seven_waits() -> None:
    t = Table()
    t.script("dice", (6, 1))
    t.when(RollDice(seat=0))
    assert t.state.phase == ROBBER
    t.rejects(RollDice(seat=0), "base.roll.already")


@pytest.mark.parametrize(
    "command",
    [
        EndTurn(seat=0),
        BuyDevelopmentCard(seat=0),
        MaritimeTrade(seat=0, give="ore", get="wool"),
        ProposeTrade(seat=0, give={"ore": 1}, get={"wool": 1}),
        PlayMonopoly(seat=0, resource="ore"),
    ],
    ids=lambda c: type(c).__name__,
)
def test_rejects_base_roll_required_for_trading_building_or_ending_before_the_roll(command: object) -> None:
    t = Table()
    t.give(0, ore=4, wool=1, grain=1)
    t.give_dev(0, "monopoly")
    t.rejects(command, "base.roll.required")  # type: ignore[arg-type]
    t.script("dice", (2, 3))
    t.when(RollDice(seat=0))
    t.when(command)  # type: ignore[arg-type]


def test_rejects_base_roll_required_for_a_road_before_the_roll_but_a_knight_may_come_first() -> None:
    t = Table()
    t.give(0, brick=1, lumber=1)
    edge = next(iter(t.state.players[0].roads))
    a, b = t.state.board.topo.edge_vertices[edge]
    free = [e for e in t.state.board.topo.vertex_edges[a] + t.state.board.topo.vertex_edges[b]
            if t.state.edge_owner[e] == -1 and t.state.board.topo.edge_is_land[e]]
    t.rejects(BuildRoad(seat=0, edge=free[0]), "base.roll.required")
    t.give_dev(0, "knight")
    t.when(PlayKnight(seat=0))
    assert t.state.phase == ROBBER


def test_a_roll_produces_and_moves_to_the_main_phase_and_end_turn_passes_the_dice() -> None:
    t = Table()
    t.script("dice", (4, 5))
    events = t.when(RollDice(seat=0))
    assert events[0] == DiceRolled(seat=0, d1=4, d2=5, n=0)
    assert isinstance(events[1], ResourcesProduced)
    assert (t.state.phase, t.state.last_roll) == (MAIN, 9)
    events = t.when(EndTurn(seat=0))
    assert events == [TurnEnded(seat=0, next=1)]
    assert (t.state.current, t.state.phase, t.state.turn, t.state.rolled) == (1, ROLL, 2, False)


def test_turns_go_round_the_table_and_back_to_seat_0() -> None:
    t = Table(seats=3)
    seen = []
    for _ in range(4):
        seen.append(t.state.current)
        t.script("dice", (1, 1))
        t.when(RollDice(seat=t.state.current))
        t.when(EndTurn(seat=t.state.current))
    assert seen == [0, 1, 2, 0]


def test_rejects_base_game_over_for_any_command_after_the_game_ended() -> None:
    t = Table()
    t.when(RollDice(seat=0))
    t.apply(GameFinished(winner=0, scores=(10, 2, 2, 2), reason="victory", seed=""))
    assert t.state.phase == OVER
    assert pending(t.state) == []
    t.rejects(EndTurn(seat=0), "base.game.over")
    t.rejects(RollDice(seat=1), "base.game.over")


def test_a_turn_limit_ends_the_game_undecided() -> None:
    created = new_game("g", 2, b"limit", turn_limit=3, beginner=True)
    state = initial_state(created)
    dealer = SeededDealer(b"limit")
    finished = None
    turns = 0
    while not state.finished:
        prompt = pending(state)[0]
        command = prompt.default
        if prompt.stage == "main":
            command = EndTurn(seat=prompt.seat)
        for e in decide(state, command, dealer):
            evolve(state, e)
            turns += isinstance(e, TurnEnded)
            if isinstance(e, GameFinished):
                finished = e
    assert finished is not None
    assert (finished.winner, finished.reason) == (None, "turn_limit")
    assert turns == 3  # three whole turns were played
    assert state.phase == OVER
