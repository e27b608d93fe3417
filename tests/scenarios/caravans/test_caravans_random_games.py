"""Property test: 1,000 random Caravans games (alone and with each variant) end with a winner
or at the turn cap, and after every event: every resource's bank + hands is constant (bids go to
the bank), nothing is negative, camels are at most 22 on distinct land paths all belonging to a
caravan, VP recount from the board (camel points included) equals the score, a winner has
reached the target on its own turn, and a sealed placement never shows in another seat's or a
spectator's view or redacted event. Every 100th game is recorded and audited."""

from __future__ import annotations

from collections import Counter

import pytest
from recording import Recorder, bot_chooser
from tampering_kit import audit_recorded

from bots.local import next_prompt
from bots.registry import make_bot
from events.caravans import CamelPathNamed
from events.events import Event, GameFinished, ModuleSpec
from services.rules.engine import decide, evolve, initial_state, new_game, pending, redact, view
from services.rules.engine.base.scoring import VP_CARD, total_vp
from services.rules.engine.chance import SeededDealer
from services.rules.engine.scenarios.caravans import camels
from services.rules.engine.scenarios.caravans.common import CAMELS, NAME_PATH, ext
from services.rules.engine.state import State

GAMES = int(__import__("os").environ.get("CARAVANS_GAMES", "1000"))
TURN_LIMIT = 300
COMBOS: tuple[tuple[str, ...], ...] = ((), ("friendly-robber",), ("event-cards",),
                                       ("harbormaster",), ("catan-for-two",),
                                       ("friendly-robber", "harbormaster"),
                                       ("event-cards", "catan-for-two"),
                                       ("friendly-robber", "event-cards", "harbormaster",
                                        "catan-for-two"))


# The events after which camels or VP can change (the expensive checks run after these).
SCORING = {"CamelPlaced", "CamelPathNamed", "SettlementBuilt", "CityBuilt", "LongestRoadChanged",
           "LargestArmyChanged", "HarbormasterChanged", "DevelopmentCardBought", "GameFinished",
           "PieceRemoved"}


def game_setup(i: int) -> tuple[tuple[ModuleSpec, ...], int, list[str]]:
    combo = COMBOS[i % len(COMBOS)]
    seats = 2 if "catan-for-two" in combo else (4, 3, 4, 2)[i % 4]
    kinds = ["random"] * seats
    if i % 3 == 1:
        kinds[i % seats] = "heuristic"
    specs = tuple(ModuleSpec(name=n) for n in ("caravans", *combo))
    return specs, seats, kinds


def recount(state: State, seat: int) -> int:
    p = state.players[seat]
    vp = len(p.settlements) + 2 * len(p.cities) + p.dev[VP_CARD]
    vp += 2 * (state.longest_holder == seat) + 2 * (state.army_holder == seat)
    vp += sum(1 for v in (*p.settlements, *p.cities) if camels.camels_at(state, v) >= 2)
    if "harbormaster" in state.ext:
        vp += 2 * (state.ext["harbormaster"] == seat)
    return vp


def check_event(state: State, e: Event, totals: list[int]) -> None:
    n = state.n
    for r, total in enumerate(totals):
        have = state.bank[r] + sum(p.hand[r] for p in state.players[:n])
        assert have == total, f"resource {r}: {have} != {total} after {e}"
        assert state.bank[r] >= 0
        assert all(p.hand[r] >= 0 for p in state.players)
    if type(e).__name__ not in SCORING:
        return
    x = ext(state)
    assert len(x.camels) <= CAMELS
    in_caravans = [e for k in x.caravans if k is not None for e in k.edges]
    assert sorted(in_caravans) == sorted(x.camels)
    land = state.board.topo.edge_is_land
    assert all(land[c] for c in x.camels)
    for s in range(n):
        assert total_vp(state, s) == recount(state, s)
    if isinstance(e, GameFinished) and e.winner is not None:
        assert e.winner == state.current or e.reason == "victory"
        assert total_vp(state, e.winner) >= state.rules.hooks.win_target(state, e.winner)
    if isinstance(e, CamelPathNamed):
        for seat in [*range(n), None]:
            seen = redact(state, e, seat)
            assert isinstance(seen, CamelPathNamed)
            if seat != e.seat:
                assert seen.edge is None
                assert seen.caravan is None
        if state.phase == NAME_PATH:
            choices = ext(state).choices
            for seat in [*range(n), None]:
                mine = view(state, seat).ext["caravans"]["vote"]["mine"]
                if seat is None or choices[2 * seat] < 0:
                    assert mine is None  # a spectator, or a seat that has named nothing
                else:
                    assert mine == choices[2 * seat: 2 * seat + 2]  # its own choice only


def play_checked(i: int) -> tuple[State, Counter[str]]:
    specs, seats, kinds = game_setup(i)
    seed = f"caravans-{i}".encode()
    created = new_game(f"g{i}", seats, seed, modules=specs, turn_limit=TURN_LIMIT)
    state = initial_state(created)
    dealer = SeededDealer(seed)
    bots = [make_bot(k, i * 16 + s) for s, k in enumerate(kinds)]
    totals = [state.bank[r] + sum(p.hand[r] for p in state.players[:seats])
              for r in range(len(state.bank))]
    counts: Counter[str] = Counter()
    while not state.finished:
        prompt = next_prompt(state, pending(state))
        bot = bots[prompt.seat]
        command = bot.choose(view(state, prompt.seat) if bot.needs_view else None, prompt)
        for e in decide(state, command, dealer):
            evolve(state, e)
            counts[type(e).__name__] += 1
            check_event(state, e, totals)
    return state, counts


@pytest.mark.slow
def test_caravans_thousand_random_games_keep_the_invariants() -> None:
    counts: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for i in range(GAMES):
        state, seen = play_checked(i)
        counts.update(seen)
        ends["winner" if state.winner >= 0 else "cap"] += 1
    assert ends["winner"] > GAMES * 0.4, ends  # random bots often stall short of 12 (13) VP
    for kind in ("CamelVoteOpened", "CamelBidMade", "CamelPathNamed", "CamelVoteDecided",
                 "CamelPlaced", "RobberMoved", "LongestRoadChanged"):
        assert counts[kind] > 0, kind


@pytest.mark.parametrize("i", range(0, GAMES, 100))
def test_caravans_sampled_random_games_audit_clean(i: int) -> None:
    specs, seats, kinds = game_setup(i)
    rec = Recorder.new(f"audit-{i}", f"caravans-{i}".encode(), seats=seats, modules=specs,
                       turn_limit=TURN_LIMIT)
    rec.play(bot_chooser(kinds), max_decisions=40_000)
    report = audit_recorded(rec)
    assert report.exit_code == 0, report.to_dict()
