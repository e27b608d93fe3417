"""Replay and determinism (docs/design.md "The decider contract"): folding a game's log gives the live
state; the same commands with the same seed give the same log byte for byte; `copy()` branches
without sharing; `decide` never changes the state; the k-th roll depends only on seed and k."""

from __future__ import annotations

import contextlib

import msgspec
import pytest
from engine_helpers import make_bots, play_game, random_game

from events.codec import codec
from events.commands import Command
from events.events import DiceRolled, Event, GameCreated
from services.rules.engine import decide, evolve, initial_state, pending
from services.rules.engine.chance import DICE_OUTCOMES, SeededDealer
from services.rules.engine.rules import Rejected
from services.rules.engine.state import (
    PLAYER_FIELDS,
    STATE_FIELDS,
    TRADE_FIELDS,
    Player,
    State,
    Trade,
)

GAMES = [
    (4, ("random", "random", "random", "random"), b"det-1"),
    (4, ("trading", "heuristic", "random", "trading"), b"det-2"),
    (3, ("heuristic", "trading", "random"), b"det-3"),
    (2, ("trading", "random"), b"det-4"),
]


def fold(log: list[Event]) -> State:
    created = log[0]
    assert isinstance(created, GameCreated)
    state = initial_state(created)
    for e in log[1:]:
        evolve(state, e)
    return state


def encode_log(log: list[Event]) -> list[bytes]:
    return [codec().encode(e) for e in log]


@pytest.mark.parametrize(("seats", "kinds", "seed"), GAMES)
def test_folding_the_log_gives_the_live_state(seats: int, kinds: tuple[str, ...], seed: bytes) -> None:
    game = play_game(random_game(seats, seed), make_bots(kinds, 1), seed)
    assert fold(game.log).to_dict() == game.state.to_dict()
    # The same through the wire: every event encoded and decoded again.
    decoded = [codec().decode_event(b) for b in encode_log(game.log)]
    assert decoded == game.log
    assert fold(decoded).to_dict() == game.state.to_dict()


@pytest.mark.parametrize(("seats", "kinds", "seed"), GAMES)
def test_the_same_commands_with_the_same_seed_give_the_same_log_byte_for_byte(
    seats: int, kinds: tuple[str, ...], seed: bytes
) -> None:
    game = play_game(random_game(seats, seed), make_bots(kinds, 1), seed)
    created = random_game(seats, seed)
    assert codec().encode(created) == codec().encode(game.created)
    state = initial_state(created)
    dealer = SeededDealer(seed)
    log: list[Event] = [created]
    for command in game.commands:
        for e in decide(state, command, dealer):
            evolve(state, e)
            log.append(e)
    assert encode_log(log) == encode_log(game.log)


def test_replaying_a_game_with_the_same_bots_and_seed_gives_the_same_log() -> None:
    seats, kinds, seed = GAMES[1]
    one = play_game(random_game(seats, seed), make_bots(kinds, 5), seed)
    two = play_game(random_game(seats, seed), make_bots(kinds, 5), seed)
    assert encode_log(one.log) == encode_log(two.log)


def test_the_log_ends_with_the_seed_revealed_and_the_creation_commits_to_it() -> None:
    import hashlib

    seats, kinds, seed = GAMES[0]
    game = play_game(random_game(seats, seed), make_bots(kinds, 2), seed)
    assert game.created.seed_sha256 == hashlib.sha256(seed).hexdigest()
    assert game.log[-1].seed == seed.hex()  # type: ignore[attr-defined]


# --- copy -----------------------------------------------------------------------------------


def mutate_everything(state: State) -> None:
    """Change every mutable container reachable from the state, in place."""
    def poke(x: object) -> None:
        if isinstance(x, list):
            if x and isinstance(x[0], int):
                x[0] += 1000
            elif x:
                x.append(x[0])
            for y in x:
                if not isinstance(y, int):
                    poke(y)
        elif isinstance(x, set):
            x.add(-1000)
        elif isinstance(x, dict):
            for y in x.values():
                poke(y)
            x[-1000] = "poked"
        elif isinstance(x, tuple):
            for y in x:
                poke(y)
        elif type(x) in fields:  # the compiled engine's classes have no __slots__ to read
            for name in fields[type(x)]:
                poke(getattr(x, name))
        elif hasattr(x, "__slots__") and not isinstance(x, (int, str)):
            for name in x.__slots__:
                poke(getattr(x, name))

    fields: dict[type, tuple[str, ...]] = {Player: PLAYER_FIELDS, Trade: TRADE_FIELDS}
    for name in STATE_FIELDS:
        if name not in ("rules", "board"):
            poke(getattr(state, name))


def states_along(seed: bytes, every: int) -> list[tuple[State, list[Command]]]:
    """Live states at every `every`-th decision of a trading game (some with an open offer),
    each with the commands that follow it."""
    game = play_game(random_game(4, seed), make_bots(("trading",) * 4, 3), seed)
    state = initial_state(game.created)
    dealer = SeededDealer(seed)
    out = []
    for i, command in enumerate(game.commands):
        if i % every == 0 or state.trade is not None and i % 7 == 0:
            out.append((state.copy(), game.commands[i:]))
        for e in decide(state, command, dealer):
            evolve(state, e)
    return out


def test_a_copy_is_independent_of_the_original_both_ways() -> None:
    points = states_along(b"copy-1", 40)
    assert any(s.trade is not None for s, _ in points), "no point with an open offer"
    for original, _ in points:
        before = original.to_dict()
        twin = original.copy()
        assert twin.to_dict() == before
        mutate_everything(twin)
        assert original.to_dict() == before, "mutating the copy changed the original"
        twin = original.copy()
        mutate_everything(original)
        assert twin.to_dict() == before, "mutating the original changed the copy"


def test_playing_on_a_copy_leaves_the_original_as_it_was() -> None:
    seed = b"copy-2"
    for original, rest in states_along(seed, 60):
        before = original.to_dict()
        branch = original.copy()
        dealer = SeededDealer(seed)
        for command in rest:
            for e in decide(branch, command, dealer):
                evolve(branch, e)
        assert branch.finished
        assert original.to_dict() == before


def test_decide_never_changes_the_state_whether_it_accepts_or_rejects() -> None:
    seed = b"decide-pure"
    for state, rest in states_along(seed, 25):
        before = state.to_dict()
        dealer = SeededDealer(seed)
        for prompt in pending(state):
            for option in [*prompt.options[:20], prompt.default]:
                decide(state, option, dealer)
                assert state.to_dict() == before
                # The same command from the wrong seat is refused, and changes nothing either.
                other = msgspec.structs.replace(option, seat=(option.seat + 1) % state.n)
                with contextlib.suppress(Rejected):
                    decide(state, other, dealer)
                assert state.to_dict() == before
        assert rest


# --- chance ---------------------------------------------------------------------------------


def rolls(log: list[Event]) -> dict[int, tuple[int, int]]:
    return {e.n: (e.d1, e.d2) for e in log if isinstance(e, DiceRolled)}


def test_the_kth_roll_depends_only_on_the_seed_and_k() -> None:
    seed = b"dice-by-index"
    a = play_game(random_game(4, seed), make_bots(("random",) * 4, 1), seed)
    b = play_game(random_game(4, seed), make_bots(("heuristic", "trading", "heuristic", "random"), 9), seed)
    c = play_game(random_game(3, seed), make_bots(("trading",) * 3, 4), seed)
    ra, rb, rc = rolls(a.log), rolls(b.log), rolls(c.log)
    assert sorted(ra) == list(range(len(ra)))  # roll indexes are gap-free from 0
    common = set(ra) & set(rb) & set(rc)
    assert len(common) > 20
    assert a.log != b.log  # different games ...
    for n in common:
        assert ra[n] == rb[n] == rc[n]  # ... the same dice by roll index
    # ... and they are what the seed says for "dice:<n>".
    dealer = SeededDealer(seed)
    for n, dice in ra.items():
        assert dealer.pick(f"dice:{n}", DICE_OUTCOMES, (1,) * 36) == dice


def test_different_seeds_roll_different_dice() -> None:
    def first_rolls(seed: bytes) -> list[tuple[int, int]]:
        dealer = SeededDealer(seed)
        return [dealer.pick(f"dice:{n}", DICE_OUTCOMES, (1,) * 36) for n in range(30)]

    assert first_rolls(b"one") != first_rolls(b"two")
    assert first_rolls(b"one") == first_rolls(b"one")


def test_seeded_dice_are_fair_enough() -> None:
    dealer = SeededDealer(b"fairness")
    counts: dict[tuple[int, int], int] = {}
    n = 36 * 400
    for k in range(n):
        d = dealer.pick(f"dice:{k}", DICE_OUTCOMES, (1,) * 36)
        counts[d] = counts.get(d, 0) + 1
    assert set(counts) == set(DICE_OUTCOMES)
    chi2 = sum((c - 400) ** 2 / 400 for c in counts.values())
    assert chi2 < 80  # 35 degrees of freedom: p < 1e-4 at 80
