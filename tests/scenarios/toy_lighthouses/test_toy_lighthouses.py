"""The toy scenario built by following docs/adding-a-scenario.md (the package `lighthouses`
beside this file): it registers, its rules hold (one test per rule id), it plays complete games
through the rule-test kit, it shows in `hexlog rulesets` and `--explain`, and it never leaks
into the shipped catalogue."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from lighthouses import MODULE
from lighthouses.common import BEACONS, NAME, RULE_IDS

from events.events import ModuleSpec
from services.cli.main import main
from services.render.text import render_board
from services.rules.engine import modules, next_prompt, pending, score
from services.rules.engine.rules import RULES
from services.rules.engine.testing import Table

HERE = Path(__file__).resolve().parent
SPEC = ModuleSpec(name=NAME)


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 5 of the guide for a module outside the engine's packages: in the catalogue (and
    its rule ids registered) for this test only."""
    monkeypatch.setitem(modules.MODULES, NAME, MODULE)
    for rule_id, text in RULE_IDS.items():
        monkeypatch.setitem(RULES, rule_id, text)


def coastal(t: Table, free: bool = True) -> list[int]:
    board = t.state.board
    return [v for v in range(board.n_vertices) if board.topo.vertex_is_coastal[v]
            and (not free or t.state.vertex_owner[v] < 0)]


def test_it_registers_and_plays_on_its_own_map(registered: None) -> None:
    t = Table(seats=3, modules=[SPEC])
    assert t.created.map == "lighthouse-isle"
    assert BEACONS.name in t.state.ext
    assert t.state.rules.base_target == 11  # lighthouses.win.target


def test_lighthouses_beacon_coastal_a_settlement_on_the_coast_lights_a_beacon(
        registered: None) -> None:
    t = Table(seats=3, modules=[SPEC])
    before = [list(b) for b in BEACONS.of(t.state).lit]
    board = t.state.board
    inland = next(v for v in range(board.n_vertices) if not board.topo.vertex_is_coastal[v]
                  and t.state.vertex_owner[v] < 0
                  and all(t.state.vertex_owner[n] < 0 for n in board.topo.vertex_neighbours[v]))
    t.place(1, inland)
    assert [list(b) for b in BEACONS.of(t.state).lit] == before  # inland: no beacon
    site = next(v for v in coastal(t)
                if all(t.state.vertex_owner[n] < 0 for n in board.topo.vertex_neighbours[v]))
    t.place(1, site)
    assert BEACONS.of(t.state).lit[1] == before[1] + [site]


def test_lighthouses_vp_beacons_two_beacons_are_one_vp(registered: None) -> None:
    t = Table(seats=3, modules=[SPEC], setup=False)
    board = t.state.board
    sites: list[int] = []
    for v in coastal(t):
        if all(n not in sites and t.state.vertex_owner[n] < 0
               for n in (v, *board.topo.vertex_neighbours[v])):
            sites.append(v)
        if len(sites) == 3:
            break
    base = score(t.state)[0]
    t.place(0, sites[0])
    assert score(t.state)[0] == base + 1  # the settlement's own VP, no beacon VP yet
    t.place(0, sites[1])
    assert score(t.state)[0] == base + 3  # two settlements, and 1 VP for 2 beacons
    t.place(0, sites[2])
    assert score(t.state)[0] == base + 4


def test_lighthouses_win_target_complete_games_through_the_rule_test_kit(
        registered: None) -> None:
    """Random legal moves from the prompts, through `Table.when` (decide + evolve): every game
    ends (a winner with 11 VP or the turn limit), and the beacons are the coastal settlements
    and cities lit."""
    for seed in range(3):
        rng = random.Random(seed)
        t = Table(seats=4, modules=[SPEC], setup=False, seed=f"toy{seed}".encode(),
                  beginner=False)
        for _ in range(4000):
            if t.state.finished:
                break
            prompt = next_prompt(t.state, pending(t.state))
            t.when(rng.choice(prompt.options) if prompt.options else prompt.default)
        assert t.state.finished or t.state.turn > 50
        lit = BEACONS.of(t.state).lit
        for seat, beacons in enumerate(lit):
            assert len(set(beacons)) == len(beacons)
            assert all(t.state.board.topo.vertex_is_coastal[v] for v in beacons)
            owned = t.state.players[seat].settlements | t.state.players[seat].cities
            assert set(beacons) <= owned
        if t.state.finished and t.state.winner >= 0:
            assert score(t.state)[t.state.winner] >= 11


def test_its_beacons_are_drawn_on_the_text_board(registered: None) -> None:
    """The module's `drawing` is called as a plain function (state, sketch): one mark per
    corner lit, listed under the board."""
    t = Table(seats=3, modules=[SPEC])
    lit = [v for beacons in BEACONS.of(t.state).lit for v in beacons]
    assert lit  # the set-up settlements on the coast
    listed = re.search(r"^  B: corners? (.+)$", render_board(t.state), re.M)
    assert listed is not None
    assert len(listed.group(1).split(", ")) == len(lit)


def test_it_shows_in_hexlog_rulesets_and_explain(
        registered: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"^  {NAME}\s+A toy: settlements on the coast", out, re.M)
    assert main(["rulesets", "--explain", NAME]) == 0
    out = capsys.readouterr().out
    events = out.split("\nevents:\n", 1)[1].split("\n\n", 1)[0]
    settlement = re.search(r"^  SettlementBuilt\n((?:    .*\n?)+)", events, re.M)
    assert settlement is not None
    assert settlement.group(1).splitlines()[0].split()[:2] == ["base", "sets"]
    settlement_steps = settlement.group(1)
    assert re.search(rf"{NAME}\s+wraps\s+lighthouses.rules.lighting", settlement_steps)
    hooks = out.split("\nhooks:\n", 1)[1].split("\n\n", 1)[0]
    assert re.search(rf"{NAME}\s+adds\s+lighthouses.rules.beacon_vp", hooks)


def test_every_rule_id_is_documented_beside_it() -> None:
    text = (HERE / MODULE.doc).read_text(encoding="utf-8")
    documented = re.findall(r"^\| `([a-z_.]+)` \|", text, re.M)
    assert sorted(documented) == sorted(RULE_IDS)
    names = [n.name for n in HERE.glob("test_*.py")]
    source = "".join((HERE / n).read_text(encoding="utf-8") for n in names)
    for rule_id in RULE_IDS:  # every rule has a test named after its id
        assert f"def test_{rule_id.replace('.', '_')}" in source, rule_id


def test_it_never_leaks_into_the_shipped_catalogue() -> None:
    """Found only where its test puts it: not by the engine's discovery, not in the catalogue
    outside the `registered` fixture."""
    assert NAME not in modules.MODULES
    assert NAME not in modules._discover()
    assert all(rule_id not in RULES for rule_id in RULE_IDS)
    assert MODULE.kind == "scenario"
