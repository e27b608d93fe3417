"""The Caravans' module state: Structs the engine copies, dumps and loads (modstate.py). In a
file of their own: a module defining a Struct stays Python in the compiled build."""

from __future__ import annotations

import msgspec

from services.rules.engine.state import NO_ONE


class Caravan(msgspec.Struct):
    """One chain of camels: its edges in the order placed and its head vertex."""

    edges: list[int]
    head: int


class CaravanState(msgspec.Struct):
    """`state.ext["caravans"]`: everything public except `choices` (sealed until revealed,
    shown by views to the voter only). A Struct: copied, dumped and loaded by the engine from
    its fields (modstate.py)."""

    # By arrow id; None: the arrow is unused (or its caravan merged into another: see
    # `camels`, which keeps every placed camel's edge and caravan).
    caravans: list[Caravan | None]
    started: list[bool]  # per arrow: its first camel was placed
    camels: dict[int, int] = msgspec.field(default_factory=dict)  # edge -> caravan id when placed
    # Vertices two or more camel paths touch (derived from `camels`; kept for scoring, which
    # is asked for on every prompt).
    doubles: frozenset[int] = frozenset()
    built: bool = False  # the active seat built a settlement or a city this turn
    voted: int = -1  # the turn whose vote was held
    options: tuple[int, ...] = ()  # the open vote's legal (caravan, edge) pairs, flat
    votes: list[int] = msgspec.field(default_factory=list)  # per seat; -1: not yet bid
    choices: list[int] = msgspec.field(default_factory=list)  # per seat, flat (caravan, edge)
    first: int = NO_ONE  # Catan for Two: the caravan the first camel went to
    second: int = NO_ONE  # Catan for Two: who places the second camel
