"""Option commands made once per seat and board size, shared by the prompts of every game.

Commands are frozen msgspec structs, so a prompt may list the same objects again and again
(`trade.seat_trades` does so for maritime trades). A set-up prompt lists about 50 settlement
sites, the robber's about 25 moves, the main prompt every affordable build, and a random game
asks for several hundred of them: making each command once saves its construction and its
release every time (benchmarks/compiled.md, "Instructions per game").

A table is indexed by the board's ids (edges, vertices, hexes), so it is made for a board size;
ids outside it (the robber off the board, -1) get a command of their own.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from typing import Final

from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    EndTurn,
    MoveRobber,
    PlaceRoad,
    PlaceSettlement,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
)
from events.types import RESOURCES

# Every turn's first and last option, per seat: a tuple read, not even a cache lookup.
_SHARED_SEATS: Final = 8
_ROLLS: Final = tuple([RollDice(seat=s) for s in range(_SHARED_SEATS)])
_END_TURNS: Final = tuple([EndTurn(seat=s) for s in range(_SHARED_SEATS)])


# Year of Plenty's choices: every pair of resource indices, a <= b (the bank's order).
YEAR_OF_PLENTY_PAIRS: Final = tuple(combinations_with_replacement(range(len(RESOURCES)), 2))
_BUY_CARDS: Final = tuple([BuyDevelopmentCard(seat=s) for s in range(_SHARED_SEATS)])
_KNIGHTS: Final = tuple([PlayKnight(seat=s) for s in range(_SHARED_SEATS)])
_ROAD_BUILDINGS: Final = tuple([PlayRoadBuilding(seat=s) for s in range(_SHARED_SEATS)])


def roll_dice(seat: int) -> RollDice:
    return _ROLLS[seat] if 0 <= seat < _SHARED_SEATS else RollDice(seat=seat)


def end_turn(seat: int) -> EndTurn:
    return _END_TURNS[seat] if 0 <= seat < _SHARED_SEATS else EndTurn(seat=seat)


def buy_development_card(seat: int) -> BuyDevelopmentCard:
    return _BUY_CARDS[seat] if 0 <= seat < _SHARED_SEATS else BuyDevelopmentCard(seat=seat)


def knight_command(seat: int) -> PlayKnight:
    return _KNIGHTS[seat] if 0 <= seat < _SHARED_SEATS else PlayKnight(seat=seat)


def road_building_command(seat: int) -> PlayRoadBuilding:
    return _ROAD_BUILDINGS[seat] if 0 <= seat < _SHARED_SEATS else PlayRoadBuilding(seat=seat)


@cache
def years_of_plenty(seat: int) -> tuple[PlayYearOfPlenty, ...]:
    """One per pair of `YEAR_OF_PLENTY_PAIRS`, in its order."""
    return tuple(
        [PlayYearOfPlenty(seat=seat, resources=(RESOURCES[a], RESOURCES[b]))
         for a, b in YEAR_OF_PLENTY_PAIRS]
    )


@cache
def monopolies(seat: int) -> tuple[PlayMonopoly, ...]:
    return tuple([PlayMonopoly(seat=seat, resource=r) for r in RESOURCES])


@cache
def roads(seat: int, edges: int) -> tuple[BuildRoad, ...]:
    return tuple([BuildRoad(seat=seat, edge=e) for e in range(edges)])


@cache
def settlements(seat: int, vertices: int) -> tuple[BuildSettlement, ...]:
    return tuple([BuildSettlement(seat=seat, vertex=v) for v in range(vertices)])


@cache
def cities(seat: int, vertices: int) -> tuple[BuildCity, ...]:
    return tuple([BuildCity(seat=seat, vertex=v) for v in range(vertices)])


@cache
def setup_settlements(seat: int, vertices: int) -> tuple[PlaceSettlement, ...]:
    return tuple([PlaceSettlement(seat=seat, vertex=v) for v in range(vertices)])


@cache
def setup_roads(seat: int, edges: int) -> tuple[PlaceRoad, ...]:
    return tuple([PlaceRoad(seat=seat, edge=e) for e in range(edges)])


@cache
def robber_moves(seat: int, hexes: int, seats: int) -> tuple[tuple[MoveRobber, ...], ...]:
    """Per hex: the move robbing nobody, then the move robbing seat v at index v + 1."""
    return tuple(
        [
            tuple(
                [MoveRobber(seat=seat, hex=h)]
                + [MoveRobber(seat=seat, hex=h, victim=v) for v in range(seats)]
            )
            for h in range(hexes)
        ]
    )


def robber_move(
    moves: tuple[tuple[MoveRobber, ...], ...], seat: int, h: int, victim: int | None
) -> MoveRobber:
    """The move from `moves` (robber_moves(seat, …)), or a new one for an id outside it."""
    if 0 <= h < len(moves):
        at = moves[h]
        i = 0 if victim is None else victim + 1
        if 0 < i < len(at) or victim is None:
            return at[i]
    return MoveRobber(seat=seat, hex=h, victim=victim)
