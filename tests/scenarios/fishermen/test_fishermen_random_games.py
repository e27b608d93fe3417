"""Property test: 1,000 complete random games of the Fishermen (every fifth with a heuristic seat,
a quarter of them with variants) end with a winner or at the turn cap, keeping after EVERY event:

* per resource: bank + hands == 19, nothing negative;
* per fish kind (boot, 1, 2, 3): supply + spent pile + hands (+ the boot's holder) == 1, 11, 10,
  8, nothing negative; no hand above 7 tokens outside the return stage;
* the 25 development cards all accounted for (deck, hands, knights played, cards played);
* the robber off the board or on a land hex;
* a private event (a fish drawn, a card stolen or taken) redacted for every other seat and a
  spectator, and no other seat's token values in a view;
* at command boundaries, the active seat never sits at its target without having won.

Every 25th game is also re-judged from its seed (what `hexlog audit` does: every command decided
again with a fresh dealer must give the same events) and refolded (the replayed state equals
the live one). Runtime: about 40 s on one core."""

from __future__ import annotations

from collections import Counter

import pytest
from fishermen_helpers import FISHERMEN, check_fish_conserved

from bots.heuristic import HeuristicBot
from bots.random_bot import RandomBot
from bots.sdk import Bot
from events.commands import Command
from events.events import (
    CardStolen,
    Event,
    GameCreated,
    ModuleSpec,
    MonopolyPlayed,
    RoadBuildingPlayed,
    YearOfPlentyPlayed,
)
from events.fishermen import FishDevelopmentCardTaken, FishDrawn
from services.rules.engine import (
    decide,
    evolve,
    initial_state,
    new_game,
    next_prompt,
    pending,
    redact,
    score,
    view,
)
from services.rules.engine.chance import SeededDealer
from services.rules.engine.scenarios.fishermen.common import HAND_LIMIT, RETURN, fish, tokens_of
from services.rules.engine.state import NO_ONE, SETUP, State

GAMES = 1000
CHUNKS = 4
TURN_LIMIT = 300
MIXES: tuple[tuple[str, ...], ...] = (
    ("friendly-robber",), ("event-cards",), ("harbormaster",), ("catan-for-two",),
    ("friendly-robber", "event-cards", "harbormaster"),
    ("catan-for-two", "event-cards", "friendly-robber", "harbormaster"),
)
PRIVATE = (FishDrawn, FishDevelopmentCardTaken, CardStolen)


def game_setup(i: int) -> tuple[GameCreated, list[Bot]]:
    variants = MIXES[(i // 4) % len(MIXES)] if i % 4 == 3 else ()
    seats = 2 if "catan-for-two" in variants else (4, 3, 4, 2)[i % 4]
    specs = (FISHERMEN, *(ModuleSpec(name=v) for v in variants))
    created = new_game(f"fish-{i}", seats, f"fish-{i}".encode(), modules=specs,
                       turn_limit=TURN_LIMIT)
    bots: list[Bot] = [RandomBot(i * 8 + s) for s in range(seats)]
    if i % 5 == 1:
        bots[i % seats] = HeuristicBot(i)
    return created, bots


class Invariants:
    def __init__(self) -> None:
        self.played = 0
        self.counts: Counter[str] = Counter()

    def after_event(self, state: State, e: Event) -> None:
        self.counts[type(e).__name__] += 1
        if isinstance(e, RoadBuildingPlayed | YearOfPlentyPlayed | MonopolyPlayed):
            self.played += 1
        hands = [p.hand for p in state.players]
        assert [sum(c) for c in zip(state.bank, *hands, strict=True)] == [19] * 5, e
        assert min(min(state.bank), *(min(h) for h in hands)) >= 0, e
        check_fish_conserved(state)
        held = sum(sum(p.dev) + p.knights for p in state.players)
        assert sum(state.deck) + held + self.played == 25, e
        assert state.robber == NO_ONE or state.board.topo.hex_is_land[state.robber]
        if isinstance(e, PRIVATE):
            self.check_redaction(state, e)
        if isinstance(e, FishDrawn) and self.counts["FishDrawn"] % 50 == 1:
            self.check_views(state)

    def check_redaction(self, state: State, e: Event) -> None:
        involved = {e.thief, e.victim} if isinstance(e, CardStolen) else {e.seat}  # type: ignore[attr-defined]
        for seat in [*range(state.n), None]:
            seen = redact(state, e, seat)
            if seat in involved:
                assert seen == e
            else:
                secret = seen.resource if isinstance(seen, CardStolen) else (
                    seen.fish if isinstance(seen, FishDrawn) else seen.card)  # type: ignore[attr-defined]
                assert secret is None, f"seat {seat} sees the secret of {e!r}"

    def check_views(self, state: State) -> None:
        for seat in [*range(state.n), None]:
            fx = view(state, seat).ext["fishermen"]
            assert fx["tokens"] == [tokens_of(h) for h in fish(state).hands]
            mine = fish(state).hands[seat] if seat is not None else None
            assert fx["hand"] == (None if mine is None else {str(k): mine[k] for k in (1, 2, 3)})

    def after_command(self, state: State) -> None:
        if state.phase != RETURN:
            assert all(tokens_of(h) <= HAND_LIMIT for h in fish(state).hands)
        if not state.finished and state.phase != SETUP:
            seat = state.current
            assert score(state)[seat] < state.rules.hooks.win_target(state, seat), "a win was missed"


def play(i: int, check: Invariants) -> None:
    created, bots = game_setup(i)
    check.played = 0
    seed = created.game_id.encode()
    state = initial_state(created)
    dealer = SeededDealer(seed)
    commands: list[Command] = []
    log: list[Event] = []
    while not state.finished:
        prompt = next_prompt(state, pending(state))
        for option in prompt.options[:1]:
            assert option.seat == prompt.seat
        bot = bots[prompt.seat]
        command = bot.choose(view(state, prompt.seat) if bot.needs_view else None, prompt)
        events = decide(state, command, dealer)
        commands.append(command)
        for e in events:
            evolve(state, e)
            log.append(e)
            check.after_event(state, e)
        check.after_command(state)
        assert len(commands) < 40_000
    if i % 25 == 0:
        rejudge(created, seed, commands, log, state)


def rejudge(created: GameCreated, seed: bytes, commands: list[Command], log: list[Event],
            live: State) -> None:
    """What the audit does: every command judged again from the seed gives the logged events;
    folding the log gives the live state."""
    state = initial_state(created)
    dealer = SeededDealer(seed)
    again: list[Event] = []
    for command in commands:
        events = decide(state, command, dealer)
        for e in events:
            evolve(state, e)
        again.extend(events)
    assert again == log
    folded = initial_state(created)
    for e in log:
        evolve(folded, e)
    assert folded.to_dict() == live.to_dict()


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_thousand_fishermen_games_keep_every_invariant(chunk: int) -> None:
    check = Invariants()
    per = GAMES // CHUNKS
    for i in range(chunk * per, (chunk + 1) * per):
        play(i, check)
    counts = check.counts
    assert counts["GameFinished"] == per
    for kind in ("FishDrawn", "OldBootDrawn", "FishReshuffled", "FishSpent", "FishReturned",
                 "RobberLeftBoard", "OldBootPassed", "FishDevelopmentCardTaken",
                 "FishResourceTaken", "CardStolen"):
        assert counts[kind] > 0, f"chunk {chunk} never saw {kind}"


def test_a_fishermen_state_survives_a_snapshot_round_trip() -> None:
    from services.rules.engine import snapshot

    created, bots = game_setup(3)
    state = initial_state(created)
    dealer = SeededDealer(b"snap")
    while state.turn < 60 and not state.finished:
        prompt = next_prompt(state, pending(state))
        bot = bots[prompt.seat]
        for e in decide(state, bot.choose(view(state, prompt.seat), prompt), dealer):
            evolve(state, e)
    assert sum(map(sum, fish(state).hands)) > 0
    again = snapshot.load(snapshot.dump(state), created)
    assert again.to_dict() == state.to_dict()


def accepted(state: State, command: Command) -> bool:
    from services.rules.engine.rules import Rejected

    try:
        decide(state, command, SeededDealer(b"probe"))
    except Rejected:
        return False
    return True


@pytest.mark.parametrize("i", [0, 1, 3, 7, 11])
def test_fishermen_prompts_offer_only_commands_decide_accepts(i: int) -> None:
    """Every option of every prompt is accepted; a fish action is offered whenever some
    payment of it is accepted (probing each kind with every payment from the hand)."""
    from events.fishermen import (
        FishRemoveRobber,
        FishTakeDevelopmentCard,
        FishTakeResource,
        PassOldBoot,
    )
    from services.rules.engine.scenarios.fishermen.actions import payments

    created, bots = game_setup(i)
    state = initial_state(created)
    dealer = SeededDealer(created.game_id.encode())
    step = 0
    while not state.finished:
        prompts = pending(state)
        if step % 5 == 0 or state.phase == RETURN:
            for prompt in prompts:
                for option in prompt.options:
                    assert accepted(state, option), f"{option!r} offered but refused"
            seat = state.current
            offered = {type(o) for p in prompts if p.seat == seat for o in p.options}
            hand = fish(state).hands[seat]
            ways = [t for cost in range(1, 8) for t in payments(hand, cost)]
            probes: list[Command] = [FishRemoveRobber(seat=seat, tokens=t) for t in ways]
            probes += [FishTakeResource(seat=seat, resource="ore", tokens=t) for t in ways]
            probes += [FishTakeDevelopmentCard(seat=seat, tokens=t) for t in ways]
            probes += [PassOldBoot(seat=seat, to=s) for s in range(state.n)]
            for probe in probes:
                if accepted(state, probe):
                    assert type(probe) in offered, f"{probe!r} is legal but not offered"
        prompt = next_prompt(state, prompts)
        bot = bots[prompt.seat]
        for e in decide(state, bot.choose(view(state, prompt.seat) if bot.needs_view else None,
                                          prompt), dealer):
            evolve(state, e)
        step += 1
