"""The map as a seat sees it: sizes of the id spaces and the fixed board features, from the
view (`board_of`, as the heuristic bot reads it), cached per game."""

from __future__ import annotations

from dataclasses import dataclass

from bots.env.slots import Vocabulary
from events.prompts import View
from events.types import RESOURCES
from services.rules.engine.modules import map_packages
from services.rules.engine.views import board_of


@dataclass(frozen=True)
class BoardInfo:
    sizes: dict[str, int]  # "vertex", "edge", "hex", "hex_or_supply"
    terrain: tuple[str, ...]  # by hex id
    numbers: tuple[tuple[int, ...], ...]  # by hex id
    harbor: tuple[str | None, ...]  # by vertex id
    vocab: Vocabulary
    pieces: tuple[str, ...]  # the kinds of piece a seat has a limited number of


# Piece kinds in this order first (the others after them by name): a ruleset's kinds always
# come out in the same order.
PIECE_ORDER = ("road", "settlement", "city", "knight", "ship", "bridge", "fortress", "metropolis")


def piece_kinds(view: View) -> tuple[str, ...]:
    kinds = set(view.players[0].pieces_left) if view.players else set()
    return (tuple(k for k in PIECE_ORDER if k in kinds)
            + tuple(sorted(kinds - set(PIECE_ORDER))))


def game_resources(view: View) -> tuple[str, ...]:
    """The base five, then the modules' resources a view shows beside them (oil), by name."""
    extra = (view.ext.get("resources") or {}).get("bank") or {}
    return tuple(RESOURCES) + tuple(sorted(r for r in extra if r not in RESOURCES))


def board_info(view: View) -> BoardInfo:
    board = board_of(view, map_packages())
    hexes = len(board.topo.hexes)
    sizes = {"vertex": board.n_vertices, "edge": board.n_edges, "hex": hexes,
             "hex_or_supply": hexes + 1}
    return BoardInfo(sizes, board.hex_terrain, board.hex_numbers, board.vertex_harbor,
                     Vocabulary(game_resources(view)), piece_kinds(view))


class Boards:
    """`board_info` per game id, the last few kept (a bot serves many games at once)."""

    def __init__(self) -> None:
        self._known: dict[str, BoardInfo] = {}

    def of(self, view: View) -> BoardInfo:
        got = self._known.get(view.game_id)
        if got is None:
            if len(self._known) > 64:
                self._known.clear()
            got = self._known[view.game_id] = board_info(view)
        return got
