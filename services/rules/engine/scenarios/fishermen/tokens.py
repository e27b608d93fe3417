"""Fish tokens (docs/rules/fishermen.md §6.3, §6.6): drawn from the grounds and the lake, at
set-up, reshuffled when the supply runs out, the limit of 7 with its returns, the boot's reveal.

Every token drawn is the chance point `fish:<n>`, weighted by the kinds left in the supply (the
boot is a kind of its own), and is written into `FishDrawn` / `OldBootDrawn`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement

from events.commands import PlaceSettlement
from events.events import Event
from events.fishermen import (
    FishDrawn,
    FishReshuffled,
    FishReturned,
    FishReturnRequired,
    OldBootDrawn,
    ReturnFish,
)
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine import hooks
from services.rules.engine.base.setup import brings_resources
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.fishermen.common import (
    BOOT,
    HAND_LIMIT,
    KINDS,
    LAKE_NUMBERS,
    RETURN,
    fish,
    tokens_of,
)
from services.rules.engine.scenarios.fishermen.waters import waters
from services.rules.engine.state import Rules, State

PlaceHandler = Callable[[State, PlaceSettlement, Dealer], list[Event]]

# --- what is owed, and the draws ------------------------------------------------------------


def owed(state: State, total: int) -> list[int]:
    """Tokens each seat is owed for `total`: its buildings' levels on the grounds with that
    number, and on the lake's corners for 2, 3, 11, 12 unless the robber is on the lake."""
    w = waters(state)
    owner, level, n = state.vertex_owner, state.vertex_level, state.n
    due = [0] * n
    vertices: list[int] = []
    for _, number, vs in w.grounds:
        if number == total:
            vertices.extend(vs)
    if total in LAKE_NUMBERS and w.lake != state.robber:
        vertices.extend(w.lake_vertices)
    for v in vertices:
        o = owner[v]
        if 0 <= o < n:
            due[o] += level[v]
    return due


def draw(state: State, order: Sequence[int], due: Sequence[int], dealer: Dealer) -> list[Event]:
    """Each seat of `order` draws all it is owed, in turn; an empty supply is rebuilt from the
    spent pile, or the remaining draws are lost. Seats left above 7 tokens give some back."""
    f = fish(state)
    supply, spent, n = f.supply[:], f.spent[:], f.draws
    held = [tokens_of(h) for h in f.hands]
    out: list[Event] = []
    for seat in order:
        for _ in range(due[seat]):
            if not any(supply):
                if not any(spent):
                    return out + returns(held)
                out.append(FishReshuffled(tokens=sum(spent)))
                supply = [supply[k] + spent[k] for k in KINDS]
                spent = [0, 0, 0, 0]
            kind = dealer.pick(f"fish:{n}", KINDS, supply)
            supply[kind] -= 1
            if kind == BOOT:
                out.append(OldBootDrawn(seat=seat, n=n))
            else:
                out.append(FishDrawn(seat=seat, fish=kind, n=n))
                held[seat] += 1
            n += 1
    return out + returns(held)


def returns(held: list[int]) -> list[Event]:
    excess = tuple(max(0, h - HAND_LIMIT) for h in held)
    return [FishReturnRequired(counts=excess)] if any(excess) else []


def clockwise(state: State, first: int) -> list[int]:
    return [(first + i) % state.n for i in range(state.n)]


def fishing(previous: hooks.ResolveNumber[State]) -> hooks.ResolveNumber[State]:
    """Wrap `resolve_number`: after a number's resources, the fish it brings."""

    def resolve(state: State, seat: int, total: int, dealer: Dealer) -> list[Event]:
        events = list(previous(state, seat, total, dealer))
        if total == 7:
            return events
        due = owed(state, total)
        if any(due):
            events.extend(draw(state, clockwise(state, seat), due, dealer))
        return events

    return resolve


def setup_fishing(previous: PlaceHandler) -> PlaceHandler:
    """Wrap PlaceSettlement: the second set-up settlement at a ground or the lake draws 1."""

    def handler(state: State, cmd: PlaceSettlement, dealer: Dealer) -> list[Event]:
        second = brings_resources(state)
        events = list(previous(state, cmd, dealer))
        if second and cmd.vertex in waters(state).fishing_vertices:
            due = [0] * state.n
            due[cmd.seat] = 1
            events.extend(draw(state, [cmd.seat], due, dealer))
        return events

    return handler


# --- giving tokens back (the limit of 7) ----------------------------------------------------


def held_tokens(hand: list[int], tokens: Sequence[int]) -> bool:
    """Whether `tokens` (values) are fish tokens the hand holds."""
    need = [0, 0, 0, 0]
    for t in tokens:
        if t not in (1, 2, 3):
            return False
        need[t] += 1
    return all(need[k] <= hand[k] for k in (1, 2, 3))


def return_fish(state: State, cmd: ReturnFish, dealer: Dealer) -> list[Event]:
    f = fish(state)
    due = f.due[cmd.seat]
    if due == 0:
        raise reject("base.turn.not_your_turn", f"{state.names[cmd.seat]} has no fish to give back")
    if len(cmd.tokens) != due or not held_tokens(f.hands[cmd.seat], cmd.tokens):
        raise reject("fishermen.return.count", f"give back exactly {due} of your fish tokens")
    return [FishReturned(seat=cmd.seat, tokens=tuple(sorted(cmd.tokens)))]


def return_options(hand: list[int], count: int) -> list[tuple[int, ...]]:
    values = [k for k in (1, 2, 3) for _ in range(hand[k])]
    return sorted({c for c in combinations_with_replacement(sorted(set(values)), count)
                   if held_tokens(hand, c)})


def prompt_return(state: State) -> list[Prompt]:
    f = fish(state)
    prompts = []
    for seat, count in enumerate(f.due):
        if count:
            options = [ReturnFish(seat=seat, tokens=t) for t in return_options(f.hands[seat], count)]
            # A silent seat gives back its smallest tokens (they buy the least).
            prompts.append(Prompt(seat=seat, stage=RETURN, options=list(options), default=options[0]))
    return prompts


# --- evolvers -------------------------------------------------------------------------------


def evolve_drawn(state: State, e: FishDrawn) -> None:
    assert e.fish is not None, "the engine folds unredacted events"
    f = fish(state)
    f.supply[e.fish] -= 1
    f.hands[e.seat][e.fish] += 1
    f.draws = e.n + 1


def evolve_boot(state: State, e: OldBootDrawn) -> None:
    f = fish(state)
    f.supply[BOOT] -= 1
    f.boot = e.seat
    f.draws = e.n + 1


def evolve_reshuffled(state: State, e: FishReshuffled) -> None:
    f = fish(state)
    f.supply = [f.supply[k] + f.spent[k] for k in KINDS]
    f.spent = [0, 0, 0, 0]


def evolve_return_required(state: State, e: FishReturnRequired) -> None:
    f = fish(state)
    f.due = list(e.counts)
    f.resume = state.phase
    state.phase = RETURN


def give_up(state: State, seat: int, tokens: Sequence[int]) -> None:
    """Tokens from a hand to the face-up spent pile."""
    f = fish(state)
    for t in tokens:
        f.hands[seat][t] -= 1
        f.spent[t] += 1


def evolve_returned(state: State, e: FishReturned) -> None:
    give_up(state, e.seat, e.tokens)
    f = fish(state)
    f.due[e.seat] = 0
    if not any(f.due):
        state.phase = f.resume


def install(rules: Rules) -> None:
    rules.wrap_hook(hk.RESOLVE_NUMBER, fishing)
    rules.wrap_handler(PlaceSettlement, setup_fishing)
    rules.handle(ReturnFish, return_fish)
    rules.allow(RETURN, ReturnFish)
    rules.prompt(RETURN, prompt_return)
    rules.evolve_with(FishDrawn, evolve_drawn)
    rules.evolve_with(OldBootDrawn, evolve_boot)
    rules.evolve_with(FishReshuffled, evolve_reshuffled)
    rules.evolve_with(FishReturnRequired, evolve_return_required)
    rules.evolve_with(FishReturned, evolve_returned)
