"""What the heuristic bot should do in Traders & Barbarians (bots ask `Module.advice`).

The base bot builds; this advice drives the wagon. After the bot's buildings, when it has no
road to build, the wagon part of the turn begins: the wagon heads for the plaza that needs its
commodity (an empty wagon: the nearest plaza with tokens left), along the cheapest route in MP
(tolls count as MP; other plazas are not passed through, entering one ends the movement). On
the way it pays grain when that buys the next step, tries every barbarian it may, and plays
Swift Journey. First thing in the main phase it plays a Knight on a barbarian in the wagon's
way, upgrades the wagon (up to card 3) and buys a missing resource with spare gold. A barbarian it moves goes onto the leader's road (a steal),
taken from our own roads or wagon route first.
"""

from __future__ import annotations

import heapq

from events.commands import BuildRoad, Command, EndTurn, PlayKnight
from events.prompts import Prompt, View
from events.traders_and_barbarians import (
    EndWagonMovement,
    MoveBarbarianOnPath,
    MoveWagon,
    PayGrainForMovement,
    PlaySwiftJourney,
    TraderBuyResource,
    TryDriveOff,
    UpgradeWagon,
)
from events.types import RESOURCE_INDEX, bundle_to_vector
from services.rules.engine.advice import Advice, BotSense, offered
from services.rules.engine.board import Board
from services.rules.engine.mapdata import ENGINE_MAPS
from services.rules.engine.scenarios.traders_and_barbarians.common import places
from services.rules.engine.scenarios.traders_and_barbarians.data import NAME, NEEDS, TRADE_HEXES
from services.rules.engine.views import board_of

MAPS = (ENGINE_MAPS, __name__.rpartition(".")[0] + ".maps")
EXT = NAME
UPGRADE_TO = 3
GOLD_RESERVE = 2
BIG = 10_000


class TradersAdvice(Advice):
    def __init__(self) -> None:
        self._boards: dict[str, Board] = {}

    def board(self, view: View) -> Board:
        b = self._boards.get(view.game_id)
        if b is None:
            b = board_of(view, MAPS)
            self._boards = {view.game_id: b}
        return b

    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        tb = view.ext.get(EXT)
        if tb is None:
            return None
        seat = prompt.seat
        knight = offered(prompt, PlayKnight)
        if knight is not None and set(self.route(view, seat)) & set(tb["barbarians"]):
            return knight  # a barbarian on the wagon's way: move it (onto the leader's road)
        upgrade = offered(prompt, UpgradeWagon)
        if upgrade is not None and tb["levels"][seat] < UPGRADE_TO:
            return upgrade
        me = view.players[seat]
        hand = bundle_to_vector(me.hand or {})
        goal = sense.goal(hand)
        missing = [r for r in range(5) if goal[r] > hand[r]]
        if len(missing) == 1 and tb["gold"][seat] >= 2 + GOLD_RESERVE:
            for o in prompt.options:
                if isinstance(o, TraderBuyResource) and RESOURCE_INDEX[o.resource] == missing[0]:
                    return o
        return None

    def after_buildings(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if EXT not in view.ext or offered(prompt, BuildRoad) is not None:
            return None
        return self.drive(view, prompt)

    def stage(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if EXT not in view.ext:
            return None
        if any(isinstance(o, MoveBarbarianOnPath) for o in prompt.options):
            return self.barbarian(view, prompt)
        return self.drive(view, prompt) or offered(prompt, EndTurn)

    # --- the wagon ---------------------------------------------------------------------------

    def targets(self, view: View, board: Board, seat: int) -> set[int]:
        """The plazas worth heading for: where the cargo is needed, else where tokens are."""
        tb = view.ext[EXT]
        cargo = tb["cargo"][seat]
        plazas = places(board).plazas
        if cargo:
            return {v for v, kind in zip(plazas, TRADE_HEXES, strict=True) if cargo in NEEDS[kind]}
        return {v for v, kind in zip(plazas, TRADE_HEXES, strict=True)
                if any(tb["stacks"][kind].values())}

    def route(self, view: View, seat: int) -> list[int]:
        """The edges of the cheapest route from the wagon to a target plaza (MP, a toll
        counted as 1 more); other plazas are not passed through."""
        board = self.board(view)
        at = places(board)
        tb = view.ext[EXT]
        topo = board.topo
        start = tb["wagons"][seat]
        targets = self.targets(view, board, seat)
        owner: dict[int, int] = {e: p.seat for p in view.players for e in p.roads}
        barbarians = set(tb["barbarians"])
        best = {start: 0}
        back: dict[int, tuple[int, int]] = {}
        queue = [(0, start)]
        while queue:
            d, v = heapq.heappop(queue)
            if v in targets:
                path = []
                while v != start:
                    e, v = back[v]
                    path.append(e)
                return path[::-1]
            if d > best.get(v, BIG) or (v in at.plaza_of and v != start):
                continue
            for e, w in zip(topo.vertex_edges[v], topo.vertex_neighbours[v], strict=True):
                if not at.is_path[e]:
                    continue
                o = owner.get(e)
                cost = (1 if o is not None else 2) + (2 if e in barbarians else 0)
                cost += 1 if o is not None and o != seat else 0
                if d + cost < best.get(w, BIG):
                    best[w] = d + cost
                    back[w] = (e, v)
                    heapq.heappush(queue, (d + cost, w))
        return []

    def drive(self, view: View, prompt: Prompt) -> Command | None:
        for o in prompt.options:
            if isinstance(o, TryDriveOff):
                return o
        route = self.route(view, prompt.seat)
        if route:
            for o in prompt.options:
                if isinstance(o, MoveWagon) and o.edge == route[0]:
                    return o
            grain = offered(prompt, PayGrainForMovement)
            if grain is not None:
                return grain
            swift = offered(prompt, PlaySwiftJourney)
            if swift is not None:
                return swift
            second = offered(prompt, EndWagonMovement)
            if second is not None:
                return second
        return None

    # --- barbarians -------------------------------------------------------------------------

    def barbarian(self, view: View, prompt: Prompt) -> Command:
        seat = prompt.seat
        tb = view.ext[EXT]
        mine = set(view.players[seat].roads) | set(self.route(view, seat))
        others = [p for p in view.players if p.seat != seat]
        leader = max(others, key=lambda p: (p.public_vp, p.cards))
        theirs = {e: p for p in others for e in p.roads}

        def value(o: MoveBarbarianOnPath) -> tuple[int, int, int]:
            here = 2 if tb["barbarians"][o.barbarian] in mine else 0
            victim = theirs.get(o.edge)
            there = 0 if victim is None else (3 if victim.seat == leader.seat else 2) + min(
                victim.cards, 3)
            return here + there - (3 if o.edge in mine else 0), -o.barbarian, -o.edge

        options = [o for o in prompt.options if isinstance(o, MoveBarbarianOnPath)]
        return max(options, key=value) if options else prompt.default


ADVICE = TradersAdvice()
