"""The game state the decider folds events into.

Mutable on purpose: `evolve` changes it in place (a fold over thousands of events, and search
bots stepping millions of times, cannot afford a new object per event). `copy()` is the cheap
way to branch: flat lists of ints and small sets, the board and ruleset shared. Everything here
is derivable from the log; nothing secret lives in it (the seed and deck order stay with the
dealer), so `view` only has to hide other seats' hands and cards.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from mypy_extensions import mypyc_attr

from services.rules.engine.board import Board
from services.rules.engine.ruleset import Ruleset

# Phases of the base turn (docs/rules/base.md §1.3–§1.6). Modules may add their own (strings, namespaced).
SETUP: Final = "setup"
ROLL: Final = "roll"
DISCARD: Final = "discard"
ROBBER: Final = "robber"
MAIN: Final = "main"
ROAD_BUILDING: Final = "road_building"
TRADE: Final = "trade"
OVER: Final = "over"

NO_ONE: Final = -1
SETTLEMENT: Final = 1
CITY: Final = 2


Rules = Ruleset["State"]  # the engine's rulesets: hooks typed against this State


# The attribute names, for copies and dumps (compiled classes have no __slots__ to read).
PLAYER_FIELDS = (
        "seat",
        "hand",
        "dev",
        "dev_new",
        "knights",
        "roads",
        "settlements",
        "cities",
        "ratios",
        "road_length",
        "pieces",
    )


# Copies start from `Player.__new__`, without __init__: compiled, that takes
# serializable=True (a native `__new__` calls `__init__`). Only compiled code (the engine)
# constructs players: with this mypyc, a serializable class constructed from interpreted code
# does not run its `__init__`.
@mypyc_attr(serializable=True)
class Player:
    __slots__ = PLAYER_FIELDS

    def __init__(self, seat: int, resources: int = 5, cards: int = 5) -> None:
        self.seat = seat
        self.hand = [0] * resources  # by the ruleset's resource index (vocab.py)
        self.dev = [0] * cards  # unplayed cards by development card index (VP cards included)
        self.dev_new = [0] * cards  # of those, bought this turn
        self.knights = 0  # knights played (face up)
        # Route pieces of every kind (roads, ships, bridges: the seat's network) by edge.
        self.roads: set[int] = set()
        self.settlements: set[int] = set()
        self.cities: set[int] = set()
        self.ratios = [4] * resources  # best maritime ratio per resource
        self.road_length = 0
        # Pieces of the kinds modules add (vocab.PieceKind) by kind: their sites. A route
        # kind's edges are in `roads` too; `pieces[kind]` says which of them are that kind.
        self.pieces: dict[str, set[int]] = {}

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.seat = self.seat
        p.hand = self.hand[:]
        p.dev = self.dev[:]
        p.dev_new = self.dev_new[:]
        p.knights = self.knights
        p.roads = set(self.roads)
        p.settlements = set(self.settlements)
        p.cities = set(self.cities)
        p.ratios = self.ratios[:]
        p.road_length = self.road_length
        p.pieces = {k: set(v) for k, v in self.pieces.items()} if self.pieces else {}
        return p

    @property
    def cards(self) -> int:
        total = 0  # a plain loop: see base.common.holds_any
        for n in self.hand:
            total += n
        return total


# The attribute names, for copies and dumps (compiled classes have no __slots__ to read).
TRADE_FIELDS = ("proposer", "give", "get", "to", "answers")


class Trade:
    """An open domestic offer from the active seat (docs/rules/base.md §1.10).

    `answers` maps a responder to "accept", "reject" or its counter terms `(give, get)` seen
    from the responder's side.
    """

    __slots__ = TRADE_FIELDS

    def __init__(
        self, proposer: int, give: list[int], get: list[int], to: tuple[int, ...]
    ) -> None:
        self.proposer = proposer
        self.give = give
        self.get = get
        self.to = to
        self.answers: dict[int, str | tuple[list[int], list[int]]] = {}

    def copy(self) -> Trade:
        t = Trade(self.proposer, self.give[:], self.get[:], self.to)
        t.answers = {
            s: a if isinstance(a, str) else (a[0][:], a[1][:]) for s, a in self.answers.items()
        }
        return t


# The attribute names, for copies and dumps (compiled classes have no __slots__ to read).
STATE_FIELDS = (
        "rules",
        "board",
        "game_id",
        "n",
        "names",
        "version",
        "phase",
        "current",
        "turn",
        "setup_order",
        "setup_pos",
        "setup_vertex",
        "rolled",
        "dev_played",
        "rolls",
        "dev_draws",
        "steals",
        "last_roll",
        "robber",
        "robber_from",
        "vertex_owner",
        "vertex_level",
        "edge_owner",
        "bank",
        "deck",
        "players",
        "discards",
        "free_roads",
        "trade",
        "longest_holder",
        "longest_length",
        "army_holder",
        "winner",
        "finished",
        "vp_target",
        "turn_limit",
        "ext",
    )


class State:
    """`n` seats take turns; `players` has one Player per seat, and a module may append
    board-only owners after them (ids n, n+1, …: Catan for Two's neutrals) that never take
    turns, hold cards or produce."""

    __slots__ = STATE_FIELDS

    # Annotations only (no class attributes): __slots__ holds the values.
    rules: Rules
    board: Board
    game_id: str
    n: int
    names: tuple[str, ...]
    version: int
    phase: str
    current: int
    turn: int
    setup_order: tuple[int, ...]
    setup_pos: int
    setup_vertex: int
    rolled: bool
    dev_played: bool
    rolls: int
    dev_draws: int
    steals: int
    last_roll: int
    robber: int
    robber_from: str
    vertex_owner: list[int]
    vertex_level: list[int]
    edge_owner: list[int]
    bank: list[int]
    deck: list[int]
    players: list[Player]
    discards: list[int]
    free_roads: int
    trade: Trade | None
    longest_holder: int
    longest_length: int
    army_holder: int
    winner: int
    finished: bool
    vp_target: int
    turn_limit: int
    # Module states by name, each of the type its StateKey gives (modstate.py): read them
    # through the key (`KEY.of(state)`), which types them; the table holds them all.
    ext: dict[str, Any]

    def copy(self) -> State:
        s = State.__new__(State)
        s.rules = self.rules
        s.board = self.board
        s.game_id = self.game_id
        s.n = self.n
        s.names = self.names
        s.version = self.version
        s.phase = self.phase
        s.current = self.current
        s.turn = self.turn
        s.setup_order = self.setup_order
        s.setup_pos = self.setup_pos
        s.setup_vertex = self.setup_vertex
        s.rolled = self.rolled
        s.dev_played = self.dev_played
        s.rolls = self.rolls
        s.dev_draws = self.dev_draws
        s.steals = self.steals
        s.last_roll = self.last_roll
        s.robber = self.robber
        s.robber_from = self.robber_from
        s.vertex_owner = self.vertex_owner[:]
        s.vertex_level = self.vertex_level[:]
        s.edge_owner = self.edge_owner[:]
        s.bank = self.bank[:]
        s.deck = self.deck[:]
        s.players = [p.copy() for p in self.players]
        s.discards = self.discards[:]
        s.free_roads = self.free_roads
        s.trade = self.trade.copy() if self.trade is not None else None
        s.longest_holder = self.longest_holder
        s.longest_length = self.longest_length
        s.army_holder = self.army_holder
        s.winner = self.winner
        s.finished = self.finished
        s.vp_target = self.vp_target
        s.turn_limit = self.turn_limit
        ext = self.ext
        s.ext = self.rules.states.copy_all(ext) if ext else {}
        return s

    # --- small helpers used across the base rules -------------------------------------------

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.n

    def new_player(self, seat: int) -> Player:
        """A player (or a board-only owner) with vectors as wide as this ruleset's."""
        vocab = self.rules.vocab
        return Player(seat, len(vocab.resources), len(vocab.dev_cards))

    def to_dict(self) -> dict[str, Any]:
        """Everything, for equality checks in tests and for debugging (not a wire format).

        A deep copy: a snapshot taken before a move must not change with the state. JSON-like
        data of every shape (a module's state included), hence `Any`: readers index into it."""
        return copy.deepcopy(self.plain_dict())

    def plain_dict(self) -> dict[str, Any]:
        """`to_dict` without the deep copy: the state's own lists and sets, for a caller that
        encodes them at once and keeps nothing (a snapshot)."""
        out: dict[str, Any] = self.fields_dict()
        out["ext"] = self.rules.states.dump_all(self.ext)
        return out

    def fields_dict(self) -> dict[str, object]:
        """`to_dict` without `ext` and without the deep copy: its lists and sets are the
        state's own, to be encoded at once (undo's checkpoint), never kept or changed."""
        out: dict[str, object] = {}
        for name in STATE_FIELDS:
            if name in ("rules", "board", "ext"):
                continue
            value = getattr(self, name)
            if name == "players":
                value = [{k: getattr(p, k) for k in PLAYER_FIELDS} for p in value]
            elif name == "trade" and value is not None:
                value = {k: getattr(value, k) for k in TRADE_FIELDS}
            out[name] = value
        return out
