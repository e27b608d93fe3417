"""The hexlog rules engine: a pure decider (docs/design.md "The decider contract").

    created = new_game(game_id, seats=4, seed=b"...")   # GameCreated (layout decided here)
    state = initial_state(created)
    events = decide(state, command, dealer)             # or raises Rejected(rule_id, message)
    for e in events: evolve(state, e)                   # mutates and returns the state
    events = step(state, command, dealer)               # both in one pass (same result)
    pending(state), view(state, seat), score(state), state.copy()
    chance_outcomes(state, command)                     # every outcome of its chance, with p

No I/O happens here; all chance comes from the dealer and is written into events. A game is
played on a map (`new_game(map=...)`, else its scenario's, else "base"; mapdata.py) by a
ruleset: the base rules plus modules (modules.py) that extend the vocabularies (vocab.py) and
wrap the hooks (hooks.py). `next_prompt` says which of several prompts is answered first.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TypeVar

from events.commands import Command
from events.events import Event, GameCreated, ModuleSpec
from events.prompts import Prompt, View  # noqa: F401  (re-exported)
from services.rules.engine import layout, pieces
from services.rules.engine.base.scoring import public_vp, scores, total_vp
from services.rules.engine.base.setup import setup_order
from services.rules.engine.board import Board
from services.rules.engine.chance import SeededDealer, seed_commitment
from services.rules.engine.dispatch import decide, evolve, next_prompt, pending, step
from services.rules.engine.mapdata import MapData, MapError, load_map
from services.rules.engine.modules import (
    MODULES,
    RulesetError,
    build_ruleset,
    check_combination,
    combinations_for,
    map_packages,
)
from services.rules.engine.rules import RULES, Rejected
from services.rules.engine.state import NO_ONE, SETUP, State
from services.rules.engine.views import redact, view

# 2026.12.1: oil and gold ride in the base commands and events (one trade); the pair rules of
# modules moved to engine/combinations/ (module states changed: older snapshots are not used).
RULES_VERSION = "2026.12.1"
T = TypeVar("T")

__all__ = [
    "MODULES",
    "RULES",
    "RULES_VERSION",
    "Rejected",
    "RulesetError",
    "State",
    "chance_outcomes",
    "decide",
    "evolve",
    "initial_state",
    "new_game",
    "next_prompt",
    "pending",
    "public_vp",
    "redact",
    "score",
    "step",
    "total_vp",
    "view",
]


def new_game(
    game_id: str,
    seats: int = 4,
    seed: bytes = b"",
    modules: Sequence[ModuleSpec] = (),
    names: Sequence[str] = (),
    ruleset: str = "base",
    beginner: bool = False,
    turn_limit: int = 0,
    map: str = "",
) -> GameCreated:
    """Decide a new game's layout from its seed and return the creation event.

    The map is `map`, else the one a chosen module plays on, else "base"; `beginner` takes its
    fixed layout. Raises RulesetError for an impossible set-up (seats, unknown or forbidden
    modules, an unknown map or one with terrains the ruleset does not know).
    """
    if not 2 <= seats <= 4:
        raise RulesetError("a game has 2 to 4 seats")
    specs = tuple(modules)
    check_combination(specs, seats)
    if names and len(names) != seats:
        raise RulesetError(f"{len(names)} names for {seats} seats")
    if not seed:
        raise RulesetError("a game needs a secret seed")
    dealer = SeededDealer(seed)
    map = map or next((MODULES[s.name].map for s in specs if MODULES[s.name].map), "base")
    try:
        m = load_map(map, map_packages())
    except MapError as exc:
        raise RulesetError(str(exc)) from exc
    rules = build_ruleset(ruleset, specs)
    laid, harbors = layout.lay(m, dealer, use_fixed=beginner)
    unknown = {t for *_, t, _ in laid if t not in rules.vocab.terrains}
    if unknown:
        raise RulesetError(f"map {map}: terrains {sorted(unknown)} are not in this ruleset")
    tiles, special = layout.to_wire(m, laid)
    fields: dict[str, object] = dict(
        game_id=game_id,
        ruleset=ruleset,
        modules=specs,
        seats=seats,
        names=tuple(names) or tuple(f"seat{i}" for i in range(seats)),
        map=map,
        tiles=tiles,
        harbors=harbors,
        robber=robber_start(m, laid),
        seed_sha256=seed_commitment(seed),
        turn_limit=turn_limit,
        setup=special,
    )
    for spec in specs:
        module = MODULES[spec.name]
        module.create(fields, module.params(spec), dealer)
    for combination in combinations_for([s.name for s in specs]):
        combination.create(fields, dealer)
    return GameCreated(**fields)  # type: ignore[arg-type]


def robber_start(m: MapData, laid: list[layout.Laid]) -> tuple[int, int] | None:
    if m.robber == "none":
        return None
    if isinstance(m.robber, tuple):
        return m.robber
    return next(((q, r) for q, r, t, _ in laid if t == "desert"), None)


def game_board(
    created: GameCreated,
    vocab_terrains: dict[str, int],
    land: set[str],
    deserts: frozenset[str] = frozenset({"desert"}),
) -> Board:
    """The board of a game: its map file, its tiles and the module-terrain hexes and extra
    numbers of set-up."""
    m = load_map(created.map, map_packages())
    water = frozenset(t for t in vocab_terrains if t not in land)
    return Board(created.tiles, created.harbors, m, layout.from_setup(created.setup),
                 vocab_terrains, water, deserts, layout.extra_numbers(created.setup))


def initial_state(created: GameCreated) -> State:
    rules = build_ruleset(created.ruleset, tuple(created.modules))
    vocab = rules.vocab
    board = game_board(created, vocab.terrains, vocab.land, frozenset(vocab.deserts))
    s = State.__new__(State)
    s.rules = rules
    s.board = board
    s.game_id = created.game_id
    s.n = created.seats
    s.names = tuple(created.names)
    s.version = 1  # the creation event is version 1
    s.phase = SETUP
    s.setup_order = setup_order(created.seats, len(rules.setup_rounds))
    s.setup_pos = 0
    s.setup_vertex = NO_ONE
    s.current = s.setup_order[0]
    s.turn = 0
    s.rolled = False
    s.dev_played = False
    s.rolls = 0
    s.dev_draws = 0
    s.steals = 0
    s.last_roll = 0
    s.robber = board.hex_id(created.robber) if created.robber is not None else NO_ONE
    s.robber_from = ""
    s.vertex_owner = [NO_ONE] * board.n_vertices
    s.vertex_level = [0] * board.n_vertices
    s.edge_owner = [NO_ONE] * board.n_edges
    s.bank = list(vocab.bank)
    s.deck = list(rules.cache.dev_deck)
    s.players = [s.new_player(i) for i in range(created.seats)]
    s.discards = [0] * created.seats
    s.free_roads = 0
    s.trade = None
    s.longest_holder = NO_ONE
    s.longest_length = 0
    s.army_holder = NO_ONE
    s.winner = NO_ONE
    s.finished = False
    s.vp_target = rules.base_target
    s.turn_limit = created.turn_limit
    s.ext = {}
    pieces.preplace(s)
    for name, init in rules.states.init.items():
        s.ext[name] = init(s, created)
    return s


def score(state: State) -> tuple[int, ...]:
    """Each seat's victory points, hidden ones included."""
    return scores(state)


class _Branch:
    """A dealer that follows given choices (indices into each chance point's outcomes) and
    then takes the first possible outcome, recording every point it met."""

    def __init__(self, path: tuple[int, ...]) -> None:
        self.path = path
        self.taken: list[tuple[int, Sequence[int]]] = []

    def pick(self, key: str, outcomes: Sequence[T], weights: Sequence[int]) -> T:
        at = len(self.taken)
        i = self.path[at] if at < len(self.path) else next(
            j for j, w in enumerate(weights) if w > 0)
        self.taken.append((i, tuple(weights)))
        return outcomes[i]

    def seed_hex(self) -> str:
        return ""


def chance_outcomes(state: State, command: Command) -> list[tuple[Fraction, list[Event]]]:
    """Every way chance can answer `command` here, each with its probability and events.

    The decider contract for search: `decide` is run once per combination of the outcomes of
    the chance points it meets (dice, a steal, a drawn card, a module's draws), depth first;
    the probabilities are exact and sum to 1. Raises Rejected like `decide`. A point's key
    and weights are the same the game's dealer sees, so any module's chance is covered."""
    out: list[tuple[Fraction, list[Event]]] = []
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        branch = _Branch(prefix)
        events = decide(state, command, branch)
        p = Fraction(1)
        for at, (i, weights) in enumerate(branch.taken):
            p *= Fraction(weights[i], sum(weights))
            if at >= len(prefix):
                path = tuple(c for c, _ in branch.taken[:at])
                stack.extend(path + (j,) for j in range(i + 1, len(weights)) if weights[j] > 0)
        out.append((p, events))
    return out
