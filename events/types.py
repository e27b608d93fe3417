"""Names and small value types shared by commands, events and views.

Resources are named by strings on the wire (a log should read like a game record) and by the
index in `RESOURCES` inside the engine (fast). `Bundle` is a sparse mapping name → count.
"""

from __future__ import annotations

from typing import Literal

Resource = Literal["lumber", "brick", "wool", "grain", "ore"]
RESOURCES: tuple[Resource, ...] = ("lumber", "brick", "wool", "grain", "ore")
RESOURCE_INDEX: dict[str, int] = {name: i for i, name in enumerate(RESOURCES)}

DevCard = Literal["knight", "victory_point", "road_building", "year_of_plenty", "monopoly"]
DEV_CARDS: tuple[DevCard, ...] = (
    "knight",
    "victory_point",
    "road_building",
    "year_of_plenty",
    "monopoly",
)
DEV_INDEX: dict[str, int] = {name: i for i, name in enumerate(DEV_CARDS)}

Terrain = Literal["forest", "hills", "pasture", "fields", "mountains", "desert", "sea"]
TERRAIN_RESOURCE: dict[str, int] = {
    "forest": 0,
    "hills": 1,
    "pasture": 2,
    "fields": 3,
    "mountains": 4,
}

# A harbor kind is "3:1" or the name of the resource it trades 2:1.
HarborKind = Literal["3:1", "lumber", "brick", "wool", "grain", "ore"]

Bundle = dict[Resource, int]


def bundle_to_vector(bundle: Bundle) -> list[int]:
    vec = [0, 0, 0, 0, 0]
    for name, n in bundle.items():
        vec[RESOURCE_INDEX[name]] += n
    return vec


def vector_to_bundle(vec: list[int] | tuple[int, ...]) -> Bundle:
    return {RESOURCES[i]: n for i, n in enumerate(vec) if n} if any(vec) else {}
