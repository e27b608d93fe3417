"""Events about pieces that modules use but the base game never emits: a piece leaving the
board (an Oil Springs flood, a Barbarian Attack conquest, a lost ship). The engine folds them
for every ruleset (engine/pieces.py recomputes routes, harbors and awards)."""

from __future__ import annotations

from events.events import Event
from events.registry import register_module


class PieceRemoved(Event, frozen=True, kw_only=True):
    """A piece left the board without being built over (a flood, a conquest, a lost ship):
    `kind` is its piece kind (road, settlement, city, or a module's), `site` its vertex, edge
    or hex. Route lengths, harbors and awards are recomputed from what stays."""

    seat: int
    kind: str
    site: int


register_module(__name__, Event)
