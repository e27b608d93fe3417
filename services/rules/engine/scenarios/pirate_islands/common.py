"""What every part of the scenario shares: its state in `state.ext`, its phases, and the map's
places per seat slot (lanes, marked site, fortress, the fleet loop), worked out once per board."""

from __future__ import annotations

import tomllib
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Final

import msgspec

from events.events import Event
from services.rules.engine.board import Board
from services.rules.engine.geometry import Hex
from services.rules.engine.modstate import StateKey
from services.rules.engine.scenarios.pirate_islands.state import PirateState
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


def _extra() -> dict[str, list[Hex]]:
    """The map file's `[pirate_islands]` table: the fleet's loop and the main island's hexes."""
    text = (resources.files(MAPS) / f"{MAP}.toml").read_text()
    return msgspec.convert(tomllib.loads(text)["pirate_islands"], dict[str, list[Hex]])


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
    loop = tuple(board.hex_id(h) for h in extra["fleet_loop"])
    main = frozenset(board.hex_id(h) for h in extra["main_island"])
    lanes_all = frozenset(e for s in slots for e in s.lanes)
    return Places(tuple(slots), loop, main, lanes_all)


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
