"""hexlog's search bot in one seat of catanatron games, against three catanatron bots.

    benchmarks/.venv-catanatron/bin/python benchmarks/catanatron_bridge.py --selftest
    benchmarks/.venv-catanatron/bin/python benchmarks/catanatron_bridge.py --games 400 \\
        --opponent alphabeta --seed bridge-400 --out out/alphabeta-0.jsonl

Information regime: hexlog's bot decides from its own seat's view only (its hand and
development cards exactly; of the others their card counts, buildings, roads, played knights,
the robber, the bank and the deck's size: what a seat at the table sees), and the search
determinizes the rest (`bots.determinize`). It counts cards as a player at the table can
(`HandCounter`): every action's public change to the hands is followed, and a steal's card is
known only when our seat was the thief or the victim (`--no-count`: the others' hands dealt
uniformly from the unseen cards instead). catanatron's AlphaBetaPlayer and ValueFunctionPlayer
read the whole game state (every hand and the deck's order).

Setup (one venv that imports both; git-ignored, never a dependency of hexlog):

    python3 -m venv benchmarks/.venv-catanatron
    benchmarks/.venv-catanatron/bin/pip install catanatron==3.2.1 psutil
    benchmarks/.venv-catanatron/bin/pip install --no-deps catanatron-gym==3.2.1
    benchmarks/.venv-catanatron/bin/pip install gym==0.26.2   # catanatron-gym imports gym
    benchmarks/.venv-catanatron/bin/pip install -e .           # hexlog itself

catanatron's AlphaBetaPlayer and ValueFunctionPlayer are not in the catanatron wheel: they are
in the `catanatron_experimental` package of catanatron's own repository (modules
`machine_learning/players/minimax.py`, `value.py`, `tree_search_utils.py`), which must be put
on that venv's path from catanatron's source (it is not on PyPI). This script imports them; it
contains none of catanatron's code.

How a decision is bridged: catanatron's board is mapped once per game onto hexlog's axial
coordinates (cube (x, y, z) -> axial (q, r) = (x, z); a node by the corner it is of each of its
tiles, an edge by its two nodes), checked for a one-to-one mapping. At each decision of our
seat, the position is read from catanatron as our seat sees it (`Snapshot`: no other seat's
hidden card is read, only counts) and made into a hexlog `State` whose unseen cards are
placeholders; the bot gets `view(state, seat)` (which hides the placeholders) and the prompt
the hexlog rules give there. Its command is translated into the catanatron action with the
same meaning; one that is not among catanatron's playable actions is logged and counted, and
a legal action is played instead (`fallbacks`). Decisions where catanatron offers one action
only (a discard: catanatron 3.2.1 discards at random) are played without asking the bot.
catanatron 3.2.1 has no domestic trade, so the bot's prompt says it may not offer one.

Our seat: catanatron shuffles the seating with the game's seed; the script takes, for game
i, the first seed in a fixed sequence that seats our bot at position i mod 4, so the seat
rotates through the four positions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from bots.search import DEFAULT_PLAYOUTS, SearchBot
from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    Command,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    PlaceRoad,
    PlaceSettlement,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
)
from events.events import GameCreated, Harbor, Tile
from events.prompts import Prompt, View
from events.types import DEV_CARDS
from services.rules.engine import initial_state, pending
from services.rules.engine.pieces import add_harbor
from services.rules.engine.state import (
    CITY,
    MAIN,
    NO_ONE,
    ROAD_BUILDING,
    ROBBER,
    ROLL,
    SETTLEMENT,
    SETUP,
    State,
)
from services.rules.engine.views import view

# catanatron's names -> hexlog's (the resource order is the same: wood, brick, sheep, wheat, ore)
RESOURCE_OF = {"WOOD": "lumber", "BRICK": "brick", "SHEEP": "wool", "WHEAT": "grain", "ORE": "ore"}
CAT_RESOURCE = {v: k for k, v in RESOURCE_OF.items()}
TERRAIN_OF = {"WOOD": "forest", "BRICK": "hills", "SHEEP": "pasture", "WHEAT": "fields",
              "ORE": "mountains", None: "desert"}
DEV_OF = {"KNIGHT": "knight", "VICTORY_POINT": "victory_point", "ROAD_BUILDING": "road_building",
          "YEAR_OF_PLENTY": "year_of_plenty", "MONOPOLY": "monopoly"}
CAT_RESOURCES = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")
# A pointy-top hex's corners in hexlog's order (geometry.corners: clockwise from north).
CORNER = {"NORTH": 0, "NORTHEAST": 1, "SOUTHEAST": 2, "SOUTH": 3, "SOUTHWEST": 4, "NORTHWEST": 5}
# catanatron's directions as hexlog axial steps.
STEP = {"NORTHEAST": (1, -1), "EAST": (1, 0), "SOUTHEAST": (0, 1), "SOUTHWEST": (-1, 1),
        "WEST": (-1, 0), "NORTHWEST": (0, -1)}
SEATS = 4


class BridgeError(ValueError):
    """A position or a command the bridge cannot translate."""


def axial(cube: tuple[int, int, int]) -> tuple[int, int]:
    return (cube[0], cube[2])


# --- the board, mapped once per game ----------------------------------------------------------


@dataclass
class LandTileData:
    """One catanatron land tile as plain data."""

    cube: tuple[int, int, int]
    resource: str | None  # catanatron's resource name; None: the desert
    number: int  # 0 for the desert
    nodes: dict[str, int]  # NodeRef name -> catanatron node id


@dataclass
class PortData:
    cube: tuple[int, int, int]
    direction: str  # catanatron's Direction name: from the port's sea hex toward its land
    resource: str | None  # None: 3:1


@dataclass
class BoardMap:
    """catanatron's board in hexlog's terms: the tiles and harbors of a `GameCreated`, and the
    node <-> vertex, edge <-> edge maps."""

    tiles: tuple[Tile, ...]
    harbors: tuple[Harbor, ...]
    robber: tuple[int, int]
    vertex_of: dict[int, int]  # catanatron node id -> hexlog vertex id
    node_of: dict[int, int]
    edge_of: dict[frozenset[int], int]  # catanatron node pair -> hexlog edge id
    nodes_of_edge: dict[int, frozenset[int]]
    base: State  # hexlog's state of the empty board, copied at each decision

    def hex_of(self, cube: tuple[int, int, int]) -> int:
        return self.base.board.hex_id(axial(cube))


def map_board(land: list[LandTileData], ports: list[PortData],
              sea: list[tuple[int, int, int]], seats: int = SEATS) -> BoardMap:
    tiles: list[Tile] = []
    robber = (0, 0)
    for t in land:
        q, r = axial(t.cube)
        tiles.append(Tile(q=q, r=r, terrain=TERRAIN_OF[t.resource],  # type: ignore[arg-type]
                          number=t.number))
        if t.resource is None:
            robber = (q, r)
    for cube in sea:
        q, r = axial(cube)
        tiles.append(Tile(q=q, r=r, terrain="sea"))
    harbors = []
    for p in ports:
        q, r = axial(p.cube)
        dq, dr = STEP[p.direction]
        kind = "3:1" if p.resource is None else RESOURCE_OF[p.resource]
        harbors.append(Harbor(sea=(q, r), land=(q + dq, r + dr), kind=kind))  # type: ignore[arg-type]
    tiles.sort(key=lambda t: (t.r, t.q))
    created = GameCreated(game_id="bridge", ruleset="base", modules=(), seats=seats,
                          names=tuple(f"seat{i}" for i in range(seats)), map="base",
                          tiles=tuple(tiles), harbors=tuple(harbors), robber=robber,
                          seed_sha256="")
    base = initial_state(created)
    topo = base.board.topo
    vertex_of: dict[int, int] = {}
    for t in land:
        h = topo.hex_index[axial(t.cube)]
        corners = topo.hex_vertices[h]
        for ref, node in t.nodes.items():
            v = corners[CORNER[ref]]
            if vertex_of.setdefault(node, v) != v:
                raise BridgeError(f"node {node} maps to vertices {vertex_of[node]} and {v}")
    node_of = {v: n for n, v in vertex_of.items()}
    if len(node_of) != len(vertex_of) or len(vertex_of) != len(topo.land_vertices):
        raise BridgeError("the node -> vertex map is not one to one over the land")
    edge_of: dict[frozenset[int], int] = {}
    for e in topo.land_edges:
        a, b = topo.edge_vertices[e]
        edge_of[frozenset((node_of[a], node_of[b]))] = e
    nodes_of_edge = {e: k for k, e in edge_of.items()}
    return BoardMap(tuple(tiles), tuple(harbors), robber, vertex_of, node_of, edge_of,
                    nodes_of_edge, base)


# --- a position as our seat sees it -----------------------------------------------------------


@dataclass
class Snapshot:
    """What our seat sees of a catanatron position, in hexlog's seat numbers (catanatron's
    seating order) and catanatron's node ids. Other seats' cards are counts only."""

    seat: int
    phase: str  # hexlog's: setup, roll, robber, main, road_building (discard is not bridged)
    current: int
    turn: int
    hand: list[int]  # ours, by resource
    dev: dict[str, int]  # ours, hexlog card name -> count (unplayed)
    cards: list[int]  # every seat's resource card count
    dev_cards: list[int]  # every seat's unplayed development card count
    played: list[dict[str, int]]  # every seat's played development cards (public)
    settlements: list[list[int]]  # node ids, per seat
    cities: list[list[int]]
    roads: list[list[frozenset[int]]]  # node pairs, per seat
    road_length: list[int]
    robber: tuple[int, int, int]
    bank: list[int]
    dev_deck: int
    longest_holder: int = NO_ONE
    army_holder: int = NO_ONE
    rolled: bool = False
    dev_played: bool = False
    last_roll: int = 0
    robber_from: str = "seven"
    free_roads: int = 0
    setup_pos: int = 0
    setup_node: int | None = None  # the settlement a set-up road must touch
    vp_target: int = 10


def build_state(bmap: BoardMap, snap: Snapshot) -> State:
    """A hexlog state of the snapshot: public parts exact, our cards exact, the other seats'
    hidden cards and the deck's makeup filled with placeholders (a fixed deal of the unseen
    cards: `view` hides them, and the bot's search draws its own)."""
    s = bmap.base.copy()
    vocab = s.rules.vocab
    n = s.n
    me = snap.seat
    s.phase = snap.phase
    s.current = snap.current
    s.turn = snap.turn
    s.rolled = snap.rolled
    s.dev_played = snap.dev_played
    s.last_roll = snap.last_roll
    s.robber = bmap.hex_of(snap.robber)
    s.robber_from = snap.robber_from
    s.bank = list(snap.bank)
    s.vp_target = snap.vp_target
    s.free_roads = snap.free_roads
    s.discards = [0] * n
    s.trade = None
    s.setup_pos = snap.setup_pos
    s.setup_vertex = NO_ONE if snap.setup_node is None else bmap.vertex_of[snap.setup_node]
    for seat in range(n):
        p = s.players[seat]
        p.knights = snap.played[seat].get("knight", 0)
        p.road_length = snap.road_length[seat]
        p.roads = {bmap.edge_of[k] for k in snap.roads[seat]}
        p.settlements = {bmap.vertex_of[x] for x in snap.settlements[seat]}
        p.cities = {bmap.vertex_of[x] for x in snap.cities[seat]}
        p.ratios = [4] * len(p.ratios)
        p.dev_new = [0] * len(p.dev_new)  # catanatron lets a card bought this turn be played
        for e in p.roads:
            s.edge_owner[e] = seat
        for v, level in [(v, SETTLEMENT) for v in p.settlements] + [(v, CITY) for v in p.cities]:
            s.vertex_owner[v] = seat
            s.vertex_level[v] = level
            kind = s.board.vertex_harbor[v]
            if kind is not None:
                add_harbor(s, p.ratios, kind)
    s.longest_holder = snap.longest_holder
    s.longest_length = 0 if snap.longest_holder == NO_ONE else snap.road_length[snap.longest_holder]
    s.army_holder = snap.army_holder
    # Resource cards: ours exact; the unseen ones (supply - bank - ours) dealt in order.
    s.players[me].hand = list(snap.hand)
    supply = list(vocab.bank)
    pool = [r for r in range(5) for _ in range(max(0, supply[r] - snap.bank[r] - snap.hand[r]))]
    for seat in range(n):
        if seat == me:
            continue
        hand = [0] * len(supply)
        for r in pool[: snap.cards[seat]]:
            hand[r] += 1
        del pool[: snap.cards[seat]]
        s.players[seat].hand = hand
    # Development cards: ours exact; the unseen ones (deck less ours and all played) likewise.
    deck = list(s.rules.cache.dev_deck)
    mine = [snap.dev.get(c, 0) for c in DEV_CARDS]
    s.players[me].dev = mine
    unseen = [deck[i] - mine[i] - sum(pl.get(c, 0) for pl in snap.played)
              for i, c in enumerate(DEV_CARDS)]
    dpool = [i for i, k in enumerate(unseen) for _ in range(max(0, k))]
    for seat in range(n):
        if seat == me:
            continue
        dev = [0] * len(deck)
        for i in dpool[: snap.dev_cards[seat]]:
            dev[i] += 1
        del dpool[: snap.dev_cards[seat]]
        s.players[seat].dev = dev
    rest = [0] * len(deck)
    for i in dpool[: snap.dev_deck]:
        rest[i] += 1
    s.deck = rest
    return s


def our_prompt(state: State, seat: int) -> Prompt:
    prompts = [p for p in pending(state) if p.seat == seat]
    if not prompts:
        raise BridgeError(f"hexlog has no prompt for seat {seat} in phase {state.phase}")
    # catanatron 3.2.1 has no domestic trade: the bot is told it may not offer one.
    return msgspec.structs.replace(prompts[0], may_trade=False)


# --- commands <-> actions ---------------------------------------------------------------------

ActionKey = tuple[Any, ...]


def action_key(kind: str, value: Any, colors: tuple[str, ...]) -> ActionKey:
    """A catanatron action (its type name and value; colors by name) as a comparable key."""
    if kind in ("BUILD_SETTLEMENT", "BUILD_CITY"):
        return (kind, int(value))
    if kind == "BUILD_ROAD":
        return (kind, frozenset(value))
    if kind == "MOVE_ROBBER":
        coord, victim = value[0], value[1]
        return (kind, tuple(coord), None if victim is None else colors.index(victim))
    if kind == "MARITIME_TRADE":
        give = next(x for x in value[:4] if x is not None)
        return (kind, give, value[4])
    if kind == "PLAY_YEAR_OF_PLENTY":
        return (kind, tuple(sorted(value)))
    if kind == "PLAY_MONOPOLY":
        return (kind, value)
    return (kind,)


def command_key(cmd: Command, bmap: BoardMap) -> ActionKey:
    """The key of the catanatron action that means the same as a hexlog command."""
    topo = bmap.base.board.topo
    if isinstance(cmd, PlaceSettlement | BuildSettlement):
        return ("BUILD_SETTLEMENT", bmap.node_of[cmd.vertex])
    if isinstance(cmd, BuildCity):
        return ("BUILD_CITY", bmap.node_of[cmd.vertex])
    if isinstance(cmd, PlaceRoad | BuildRoad):
        return ("BUILD_ROAD", bmap.nodes_of_edge[cmd.edge])
    if isinstance(cmd, RollDice):
        return ("ROLL",)
    if isinstance(cmd, EndTurn):
        return ("END_TURN",)
    if isinstance(cmd, BuyDevelopmentCard):
        return ("BUY_DEVELOPMENT_CARD",)
    if isinstance(cmd, PlayKnight):
        return ("PLAY_KNIGHT_CARD",)
    if isinstance(cmd, PlayRoadBuilding):
        return ("PLAY_ROAD_BUILDING",)
    if isinstance(cmd, PlayMonopoly):
        return ("PLAY_MONOPOLY", CAT_RESOURCE[cmd.resource])
    if isinstance(cmd, PlayYearOfPlenty):
        return ("PLAY_YEAR_OF_PLENTY", tuple(sorted(CAT_RESOURCE[r] for r in cmd.resources)))
    if isinstance(cmd, MaritimeTrade):
        return ("MARITIME_TRADE", CAT_RESOURCE[cmd.give], CAT_RESOURCE[cmd.get])
    if isinstance(cmd, MoveRobber):
        q, r = topo.hexes[cmd.hex]
        return ("MOVE_ROBBER", (q, -q - r, r), cmd.victim)
    raise BridgeError(f"no catanatron action for {type(cmd).__name__}")


# --- statistics -------------------------------------------------------------------------------


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def binomial_p(k: int, n: int, p: float = 0.25) -> float:
    """Two-sided exact binomial p-value of k wins in n against a win chance p (parity)."""
    probs = [math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
    return min(1.0, sum(q for q in probs if q <= probs[k] * (1 + 1e-9)))


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, math.ceil(q * len(ys)) - 1))]


# --- the catanatron side (imported only here) -------------------------------------------------


def catanatron_board(game: Any) -> BoardMap:
    from catanatron.models.map import LandTile, Port

    cmap = game.state.board.map
    land, ports, sea = [], [], []
    for cube, tile in cmap.tiles.items():
        if isinstance(tile, LandTile):
            land.append(LandTileData(tuple(cube), tile.resource, tile.number or 0,
                                     {ref.name: node for ref, node in tile.nodes.items()}))
        elif isinstance(tile, Port):
            ports.append(PortData(tuple(cube), tile.direction.name, tile.resource))
            sea.append(tuple(cube))
        else:
            sea.append(tuple(cube))
    bmap = map_board(land, ports, sea, len(game.state.colors))
    # Check: every catanatron edge of the land is a hexlog edge, and every port node a harbor
    # vertex of the same kind.
    for tile in cmap.land_tiles.values():
        for a, b in tile.edges.values():
            if frozenset((a, b)) not in bmap.edge_of:
                raise BridgeError(f"catanatron edge {(a, b)} is not a hexlog edge")
    hb = bmap.base.board
    for res, nodes in cmap.port_nodes.items():
        kind = "3:1" if res is None else RESOURCE_OF[res]
        for node in nodes:
            if hb.vertex_harbor[bmap.vertex_of[node]] != kind:
                raise BridgeError(f"port node {node} ({kind}) is not a hexlog {kind} harbor")
    return bmap


def snapshot(game: Any, color: Any) -> Snapshot:
    """Our seat's view of the position: only public values of the other seats are read."""
    from catanatron.models.enums import ActionType
    from catanatron.state_functions import (
        player_key,
        player_num_dev_cards,
        player_num_resource_cards,
    )

    st = game.state
    colors = st.colors
    me = colors.index(color)
    ps = st.player_state
    key = player_key(st, color)
    n = len(colors)
    if st.is_discarding:
        raise BridgeError("a discard is not bridged (catanatron discards at random)")
    settlements: list[list[int]] = [[] for _ in range(n)]
    cities: list[list[int]] = [[] for _ in range(n)]
    for node, (c, kind) in st.board.buildings.items():
        (settlements if kind == "SETTLEMENT" else cities)[colors.index(c)].append(node)
    roads: list[list[frozenset[int]]] = [[] for _ in range(n)]
    seen: set[frozenset[int]] = set()
    for edge, c in st.board.roads.items():
        k = frozenset(edge)
        if k not in seen:
            seen.add(k)
            roads[colors.index(c)].append(k)
    played = [{DEV_OF[d]: ps[f"P{i}_PLAYED_{d}"] for d in DEV_OF if ps[f"P{i}_PLAYED_{d}"]}
              for i in range(n)]
    last_roll = 0
    last_kind = None
    for a in reversed(st.actions):
        if last_kind is None:
            last_kind = a.action_type
        if a.action_type == ActionType.ROLL:
            last_roll = sum(a.value)
            break
    rolled = bool(ps[f"{key}_HAS_ROLLED"])
    setup_pos, setup_node = 0, None
    if st.is_initial_build_phase:
        phase = SETUP
        n_roads = len(seen)
        n_settlements = sum(len(x) for x in settlements)
        setup_pos = n_roads
        if n_settlements > n_roads:  # our settlement is down, its road is due
            ours = [a.value for a in st.actions
                    if a.color == color and a.action_type == ActionType.BUILD_SETTLEMENT]
            setup_node = ours[-1]
    elif st.current_prompt.value == "MOVE_ROBBER":  # (3.2.1 never clears is_moving_knight)
        phase = ROBBER
    elif st.is_road_building and st.free_roads_available > 0:
        phase = ROAD_BUILDING
    elif not rolled:
        phase = ROLL
    else:
        phase = MAIN
    holder = [i for i in range(n) if ps[f"P{i}_HAS_ROAD"]]
    army = [i for i in range(n) if ps[f"P{i}_HAS_ARMY"]]
    return Snapshot(
        seat=me,
        phase=phase,
        current=st.current_player_index,
        turn=st.num_turns + 1,
        hand=[ps[f"{key}_{r}_IN_HAND"] for r in CAT_RESOURCES],
        dev={DEV_OF[d]: ps[f"{key}_{d}_IN_HAND"] for d in DEV_OF if ps[f"{key}_{d}_IN_HAND"]},
        cards=[player_num_resource_cards(st, c) for c in colors],
        dev_cards=[player_num_dev_cards(st, c) for c in colors],
        played=played,
        settlements=settlements,
        cities=cities,
        roads=roads,
        road_length=[ps[f"P{i}_LONGEST_ROAD_LENGTH"] for i in range(n)],
        robber=tuple(st.board.robber_coordinate),
        bank=list(st.resource_freqdeck),
        dev_deck=len(st.development_listdeck),
        longest_holder=holder[0] if holder else NO_ONE,
        army_holder=army[0] if army else NO_ONE,
        rolled=rolled,
        dev_played=bool(ps[f"{key}_HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"]),
        last_roll=last_roll,
        robber_from="knight" if last_kind == ActionType.PLAY_KNIGHT_CARD else "seven",
        free_roads=st.free_roads_available,
        setup_pos=setup_pos,
        setup_node=setup_node,
        vp_target=game.vps_to_win,
    )


# --- card counting from the public record --------------------------------------------------


class HandCounter:
    """Every seat's resource hand as our seat can know it from what happened at the table.

    Each action's effect on the hands is public (production, builds, bank trades, discards,
    monopolies, year of plenty) except one: the card a robber steals, which only the thief and
    the victim see. The counter is a particle filter over the hands: `particles` guesses of
    every seat's hand, each public change applied to all, each steal it did not see drawn in
    each guess from that guess's victim hand. A later public change a guess cannot pay for (a
    seat builds a city with ore that guess gave away) kills that guess; the living are copied
    back up to the filter's size. Where the record is exact, every guess agrees.

    If every guess dies (too few met a rare history), each is mended: a card a seat is short of
    is swapped with another opponent's card of a resource the seat has, which keeps every
    seat's count, every resource's total and our own hand (`mended` counts these).
    """

    def __init__(self, seats: int, me: int, particles: int = 64, seed: int = 0) -> None:
        self.me = me
        self.rng = random.Random(seed)
        self.particles: list[list[list[int]]] = [[[0] * 5 for _ in range(seats)]
                                                 for _ in range(particles)]
        self.mended = 0
        self.steals = 0  # steals our seat did not see

    def public(self, deltas: list[list[int]]) -> None:
        """Every seat's hand change of one action (all of it public)."""
        alive = []
        for hands in self.particles:
            ok = True
            for hand, delta in zip(hands, deltas, strict=True):
                for r in range(5):
                    hand[r] += delta[r]
                    ok = ok and hand[r] >= 0
            if ok:
                alive.append(hands)
        if not alive:
            self.mended += 1
            alive = [mend_hands(hands, self.me) for hands in self.particles]
        self.refill(alive)

    def hidden_steal(self, thief: int, victim: int) -> None:
        """One card moved from `victim` to `thief`; our seat did not see which."""
        self.steals += 1
        alive = []
        for hands in self.particles:
            hand = hands[victim]
            if sum(hand) == 0:
                continue
            r = self.rng.choices(range(5), weights=hand)[0]
            hand[r] -= 1
            hands[thief][r] += 1
            alive.append(hands)
        if not alive:  # no guess gave the victim a card: the counts say it had one
            self.mended += 1
            alive = [self.particles[0]]
        self.refill(alive)

    def refill(self, alive: list[list[list[int]]]) -> None:
        out = list(alive)
        while len(out) < len(self.particles):
            out.append([list(h) for h in self.rng.choice(alive)])
        self.particles = out

    def sample(self, rng: random.Random) -> list[list[int]]:
        """One guess at every seat's hand (a copy)."""
        return [list(h) for h in rng.choice(self.particles)]

    def distinct(self, seat: int) -> int:
        """How many different hands the guesses give `seat` (1: the record makes it exact)."""
        return len({tuple(hands[seat]) for hands in self.particles})


def mend_hands(hands: list[list[int]], me: int) -> list[list[int]]:
    """Swap cards between the other seats until no hand is short. Such a swap always exists
    while the counts hold: a short seat's count is not negative, so it holds another resource,
    and the others' total of the short one is not negative, so another opponent holds it."""
    for x, hand in enumerate(hands):
        for r in range(5):
            while hand[r] < 0:
                swap = next(((y, s) for y, other in enumerate(hands)
                             if y not in (x, me) and other[r] > 0
                             for s in range(5) if s != r and hand[s] > 0), None)
                if swap is None:
                    hand[r] = 0
                    break
                y, s = swap
                hand[s] -= 1
                hand[r] += 1
                hands[y][r] -= 1
                hands[y][s] += 1
    return hands


class CountingSearchBot(SearchBot):
    """The search bot with the bridge's `HandCounter` as its belief about the others' hands
    (the search deals development cards as before: uniformly over the unseen ones)."""

    def __init__(self, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS) -> None:
        super().__init__(seed=seed, playouts=playouts)
        self.counter: HandCounter | None = None
        self.inconsistent = 0  # draws that did not match the view (then: the uniform deal)

    def belief_state(self, view: View, prompt: Prompt) -> State:
        state = super().belief_state(view, prompt)
        if self.counter is None:
            return state
        hands = self.counter.sample(self.rng)
        me = prompt.seat
        others = [seat for seat in range(state.n) if seat != me]
        dealt = [sum(state.players[s].hand[r] for s in others) for r in range(5)]
        counted = [sum(hands[s][r] for s in others) for r in range(5)]
        if (hands[me] != state.players[me].hand[:5] or dealt != counted
                or any(sum(hands[s]) != sum(state.players[s].hand) for s in others)):
            self.inconsistent += 1
            return state
        for s in others:
            state.players[s].hand = hands[s]
        return state


def true_hands(game: Any) -> list[list[int]]:
    """Every seat's hand as catanatron holds it. The bridge reads it before and after each
    action only to hand the counter that action's public change (never a hidden card), and the
    selftest to check the counter; the bot never gets it."""
    from catanatron.state_functions import player_key

    ps = game.state.player_state
    return [[ps[f"{player_key(game.state, c)}_{r}_IN_HAND"] for r in CAT_RESOURCES]
            for c in game.state.colors]


def watch(game: Any, color: Any, counter: HandCounter) -> None:
    """Feed `counter` every action played in `game` (its own execute, not the search copies
    catanatron's bots make), as our seat sees it: the steal's card only if our seat took part."""
    from catanatron.models.enums import ActionType

    colors = game.state.colors
    me = colors.index(color)
    execute = game.execute

    def counted_execute(action: Any, *args: Any, **kwargs: Any) -> Any:
        before = true_hands(game)
        result = execute(action, *args, **kwargs)
        after = true_hands(game)
        deltas = [[a - b for a, b in zip(x, y, strict=True)] for x, y in zip(after, before, strict=True)]
        thief = colors.index(action.color)
        victim = None if action.action_type != ActionType.MOVE_ROBBER or action.value[1] is None \
            else colors.index(action.value[1])
        if victim is not None and me not in (thief, victim) and sum(deltas[victim]) == -1:
            counter.hidden_steal(thief, victim)
        else:
            counter.public(deltas)
        return result

    game.execute = counted_execute


@dataclass
class BridgeStats:
    decisions: int = 0  # decisions of our seat where the bot was asked
    forced: int = 0  # decisions with one playable action (played without asking)
    times_ms: list[float] = field(default_factory=list)  # the bot's choose() per asked decision
    bridge_ms: list[float] = field(default_factory=list)  # snapshot + state + view + prompt
    fallbacks: Counter[str] = field(default_factory=Counter)
    # Options one side offers and the other does not, by action kind (rule differences, or
    # a translation error: the selftest shows them).
    only_hexlog: Counter[str] = field(default_factory=Counter)
    only_catanatron: Counter[str] = field(default_factory=Counter)
    fallback_log: list[str] = field(default_factory=list)
    mismatch_log: list[str] = field(default_factory=list)


def make_player(color: Any, bot: SearchBot, stats: BridgeStats) -> Any:
    from catanatron.models.player import Player

    class HexlogSearchPlayer(Player):  # type: ignore[misc]
        """The bridge's seat: catanatron asks, hexlog's search bot answers."""

        def __init__(self) -> None:
            super().__init__(color)
            self.bmap: BoardMap | None = None
            self.game_key: int | None = None

        def decide(self, game: Any, playable_actions: Any) -> Any:
            if len(playable_actions) == 1:
                stats.forced += 1
                return playable_actions[0]
            if self.game_key != id(game.state.board.map):
                self.bmap = catanatron_board(game)
                self.game_key = id(game.state.board.map)
            assert self.bmap is not None
            names = tuple(c for c in game.state.colors)
            keyed = {action_key(a.action_type.value, a.value, names): a for a in playable_actions}
            stats.decisions += 1
            try:
                t0 = time.perf_counter()
                snap = snapshot(game, color)
                state = build_state(self.bmap, snap)
                seat_view = view(state, snap.seat)
                prompt = our_prompt(state, snap.seat)
                compare(prompt, keyed, self.bmap, stats)
                prompt = playable_only(prompt, keyed, self.bmap)
                t1 = time.perf_counter()
                command = bot.choose(seat_view, prompt)
                t2 = time.perf_counter()
                stats.bridge_ms.append((t1 - t0) * 1000)
                stats.times_ms.append((t2 - t1) * 1000)
                k = command_key(command, self.bmap)
                action = resolve(k, keyed)
                if action is not None:
                    return action
                reason = f"{type(command).__name__} not playable in catanatron"
                detail = f"{command!r} -> {k}; playable {sorted(map(str, keyed))[:12]}"
            except (BridgeError, KeyError, ValueError, IndexError) as exc:
                reason = f"{type(exc).__name__}"
                detail = repr(exc)
            stats.fallbacks[reason] += 1
            if len(stats.fallback_log) < 50:
                stats.fallback_log.append(f"{reason}: {detail}")
            print(f"fallback: {reason}: {detail}", file=sys.stderr, flush=True)
            for kind in ("END_TURN", "ROLL"):
                for k, a in keyed.items():
                    if k[0] == kind:
                        return a
            return playable_actions[0]

    return HexlogSearchPlayer()


def resolve(k: ActionKey, keyed: dict[ActionKey, Any]) -> Any:
    """The catanatron action of a command's key, or None. A robbery of a seat with no cards
    (hexlog: allowed, nothing is stolen) is catanatron's move to that hex without a victim."""
    if k in keyed:
        return keyed[k]
    if k[0] == "MOVE_ROBBER":
        return keyed.get((k[0], k[1], None))
    return None


def playable_only(prompt: Prompt, keyed: dict[ActionKey, Any], bmap: BoardMap) -> Prompt:
    """The prompt's options that catanatron's rules allow here too (3.2.1 offers Road
    Building only to a seat that could pay for a road, and no robbery of an empty hand)."""
    keep = []
    for o in prompt.options:
        try:
            if resolve(command_key(o, bmap), keyed) is not None:
                keep.append(o)
        except (BridgeError, KeyError):
            continue
    if not keep or len(keep) == len(prompt.options):
        return prompt
    default = prompt.default if prompt.default in keep else keep[0]
    return msgspec.structs.replace(prompt, options=keep, default=default)


def compare(prompt: Prompt, keyed: dict[ActionKey, Any], bmap: BoardMap,
            stats: BridgeStats) -> None:
    ours = set()
    for o in prompt.options:
        try:
            ours.add(command_key(o, bmap))
        except (BridgeError, KeyError) as exc:
            stats.only_hexlog[f"untranslatable {type(o).__name__}: {exc}"] += 1
    for k in ours - set(keyed):
        stats.only_hexlog[k[0]] += 1
        if len(stats.mismatch_log) < 20:
            stats.mismatch_log.append(f"only hexlog: {k}; catanatron {sorted(map(str, keyed))}")
    for k in set(keyed) - ours:
        stats.only_catanatron[k[0]] += 1
        if len(stats.mismatch_log) < 20:
            stats.mismatch_log.append(f"only catanatron: {k}; hexlog {sorted(map(str, ours))}")


def opponents(name: str, colors: list[Any]) -> list[Any]:
    from catanatron.models.player import RandomPlayer

    if name == "random":
        return [RandomPlayer(c) for c in colors]
    if name == "alphabeta":
        from catanatron_experimental.machine_learning.players.minimax import AlphaBetaPlayer

        return [AlphaBetaPlayer(c) for c in colors]
    if name == "value":
        from catanatron_experimental.machine_learning.players.value import ValueFunctionPlayer

        return [ValueFunctionPlayer(c) for c in colors]
    raise SystemExit(f"unknown opponent {name!r}")


def seat_seed(base: str, game: int, position: int, players: list[Any]) -> int:
    """The first seed of game `game`'s sequence that seats players[0] at `position`."""
    for attempt in range(1000):
        digest = hashlib.sha256(f"{base}|{game}|{attempt}".encode()).digest()
        seed = int.from_bytes(digest[:4], "big")
        random.seed(seed)
        colors = [p.color for p in random.sample(players, len(players))]
        if seed and colors.index(players[0].color) == position:  # (Game's own first draw)
            return seed
    raise SystemExit("no seed seats our bot there")


def play(args: argparse.Namespace) -> None:
    from catanatron.game import Game
    from catanatron.models.player import Color

    stats = BridgeStats()
    out = Path(args.out) if args.out else None
    done: set[int] = set()
    if out is not None and out.exists():
        for line in out.read_text().splitlines():
            if line.strip():
                done.add(json.loads(line)["game"])
    colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
    wins = games = 0
    start = time.perf_counter()
    for g in range(args.first, args.first + args.games):
        if g in done:
            continue
        bot = CountingSearchBot(seed=g, playouts=args.playouts)
        ours = make_player(colors[0], bot, stats)
        players = [ours, *opponents(args.opponent, colors[1:])]
        position = g % SEATS
        seed = seat_seed(args.seed, g, position, players)
        before = (stats.decisions, len(stats.times_ms), sum(stats.fallbacks.values()))
        t0 = time.perf_counter()
        game = Game(players, seed=seed, vps_to_win=args.vp)
        assert game.state.colors.index(colors[0]) == position
        if args.count:
            bot.counter = HandCounter(SEATS, me=position, seed=g)
            watch(game, colors[0], bot.counter)
        winner = game.play()
        won = winner == colors[0]
        games += 1
        wins += won
        row = {
            "game": g, "seed": seed, "position": position, "opponent": args.opponent,
            "winner": None if winner is None else game.state.colors.index(winner),
            "won": won, "turns": game.state.num_turns,
            "decisions": stats.decisions - before[0],
            "fallbacks": sum(stats.fallbacks.values()) - before[2],
            "choose_ms": stats.times_ms[before[1]:],
            "counted": args.count,
            "hidden_steals": bot.counter.steals if bot.counter else 0,
            "mended": bot.counter.mended if bot.counter else 0,
            "uncounted_draws": bot.inconsistent,
            "seconds": round(time.perf_counter() - t0, 2),
        }
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        lo, hi = wilson(wins, games)
        print(f"game {g} (seat {position}): {'won' if won else 'lost'} in {row['turns']} turns, "
              f"{row['seconds']} s; so far {wins}/{games} = {wins / games:.1%} "
              f"[{lo:.1%}, {hi:.1%}], fallbacks {sum(stats.fallbacks.values())}, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
    if out is not None:
        report(out)
    else:
        print(json.dumps({"games": games, "wins": wins, "fallbacks": dict(stats.fallbacks)}))


PLAYER_NAME = {"alphabeta": "AlphaBetaPlayer", "value": "ValueFunctionPlayer",
               "random": "RandomPlayer"}


def report(*outs: Path) -> None:
    rows = [json.loads(x) for out in outs for x in out.read_text().splitlines() if x.strip()]
    n = len(rows)
    k = sum(r["won"] for r in rows)
    lo, hi = wilson(k, n)
    times = [t for r in rows for t in r["choose_ms"]]
    by_pos = Counter(r["position"] for r in rows)
    won_pos = Counter(r["position"] for r in rows if r["won"])
    undecided = sum(1 for r in rows if r["winner"] is None)
    opp = sorted({PLAYER_NAME.get(r["opponent"], r["opponent"]) for r in rows})
    print(f"hexlog search bot (1 seat, its own view) vs 3 x catanatron {'/'.join(opp)} "
          "(full information)")
    print(f"games {n}, won {k}: {k / max(n, 1):.1%}, 95% Wilson [{lo:.1%}, {hi:.1%}]"
          f"; parity 25%, two-sided exact binomial p = {binomial_p(k, n):.2g}"
          f"; undecided (catanatron's turn cap) {undecided}")
    print("by seat position: " + ", ".join(
        f"{p}: {won_pos[p]}/{by_pos[p]}" for p in sorted(by_pos)))
    print(f"bot decisions asked {len(times)}: choose() median {statistics.median(times):.2f} ms, "
          f"p99 {percentile(times, 0.99):.1f} ms" if times else "no decisions")
    print(f"translation fallbacks {sum(r['fallbacks'] for r in rows)}; "
          f"mean game {statistics.mean(r['seconds'] for r in rows):.1f} s" if rows else "")


def selftest() -> None:
    """Checks against real catanatron games: the board maps one to one, and every decision of
    our seat in a few games is translated without a fallback (against random opponents)."""
    from catanatron.game import Game
    from catanatron.models.player import Color, RandomPlayer

    stats = BridgeStats()
    colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
    for seed in range(4):
        bot = CountingSearchBot(seed=seed, playouts=4)
        players = [make_player(colors[0], bot, stats), *[RandomPlayer(c) for c in colors[1:]]]
        game = Game(players, seed=seed)
        bot.counter = HandCounter(SEATS, me=game.state.colors.index(colors[0]), seed=seed)
        watch(game, colors[0], bot.counter)
        bmap = catanatron_board(game)
        assert len(bmap.vertex_of) == 54, "the base board's vertices"
        assert len(bmap.edge_of) == 72, "the base board's edges"
        game.play()
        truth = true_hands(game)
        held = sum(any(hands[s] == truth[s] for hands in bot.counter.particles) for s in range(SEATS))
        print(f"selftest game {seed}: winner {game.winning_color()}; so far our seat was asked "
              f"{stats.decisions} decisions, fallbacks {dict(stats.fallbacks)}; card counting: "
              f"{bot.counter.steals} steals unseen, {bot.counter.mended} mended, "
              f"{bot.inconsistent} draws off the view, final hands held by a guess {held}/{SEATS}")
        if bot.inconsistent:
            raise SystemExit("selftest: the card counter disagrees with the view")
    print(f"options hexlog offered that catanatron did not: {dict(stats.only_hexlog)}")
    print(f"options catanatron offered that hexlog did not: {dict(stats.only_catanatron)}")
    if stats.fallbacks:
        for line in stats.fallback_log:
            print(line)
        raise SystemExit("selftest: fallbacks")
    print("selftest OK")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--first", type=int, default=0, help="index of the first game")
    ap.add_argument("--opponent", default="alphabeta", choices=("alphabeta", "value", "random"))
    ap.add_argument("--seed", default="bridge")
    ap.add_argument("--playouts", type=int, default=24)
    ap.add_argument("--no-count", dest="count", action="store_false",
                    help="deal the others' unseen cards uniformly (no card counting)")
    ap.add_argument("--vp", type=int, default=10)
    ap.add_argument("--out", help="a JSON-lines file of games (appended; games in it are skipped)")
    ap.add_argument("--report", nargs="+", help="print the summary of JSON-lines files and stop")
    args = ap.parse_args()
    if args.report:
        report(*(Path(p) for p in args.report))
    elif args.selftest:
        selftest()
    else:
        play(args)


if __name__ == "__main__":
    main()
