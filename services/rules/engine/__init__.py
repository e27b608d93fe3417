"""The hexlog rules engine: a pure decider (DESIGN.md "The decider contract").

    created = new_game(game_id, seats=4, seed=b"...")   # GameCreated (layout decided here)
    state = initial_state(created)
    events = decide(state, command, dealer)             # or raises Rejected(rule_id, message)
    for e in events: evolve(state, e)                   # mutates and returns the state
    pending(state), view(state, seat), score(state), state.copy()

No I/O happens here; all chance comes from the dealer and is written into events.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.commands import Command
from events.events import Event, GameCreated, ModuleSpec
from events.prompts import Prompt, View  # noqa: F401  (re-exported)
from services.rules.engine import layout
from services.rules.engine.base.scoring import public_vp, scores, total_vp
from services.rules.engine.base.setup import setup_order
from services.rules.engine.board import Board
from services.rules.engine.chance import Dealer, SeededDealer, seed_commitment
from services.rules.engine.modules import MODULES, RulesetError, build_ruleset, check_combination
from services.rules.engine.rules import RULES, Rejected, reject
from services.rules.engine.state import NO_ONE, SETUP, Player, State
from services.rules.engine.views import redact, view

RULES_VERSION = "2026.11.1"

__all__ = [
    "MODULES",
    "RULES",
    "RULES_VERSION",
    "Rejected",
    "RulesetError",
    "State",
    "decide",
    "evolve",
    "initial_state",
    "new_game",
    "pending",
    "public_vp",
    "redact",
    "score",
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
) -> GameCreated:
    """Decide a new game's layout from its seed and return the creation event.

    Raises RulesetError for an impossible set-up (seats, unknown or forbidden modules).
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
    tiles, harbors = layout.beginner() if beginner else layout.variable(dealer)
    desert = next(((t.q, t.r) for t in tiles if t.terrain == "desert"), None)
    fields: dict[str, object] = dict(
        game_id=game_id,
        ruleset=ruleset,
        modules=specs,
        seats=seats,
        names=tuple(names) or tuple(f"seat{i}" for i in range(seats)),
        map="base",
        tiles=tiles,
        harbors=harbors,
        robber=desert,
        seed_sha256=seed_commitment(seed),
        turn_limit=turn_limit,
        setup={},
    )
    for spec in specs:
        module = MODULES[spec.name]
        module.create(fields, module.params(spec), dealer)
    return GameCreated(**fields)  # type: ignore[arg-type]


def initial_state(created: GameCreated) -> State:
    rules = build_ruleset(created.ruleset, tuple(created.modules))
    board = Board(created.tiles, created.harbors)
    s = State.__new__(State)
    s.rules = rules
    s.board = board
    s.game_id = created.game_id
    s.n = created.seats
    s.names = tuple(created.names)
    s.version = 1  # the creation event is version 1
    s.phase = SETUP
    s.setup_order = setup_order(created.seats)
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
    s.bank = [19, 19, 19, 19, 19]
    s.deck = list(rules.dev_deck)
    s.players = [Player(i) for i in range(created.seats)]
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
    for name, init in rules.init_ext.items():
        s.ext[name] = init(s, created)
    return s


def decide(state: State, command: Command, dealer: Dealer) -> list[Event]:
    """The events `command` causes, or Rejected. Never changes `state`."""
    rules = state.rules
    if state.finished:
        raise reject("base.game.over", "the game is over")
    handler = rules.handlers.get(type(command))
    if handler is None:
        raise reject("base.command.unknown", f"{type(command).__name__} is not part of this ruleset")
    if not 0 <= command.seat < state.n:
        raise reject("base.seat.unknown", f"there is no seat {command.seat} in this game")
    allowed = rules.phase_commands.get(state.phase, ())
    if type(command) not in allowed:
        raise reject(
            phase_refusal(state, command),
            f"{type(command).__name__} is not possible during {state.phase}",
        )
    events = handler(state, command, dealer)
    derive_after = rules.derive_after
    for e in events:
        if type(e) in derive_after:
            return _with_consequences(state, events, dealer)
    return events


def phase_refusal(state: State, command: Command) -> str:
    """The most specific rule a command breaks by coming at the wrong moment."""
    for explain in state.rules.phase_refusal:
        rule_id = explain(state, command)
        if rule_id is not None:
            return rule_id
    return "base.turn.wrong_phase"


def _with_consequences(state: State, events: list[Event], dealer: Dealer) -> list[Event]:
    """Run the derivers (awards, victory, module consequences) on a scratch copy."""
    scratch = state.copy()
    for e in events:
        evolve(scratch, e)
    seen = {type(e) for e in events}
    out = list(events)
    for triggers, derive in state.rules.derivers:
        if scratch.finished:
            break
        if triggers.isdisjoint(seen):
            continue
        for e in derive(scratch, dealer):
            evolve(scratch, e)
            seen.add(type(e))
            out.append(e)
    return out


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state (in place). Never fails on a valid log."""
    state.rules.evolvers[type(event)](state, event)
    state.version += 1
    return state


def pending(state: State) -> list[Prompt]:
    """Who must act now, each with the legal commands; empty when the game is over."""
    if state.finished:
        return []
    return state.rules.prompters[state.phase](state)


def score(state: State) -> tuple[int, ...]:
    """Each seat's victory points, hidden ones included."""
    return scores(state)


