"""Names and small value types shared by commands, events and views.

Resources, development cards, terrains and harbor kinds are names on the wire (a log should
read like a game record) and indices inside the engine (fast). The wire does not close the
list: a name is any string, and the game's vocabulary (engine/vocab.py, the base game's names
plus what its modules add, such as Oil Springs' oil) says which ones it knows. The engine checks
every such name in a command when it decides it (engine/vocab_check.py: an unknown name is a
rejection naming the field), so a module's names travel in the base commands and events.

Each such type is a `str` annotated with `Named(kind)`, which is how the check finds the fields
to look at; JSON Schemas show them as strings. `Bundle` is a sparse mapping name -> count.
"""

from __future__ import annotations

from typing import Annotated, Final

from msgspec import Meta


class Named:
    """Marks a wire field (or a bundle's keys) holding a name the game's vocabulary must know:
    `kind` is which list of names (`RESOURCE`, `TRADE_GOOD`, …)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"Named({self.kind!r})"


RESOURCE: Final = Named("resource")  # a resource card (base five, or a module's: oil)
TRADE_GOOD: Final = Named("trade good")  # a resource card or a currency (gold) a trade carries
DEV_CARD: Final = Named("development card")
TERRAIN: Final = Named("terrain")
HARBOR: Final = Named("harbor")

Resource = Annotated[str, Meta(description="a resource card named in the game's vocabulary "
                                           "(the base five, or a module's, e.g. oil)"), RESOURCE]
TradeGood = Annotated[str, Meta(description="a resource card or a currency (e.g. gold) named "
                                            "in the game's vocabulary"), TRADE_GOOD]
DevCard = Annotated[str, Meta(description="a development card named in the game's "
                                          "vocabulary"), DEV_CARD]
Terrain = Annotated[str, Meta(description="a terrain named in the game's vocabulary"), TERRAIN]
# A harbor kind is "3:1" or the name of the resource it trades 2:1.
HarborKind = Annotated[str, Meta(description='"3:1", or the resource a 2:1 harbor trades'),
                       HARBOR]

RESOURCES: tuple[str, ...] = ("lumber", "brick", "wool", "grain", "ore")
RESOURCE_INDEX: dict[str, int] = {name: i for i, name in enumerate(RESOURCES)}

DEV_CARDS: tuple[str, ...] = (
    "knight",
    "victory_point",
    "road_building",
    "year_of_plenty",
    "monopoly",
)
DEV_INDEX: dict[str, int] = {name: i for i, name in enumerate(DEV_CARDS)}

TERRAINS: tuple[str, ...] = ("forest", "hills", "pasture", "fields", "mountains", "desert", "sea")
TERRAIN_RESOURCE: dict[str, int] = {
    "forest": 0,
    "hills": 1,
    "pasture": 2,
    "fields": 3,
    "mountains": 4,
}

Bundle = dict[Resource, int]  # resource cards
TradeBundle = dict[TradeGood, int]  # what one side of a trade gives: cards and currency


def bundle_to_vector(bundle: dict[str, int]) -> list[int]:
    """The base five's counts of a bundle (for code that works in base vectors, the bots: a
    module's names, oil or gold, are not in a five-wide vector and are left out)."""
    vec = [0, 0, 0, 0, 0]
    for name, n in bundle.items():
        i = RESOURCE_INDEX.get(name)
        if i is not None:
            vec[i] += n
    return vec


def vector_to_bundle(vec: list[int] | tuple[int, ...]) -> Bundle:
    return {RESOURCES[i]: n for i, n in enumerate(vec) if n} if any(vec) else {}
