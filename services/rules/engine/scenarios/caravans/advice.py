"""The heuristic bot in a camel vote: it values each placement for itself (a building of its
own reaching two camels is a point, an opponent's a point against; a camel beside its own road
lengthens it), bids when a point is at stake and names the placement it likes best.
Everything is read from the bot's view and prompt."""

from __future__ import annotations

from functools import lru_cache

import msgspec

from events.caravans import BidForCamel, NameCamelPath, PlaceSecondCamel
from events.commands import Command
from events.events import Harbor, Tile
from events.prompts import Prompt, View
from events.types import TERRAIN_RESOURCE
from services.rules.engine.advice import Advice, BotSense
from services.rules.engine.board import Board
from services.rules.engine.mapdata import ENGINE_MAPS, load_map
from services.rules.engine.scenarios.caravans.common import BID, EXT, NAME_PATH, SECOND
from services.rules.engine.scenarios.caravans.view import CaravansView
from services.rules.engine.views import BOARD

MAPS = (ENGINE_MAPS, "services.rules.engine.scenarios.caravans.maps")
SPARE = 1  # wool and grain the bot keeps for building when it bids


@lru_cache(maxsize=8)
def _board(tiles: tuple[Tile, ...], harbors: tuple[Harbor, ...], special: str) -> Board:
    extra = msgspec.json.decode(special)
    found = [(int(q), int(r), str(t), int(n)) for q, r, t, n in extra["special"]]
    resources = dict(TERRAIN_RESOURCE) | {str(t): int(r) for t, r in extra["resources"].items()}
    return Board(tiles, harbors, load_map(extra["map"], MAPS), found, resources)


def board(view: View) -> Board:
    """The board the bot sees (cached: a game's board never changes)."""
    return _board(tuple(view.tiles), tuple(view.harbors), msgspec.json.encode(view.ext[BOARD]).decode())


def value(view: View, seat: int, edge: int) -> float:
    """What a camel on `edge` is worth to `seat`."""
    b = board(view)
    x: CaravansView = view.ext[EXT]
    camels = {int(e) for e, _ in x["camels"]}
    owner: dict[int, int] = {}
    for p in view.players:
        for v in (*p.settlements, *p.cities):
            owner[v] = p.seat
    score = 0.0
    for v in b.topo.edge_vertices[edge]:
        if v not in owner:
            continue
        touching = sum(1 for f in b.topo.vertex_edges[v] if f in camels)
        if touching == 1:  # this camel makes it two: a point
            score += 3.0 if owner[v] == seat else -2.0
    for p in view.players:
        if edge in p.roads:
            score += 1.0 if p.seat == seat else -0.5
    return score


def best(view: View, options: list[Command]) -> Command | None:
    placed = [o for o in options if isinstance(o, (NameCamelPath, PlaceSecondCamel))]
    if not placed:
        return None
    return max(placed, key=lambda o: (value(view, o.seat, o.edge), -o.edge))


def bid(view: View, prompt: Prompt) -> Command | None:
    bids = [o for o in prompt.options if isinstance(o, BidForCamel)]
    x: CaravansView = view.ext[EXT]
    vote = x["vote"]
    if not bids or vote is None:
        return None
    options = vote["options"]
    stake = max(value(view, prompt.seat, options[i + 1]) for i in range(0, len(options), 2))
    want = 3 if stake >= 3 else 1 if stake >= 1 else 0
    hand = view.players[prompt.seat].hand or {}
    wool = max(0, hand.get("wool", 0) - SPARE)
    grain = max(0, hand.get("grain", 0) - SPARE)
    w = min(wool, want)
    g = min(grain, want - w)
    return next((o for o in bids if o.wool == w and o.grain == g), bids[0])


class CaravansAdvice(Advice):
    def stage(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if prompt.stage == BID:
            return bid(view, prompt)
        if prompt.stage in (NAME_PATH, SECOND):
            return best(view, prompt.options)
        return None


ADVICE = CaravansAdvice()
