"""Traders & Barbarians as a user sees it: `hexlog play --scenario traders-and-barbarians`
through Redis (the embedded Valkey), `hexlog replay` telling the wagons and barbarians in
words, `hexlog audit` passing; the narration and the drawing of the scenario's pieces."""

from __future__ import annotations

from cli_helpers import Hexlog
from scenario_kit import audit_passes, play, replay
from tb_helpers import CORNER, QUARRY_PLAZA, SPOKE, put_wagon, table, tb

from events.traders_and_barbarians import (
    BarbarianDriveOffTried,
    BarbarianMovedOnPath,
    MoveWagon,
    TraderCardBought,
)
from services.cli.result import format_result
from services.render.narrate import Context, narrate
from services.render.text import render_board


def test_play_replay_and_audit_through_redis(hexlog: Hexlog) -> None:
    game = play(hexlog, "--scenario", "traders-and-barbarians", "--seed", "tb-cli")
    assert game["modules"] == [{"name": "traders-and-barbarians", "params": {}}]
    assert game["vp_target"] == 13
    assert game["winner"] is not None
    assert game["scores"][game["winner"]] >= 13
    assert any(p["module_vp"] > 0 for p in game["players"])  # deliveries, wagon card 5
    assert "module VP" in format_result(game)  # the text table adds up
    shown = replay(hexlog, game["game_id"])
    assert "'s wagon travels along" in shown
    assert "moves barbarian" in shown
    assert "delivers" in shown
    assert "OK" in audit_passes(hexlog, game["game_id"])


def test_the_scenario_narrates_its_events() -> None:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, CORNER)
    t.script("commodity", "sand")
    events = t.when(MoveWagon(seat=0, edge=t.edge(SPOKE)))
    ctx = Context(t.state.names, t.state.board)
    lines = [narrate(e, ctx) for e in events]
    assert "wagon sets off with 4 movement points" in lines[0]
    trade = t.state.board.parse_hex("(2,-2)")
    plaza = f"the plaza of the {ctx.hex_words(trade)} ({ctx.hex_label(trade)}0)"
    assert f"to {plaza}" in lines[1]
    assert f"loads sand at {ctx.hex(trade)}" in lines[2]
    moved = BarbarianMovedOnPath(seat=0, barbarian=1, edge=tb(t).barbarians[1], cause="seven",
                                 victim=2)
    assert "moves barbarian 2 to" in narrate(moved, ctx)
    assert "on a road of" in narrate(moved, ctx)
    tried = BarbarianDriveOffTried(seat=0, barbarian=0, die=6, success=True, n=0)
    assert "throws a 6, drives it off" in narrate(tried, ctx)
    hidden = TraderCardBought(seat=0, card=None, n=0)
    assert narrate(hidden, ctx).endswith("buys a development card")


def test_the_scenario_draws_barbarians_wagons_and_stacks() -> None:
    t = table()
    board = render_board(t.state)
    barbarians = [line for line in board.splitlines() if line.startswith("  barbarian: paths ")]
    assert len(barbarians) == 1
    assert len(barbarians[0].split(", ")) == len(tb(t).barbarians)  # each on its path, by label
    assert "12 left" in board
    assert "wagon of" in board
    put_wagon(t, 1, QUARRY_PLAZA)
    tb(t).cargo[1] = "sand"
    board = render_board(t.state)  # a wagon on a plaza, with its sand, said with its trade hex
    assert "12 commodities left to load, wagon of" in board
    assert "carrying sand at its plaza" in board
