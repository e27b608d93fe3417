"""What every part of the scenario shares: its state in `state.ext`, its phases, and the map's
places per seat slot (lanes, marked site, fortress, the fleet loop), worked out once per board."""

from __future__ import annotations

import tomllib
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Final

from mypy_extensions import mypyc_attr

from events.events import Event
from services.rules.engine.board import Board
from services.rules.engine.geometry import Hex
from services.rules.engine.modstate import StateKey
from services.rules.engine.state import State

EXT = "pirate-islands"
MAP = "pirate_islands"
MAPS = __name__.rpartition(".")[0] + ".maps"
SHIP = "ship"
FORTRESS = "fortress"
FORTRESS_STRENGTH = 3

# Phases of this scenario (strings, namespaced).
REWARD = "pirate_islands.reward"  # a seat beat the fleet and names its resource
GOLD = "pirate_islands.gold"  # seats choose what the gold fields paid them
STEAL = "pirate_islands.steal"  # the roller of a 7 chooses whom to draw from


@dataclass(frozen=True)
class SlotPlaces:
    """One seat slot's places as board ids. `distance[v]`: lane steps from v to the fortress."""

    home: int
    first_ship: int
    site: int
    fortress: int
    lanes: frozenset[int]
    distance: dict[int, int]


@dataclass(frozen=True)
class Places:
    slots: tuple[SlotPlaces, ...]
    loop: tuple[int, ...]  # the fleet's hexes, clockwise, index 0 its start
    main_hexes: frozenset[int]
    all_lanes: frozenset[int]


def _extra() -> dict[str, Any]:
    text = (resources.files(MAPS) / f"{MAP}.toml").read_text()
    extra: dict[str, Any] = tomllib.loads(text)["pirate_islands"]
    return extra


@lru_cache(maxsize=8)
def places(board: Board) -> Places:
    """The scenario's places on this board (the map file's slots, lanes and fleet loop)."""
    m = board.mapdata
    assert m is not None, "the Pirate Islands play on their own map"
    extra = _extra()
    slots = []
    for i, slot in enumerate(m.slots):
        pieces = dict(slot.pieces)
        marks = dict(slot.marks)
        lanes = board.edge_features[f"lane:{i}"]
        fortress = board.parse_vertex(marks["fortress"])
        slots.append(SlotPlaces(
            home=board.parse_vertex(pieces["settlement"]),
            first_ship=board.parse_edge(pieces["ship"]),
            site=board.parse_vertex(marks["site"]),
            fortress=fortress,
            lanes=lanes,
            distance=_lane_distance(board, lanes, fortress),
        ))
    loop = tuple(board.hex_id(_hex(h)) for h in extra["fleet_loop"])
    main = frozenset(board.hex_id(_hex(h)) for h in extra["main_island"])
    lanes_all = frozenset(e for s in slots for e in s.lanes)
    return Places(tuple(slots), loop, main, lanes_all)


def _hex(v: list[int]) -> Hex:
    return (int(v[0]), int(v[1]))


def _lane_distance(board: Board, lanes: frozenset[int], target: int) -> dict[int, int]:
    ev = board.topo.edge_vertices
    links: dict[int, list[int]] = {}
    for e in lanes:
        a, b = ev[e]
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    dist = {target: 0}
    queue = deque([target])
    while queue:
        v = queue.popleft()
        for w in links.get(v, ()):
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


# Copies start from `PirateState.__new__`, without __init__: compiled, that takes a class whose
# `__new__` does not call `__init__` (and interpreted code, the scenario and tests, still
# constructs it with its arguments: hence not mypyc's serializable=True, which skips __init__
# then).
@mypyc_attr(allow_interpreted_subclasses=True)
class PirateState:
    """The scenario's public state (state.ext[EXT]).

    routes: per seat its ships in route order (the pre-placed one first, the front last);
    warships: per seat (they are the rear-most ships); strength: per seat its fortress's
    strength (0: captured); fleet: the fleet's loop index (-1: removed); built: ships built
    this turn; moved: a ship was moved this turn; looted / throws: chance counters; gold:
    resources still due per seat; reward: a seat naming its fleet reward, with the seats still
    to be attacked, the fleet's strength and the roll's total."""

    __slots__ = ("routes", "warships", "strength", "fleet", "built", "moved", "looted",
                 "throws", "gold", "reward")

    def __init__(self, n: int) -> None:
        self.routes: list[list[int]] = [[] for _ in range(n)]
        self.warships = [0] * n
        self.strength = [FORTRESS_STRENGTH] * n
        self.fleet = 0
        self.built: set[int] = set()
        self.moved = False
        self.looted = 0
        self.throws = 0
        self.gold = [0] * n
        self.reward: tuple[int, tuple[int, ...], int, int] | None = None

    def copy(self) -> PirateState:
        c = PirateState.__new__(PirateState)
        c.routes = [r[:] for r in self.routes]
        c.warships = self.warships[:]
        c.strength = self.strength[:]
        c.fleet = self.fleet
        c.built = set(self.built)
        c.moved = self.moved
        c.looted = self.looted
        c.throws = self.throws
        c.gold = self.gold[:]
        c.reward = self.reward
        return c

    def dump(self) -> dict[str, Any]:
        return {
            "routes": [r[:] for r in self.routes], "warships": self.warships[:],
            "strength": self.strength[:], "fleet": self.fleet, "built": sorted(self.built),
            "moved": self.moved, "looted": self.looted, "throws": self.throws,
            "gold": self.gold[:],
            "reward": None if self.reward is None else [
                self.reward[0], list(self.reward[1]), self.reward[2], self.reward[3]],
        }

    @staticmethod
    def load(d: dict[str, Any]) -> PirateState:
        s = PirateState(len(d["warships"]))
        s.routes = [list(r) for r in d["routes"]]
        s.warships = list(d["warships"])
        s.strength = list(d["strength"])
        s.fleet = int(d["fleet"])
        s.built = set(d["built"])
        s.moved = bool(d["moved"])
        s.looted = int(d["looted"])
        s.throws = int(d["throws"])
        s.gold = list(d["gold"])
        r = d["reward"]
        s.reward = None if r is None else (int(r[0]), tuple(r[1]), int(r[2]), int(r[3]))
        return s


def pirate(state: State) -> PirateState:
    ps: PirateState = state.ext[EXT]
    return ps


def slot(state: State, seat: int) -> SlotPlaces:
    return places(state.board).slots[seat]


def open_end(state: State, seat: int) -> int:
    """The vertex at the open end of the seat's route (its home settlement with no ship)."""
    sp = slot(state, seat)
    at = sp.home
    ev = state.board.topo.edge_vertices
    for e in pirate(state).routes[seat]:
        a, b = ev[e]
        at = b if a == at else a
    return at


def apply(state: State, events: list[Event]) -> None:
    """Fold events into a scratch copy (a handler looking at what its own events change)."""
    for e in events:
        state.rules.registry.evolvers[type(e)](state, e)
        state.version += 1


def seats_from(state: State, first: int) -> list[int]:
    return [(first + i) % state.n for i in range(state.n)]


PIRATES: Final = StateKey(EXT, PirateState)  # the module's state (modstate.py)
