"""Oil Springs in whole games: 1,000 random games keep the conservation invariants and end; the
audit re-judges recorded games bit for bit and catches a tampered disaster; views never show
another seat's hand; the heuristic bot uses oil; combinations are built or refused with the
reasons of docs/rules/combinations.md §13.3."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from oil_springs_helpers import corner, ext, table
from recording import Recorder, bot_chooser
from scenario_kit import Marks, Names
from tampering_kit import audit_objects, audit_recorded

from bots.heuristic import HeuristicBot
from bots.random_bot import RandomBot
from events.commands import EndTurn
from events.events import (
    CardStolen,
    Event,
    GameFinished,
    ModuleSpec,
    MonopolyPlayed,
    ResourcesDiscarded,
    YearOfPlentyPlayed,
)
from services.audit.archive import dump_lines
from services.rules.engine import (
    MODULES,
    RulesetError,
    decide,
    evolve,
    initial_state,
    new_game,
    next_prompt,
    pending,
    redact,
    view,
)
from services.rules.engine.base.scoring import total_vp
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import State

OIL = ModuleSpec(name="oil-springs")
GAMES = 1000
TURN_CAP = 300


def check(state: State) -> None:
    """Conservation and limits after every event."""
    e = ext_of(state)
    for r in range(5):
        assert state.bank[r] + sum(p.hand[r] for p in state.players) == 19
    oil = state.bank[e.oil] + sum(p.hand[e.oil] for p in state.players)
    assert oil + sum(e.sequestered) + e.removed == 15
    assert all(0 <= p.hand[e.oil] <= 4 for p in state.players)
    assert all(n >= 0 for p in state.players for n in p.hand)
    assert 0 <= e.marker <= 5
    assert len(e.metropolises) <= 4
    assert all(state.vertex_level[v] == 3 and v in state.players[s].cities
               for v, s in e.metropolises.items())
    assert len(e.destroyed) <= 5
    for p in state.players:
        assert len(p.settlements) <= 5
        assert len(p.cities) <= 4


def ext_of(state: State):  # type: ignore[no-untyped-def]
    from services.rules.engine.scenarios.oil_springs.common import oil_state
    return oil_state(state)


def oil_in(e: Event) -> bool:
    """Whether a base event names oil (the resource the base events carry for this module)."""
    if isinstance(e, CardStolen | MonopolyPlayed):
        return e.resource == "oil"
    if isinstance(e, YearOfPlentyPlayed | ResourcesDiscarded):
        return "oil" in e.resources
    return False


def play(seed: int, seats: int, heuristic: bool = False) -> tuple[State, Counter[str]]:
    created = new_game(f"g{seed}", seats, f"oil-{seed}".encode(), modules=[OIL], turn_limit=TURN_CAP)
    state = initial_state(created)
    dealer = SeededDealer(f"oil-{seed}".encode())
    bots = [HeuristicBot(seed) if heuristic and s == 0 else RandomBot(seed * 7 + s)
            for s in range(seats)]
    seen: Counter[str] = Counter()
    for _ in range(20000):
        if state.finished:
            break
        prompt = next_prompt(state, pending(state))
        bot = bots[prompt.seat]
        command = bot.choose(view(state, prompt.seat) if isinstance(bot, HeuristicBot) else None, prompt)
        for e in decide(state, command, dealer):
            evolve(state, e)
            seen[type(e).__name__] += 1
            if oil_in(e):  # oil in a base event: stolen, taken by a card, traded, discarded
                seen[f"oil:{type(e).__name__}"] += 1
            check(state)
            if isinstance(e, GameFinished):
                seen["reason:" + e.reason] += 1
    assert state.finished, "the game did not end"
    return state, seen


@pytest.mark.slow  # a sweep: the interpreted pass runs it, the compiled pass does not (Makefile)
def test_a_thousand_random_games_end_with_oil_conserved() -> None:
    seen: Counter[str] = Counter()
    for g in range(GAMES):
        state, counts = play(g, 4 if g % 3 else 3, heuristic=g % 10 == 0)
        seen.update(counts)
        if state.winner >= 0:
            assert total_vp(state, state.winner) >= 12
    for kind in ("OilProduced", "oil:CardStolen", "OilRefined", "MetropolisBuilt",
                 "OilSequestered", "ChampionChanged", "DisasterRolled", "PieceRemoved",
                 "CityReduced", "HexPolluted", "SpringPolluted", "IslandAbandoned",
                 "oil:YearOfPlentyPlayed", "oil:MonopolyPlayed"):
        assert seen[kind] > 0, kind
    assert seen["reason:victory"] > 0
    assert seen["reason:abandoned"] > 0


def recorded(seed: int, bots: tuple[str, ...]) -> Recorder:
    rec = Recorder.new(f"oil-{seed}", f"oil-audit-{seed}".encode(), seats=len(bots),
                       modules=[OIL], turn_limit=TURN_CAP)
    return rec.play(bot_chooser(bots), max_decisions=20000)


def test_recorded_games_audit_clean() -> None:
    for seed in range(6):
        rec = recorded(seed, ("random", "heuristic", "random", "heuristic")[: 3 + seed % 2])
        report = audit_recorded(rec)
        assert report.exit_code == 0, report.to_dict()


def test_a_tampered_disaster_roll_is_caught() -> None:
    rec = next(r for r in (recorded(s, ("random",) * 4) for s in range(20))
               if ext_of(r.state).disasters > 0)
    objs = [json.loads(line) for line in dump_lines(rec.record(), "finished")]
    rolled = next(o for o in objs if o["kind"] == "event"
                  and o["envelope"]["event"]["type"] == "DisasterRolled")
    event = rolled["envelope"]["event"]
    event["d1"], event["d2"] = (1, 6) if event["d1"] + event["d2"] != 7 else (2, 2)
    report = audit_objects(objs)
    assert report.exit_code == 1
    first = report.divergences[0]
    assert first.version == rolled["envelope"]["version"]
    assert first.kind == "chance"


def test_hidden_hands_never_in_another_seats_view() -> None:
    state, _ = play(3, 4)
    for seat in (None, 0, 1, 2, 3):
        seen = view(state, seat)
        for p in seen.players:
            if p.seat != seat:
                assert p.hand is None
                assert p.dev_hand is None
        extra = seen.ext.get("resources", {})
        assert set(extra.get("hands", {})) <= ({seat} if seat is not None else set())
    # Oil held is public: every seat's count is in every view.
    assert view(state, None).ext["oil-springs"]["oil"] == [p.hand[ext_of(state).oil]
                                                           for p in state.players]


def test_a_stolen_card_is_hidden_from_the_others() -> None:
    stolen = CardStolen(thief=0, victim=1, resource="ore", n=0)
    t = table()
    for seat in (None, 2, 3):
        shown = redact(t.state, stolen, seat)
        assert isinstance(shown, CardStolen)
        assert shown.resource is None


def test_the_heuristic_bot_uses_oil_sequesters_and_builds_metropolises() -> None:
    seen: Counter[str] = Counter()
    for g in range(30):
        created = new_game(f"h{g}", 4, f"h-{g}".encode(), modules=[OIL], turn_limit=TURN_CAP)
        state = initial_state(created)
        dealer = SeededDealer(f"h-{g}".encode())
        bots = [HeuristicBot(g + s) for s in range(4)]
        while not state.finished:
            prompt = next_prompt(state, pending(state))
            command = bots[prompt.seat].choose(view(state, prompt.seat), prompt)
            for e in decide(state, command, dealer):
                evolve(state, e)
                seen[type(e).__name__] += 1
    assert seen["OilRefined"] > 0
    assert seen["OilSequestered"] > 0
    assert seen["MetropolisBuilt"] > 0


# --- combinations (combinations.md §13.3) --------------------------------------------------


def test_oil_springs_refuses_catan_for_two_and_two_seats() -> None:
    with pytest.raises(RulesetError, match="3–4 players"):
        new_game("g", 3, b"s", modules=[OIL, ModuleSpec(name="catan-for-two")])
    with pytest.raises(RulesetError, match="3 or 4 seats"):
        new_game("g", 2, b"s", modules=[OIL])
    assert MODULES["oil-springs"].seats == (3, 4)


def test_oil_springs_with_harbormaster_floods_lower_harbor_points() -> None:
    from services.rules.engine.variants.harbormaster import harbor_points
    t = table(more=(ModuleSpec(name="harbormaster"),))
    board = t.state.board
    harbor = next(v for v in range(board.n_vertices) if board.vertex_harbor[v] is not None)
    t.place(1, harbor, city=True)
    before = harbor_points(t.state, 1)
    assert before > 0
    ext(t).marker = 5
    t.script("disaster", (3, 4))
    t.when(EndTurn(seat=0))
    assert harbor_points(t.state, 1) < before
    assert t.state.rules.hooks.win_target(t.state, 0) == 13
    assert corner(t, "(0,0)") >= 0


def test_random_games_with_each_accepted_combination_end() -> None:
    rng = random.Random(5)
    for other in ("harbormaster", "victory-points"):
        if other not in MODULES:
            continue
        for g in range(5):
            seed = f"{other}-{g}".encode()
            created = new_game("c", 4, seed, modules=[OIL, ModuleSpec(name=other)], turn_limit=TURN_CAP)
            state = initial_state(created)
            dealer = SeededDealer(seed)
            bot = RandomBot(rng.randrange(1000))
            while not state.finished:
                prompt = next_prompt(state, pending(state))
                for e in decide(state, bot.choose(None, prompt), dealer):
                    evolve(state, e)
                    check(state)


def test_oil_springs_robber_no_desert_friendly_robber_sends_it_off_the_board() -> None:
    from events.commands import MoveRobber
    from services.rules.engine.state import NO_ONE, ROBBER
    t = table(more=(ModuleSpec(name="friendly-robber", params={"start_vp": 10}),))
    topo = t.state.board.topo
    uncovered = set(topo.land_hexes)
    while uncovered:  # seat 1's buildings touch every hex, and every seat is protected
        v = max(range(len(topo.vertices)),
                key=lambda v: len(uncovered & set(topo.vertex_land_hexes[v])))
        t.place(1, v)
        uncovered -= set(topo.vertex_land_hexes[v])
    t.set_robber("(1,1)")
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    assert pending(t.state)[0].options == [MoveRobber(seat=0, hex=NO_ONE)]
    t.when(MoveRobber(seat=0, hex=NO_ONE))
    assert t.state.robber == NO_ONE
    # Off the board already and still no open hex: it stays off the board.
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    assert pending(t.state)[0].options == [MoveRobber(seat=0, hex=NO_ONE)]


def test_oil_springs_robber_no_desert_robber_flees_off_the_board() -> None:
    from events.commands import RollDice
    from events.event_cards import RobberFled
    from services.rules.engine.state import NO_ONE
    t = table(more=(ModuleSpec(name="event-cards"),))
    t.set_robber("(1,1)")
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (4, "robber_flees"))
    events = t.when(RollDice(seat=0))
    assert RobberFled(hex=NO_ONE) in events
    assert t.state.robber == NO_ONE
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (4, "robber_flees"))
    assert not any(isinstance(e, RobberFled) for e in t.when(RollDice(seat=0)))


def test_random_games_with_friendly_robber_and_event_cards_end() -> None:
    for other in ("friendly-robber", "event-cards"):
        for g in range(8):
            seed = f"{other}-{g}".encode()
            created = new_game("c", 3 + g % 2, seed, modules=[OIL, ModuleSpec(name=other)],
                               turn_limit=TURN_CAP)
            state = initial_state(created)
            dealer = SeededDealer(seed)
            bots = [HeuristicBot(g) if s == 0 else RandomBot(g + s) for s in range(created.seats)]
            while not state.finished:
                prompt = next_prompt(state, pending(state))
                bot = bots[prompt.seat]
                seen = view(state, prompt.seat) if isinstance(bot, HeuristicBot) else None
                for e in decide(state, bot.choose(seen, prompt), dealer):
                    evolve(state, e)
                    check(state)


# --- narration and drawing ----------------------------------------------------------------


def test_floods_and_pollution_are_told_in_words() -> None:
    from events.oil_springs import CityReduced, HexPolluted, IslandAbandoned, SpringPolluted
    from events.pieces import PieceRemoved
    from services.rules.engine.scenarios.oil_springs.narration import NARRATION
    at = Names()

    def say(e: object) -> str:
        return NARRATION[type(e)](e, at)  # type: ignore[arg-type]

    assert say(PieceRemoved(seat=1, kind="settlement", site=4)) == (
        "seat1's settlement at v4 is lost and goes back to its owner")
    assert say(CityReduced(seat=2, vertex=7)) == "The flood reduces seat2's city at v7 to a settlement"
    assert "destroys h3: its number 6 goes onto the disaster track" in say(HexPolluted(hex=3, number=6, n=0))
    assert "3 oil leave the game (1 from the supply, 1 from seat1, 1 from seat2)" in say(
        SpringPolluted(hex=18, number=5, n=1, from_supply=1, taken=(0, 1, 1, 0)))
    assert "seat2, Champion of the Environment, wins a Pyrrhic victory" in say(IslandAbandoned(champion=2))


def test_the_drawing_marks_springs_metropolises_and_destroyed_hexes() -> None:
    from services.rules.engine.scenarios.oil_springs.drawing import draw
    t = table()
    ext(t).marker = 3
    ext(t).metropolises[corner(t, "(1,1)")] = 0
    ext(t).destroyed.append(t.hex("(0,-1)"))
    sketch = Marks()
    draw(t.state, sketch)
    assert ("hex", t.hex("(0,0)"), "oil · disaster 3/5") in sketch.marks
    assert ("hex", t.hex("(2,-1)"), "oil") in sketch.marks
    assert ("vertex", corner(t, "(1,1)"), "M") in sketch.marks
    assert ("hex", t.hex("(0,-1)"), "X1") in sketch.marks


def test_a_snapshot_of_an_oil_springs_game_loads_back_equal() -> None:
    from services.rules.engine import snapshot
    created = new_game("snap", 4, b"oil-snap", modules=[OIL], turn_limit=TURN_CAP)
    state = initial_state(created)
    dealer = SeededDealer(b"oil-snap")
    bot = RandomBot(1)
    for _ in range(3000):
        if state.finished:
            break
        for e in decide(state, bot.choose(None, next_prompt(state, pending(state))), dealer):
            evolve(state, e)
        if state.version % 250 == 0 or ext_of(state).metropolises:
            loaded = snapshot.load(snapshot.dump(state), created)
            assert loaded.to_dict() == state.to_dict()


def test_refining_can_be_taken_back_with_the_undo_rule_a_disaster_cannot() -> None:
    from events.disputes import ApproveUndo, ProposeUndo
    from events.oil_springs import RefineOil
    from services.rules.engine import Rejected
    t = table(more=(ModuleSpec(name="undo", params={"policy": "consent"}),))
    t.give(0, oil=1)
    v = t.state.version
    before = {k: x for k, x in t.state.to_dict().items() if k not in ("version", "ext")}
    t.when(RefineOil(seat=0, resource="ore"))
    assert ext(t).marker == 1
    t.when(ProposeUndo(seat=0, to_version=v))
    for s in (1, 2, 3):
        t.when(ApproveUndo(seat=s))
    assert ext(t).marker == 0
    assert {k: x for k, x in t.state.to_dict().items() if k not in ("version", "ext")} == before
    ext(t).marker = 5
    v = t.state.version
    t.script("disaster", (1, 1))
    t.when(EndTurn(seat=0))
    with pytest.raises(Rejected):
        decide(t.state, ProposeUndo(seat=1, to_version=v), t.dealer)


def test_a_tampered_polluted_hex_is_caught() -> None:
    rec = next(r for r in (recorded(s, ("random",) * 4) for s in range(40))
               if ext_of(r.state).destroyed)
    objs = [json.loads(line) for line in dump_lines(rec.record(), "finished")]
    polluted = next(o for o in objs if o["kind"] == "event"
                    and o["envelope"]["event"]["type"] == "HexPolluted")
    event = polluted["envelope"]["event"]
    event["hex"] = next(h for h in rec.state.board.topo.land_hexes if h != event["hex"])
    report = audit_objects(objs)
    assert report.exit_code == 1
    assert report.divergences[0].version == polluted["envelope"]["version"]


def test_with_event_cards_a_seat_holding_only_oil_gives_no_gift() -> None:
    """Good Neighbors and Neighborly Assistance move resource cards: a seat whose hand is only
    oil is not asked (it was asked, and offered nothing legal to give)."""
    from services.rules.engine.variants.event_cards_stages import asked

    t = table(more=(ModuleSpec(name="event-cards"),))
    for seat in range(4):
        t.take_all(seat)
    t.give(0, oil=2)
    t.give(1, brick=1)
    assert asked(t.state, "good_neighbors") == [1]
    t.place(0, corner(t, "(0,0)"), city=True)  # the leader by public VP … holding only oil
    assert asked(t.state, "neighborly_assistance") == []
