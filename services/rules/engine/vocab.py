"""Per-ruleset vocabularies: resources, development cards, terrains and piece kinds.

The base game installs its five resources, five card kinds, six terrains and three pieces; a
module extends them (Oil Springs adds oil with its own bank, Barbarian Attack its cards, Rivers
swamp and bridges, Pirate Islands sea ships, …). Hands, banks, decks and costs are flat lists of
ints indexed by these vocabularies, so the hot paths stay as fast as with fixed 5-wide vectors:
every lookup below is made once, when the ruleset is assembled (`freeze`), never per move.

On the wire every name is a string (events.types): a module's resource (Oil Springs' oil) travels
in the base commands and events like the base five, and `vocab_check.py` refuses, when a command
is decided, any name the game does not know. `wire_bundle` puts a vector into an event (with
the base vocabulary, the compiled fast path of `base_bundle`). Views carry the module resources
beside the base bundles (`views.py`), which bots read as five-wide vectors.

A *currency* (Rivers', Barbarian Attack's and Traders & Barbarians' gold) is a name trades may
carry that is not a card: it is in no hand and no bank, so no discard, steal, Monopoly or 7-card
count sees it. A module keeps it in its own state and lends it to the base trade through the
`PURSE` capability (capabilities.py). A trade's vectors are `trade_width` wide: the resources,
then the currencies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from events.types import DEV_CARDS, RESOURCES, TERRAIN_RESOURCE, Bundle

BASE_WIDTH: Final = len(RESOURCES)
# The kinds of names a vocabulary knows (`events.types.Named.kind`).
KINDS: Final = ("resource", "trade good", "development card", "terrain", "harbor")

Site = Literal["vertex", "edge", "hex"]


@dataclass(frozen=True)
class PieceKind:
    """A kind of piece a seat owns.

    site: where it stands. route: an edge piece that is part of a seat's network (roads,
    ships, bridges: connection and Longest Road); it takes its edge. weight: how many roads it
    counts for in a route (a road beside a camel, which depends on another piece, is the
    `route_weight` hook's). level: for vertex pieces, what one building yields (settlement 1,
    city 2, metropolis 3). vp: points it is worth. limit: pieces per seat (0: none of this
    kind; the base checks it). occupies: a vertex piece that takes its vertex (buildings; not a
    wagon, which shares it). Other edge pieces (knights, camels) stand beside what is there.
    """

    name: str
    site: Site
    limit: int
    route: bool = False
    weight: int = 1
    level: int = 0
    vp: int = 0
    occupies: bool = True


BASE_PIECES = (
    PieceKind("road", "edge", 15, route=True),
    PieceKind("settlement", "vertex", 5, level=1, vp=1),
    PieceKind("city", "vertex", 4, level=2, vp=2),
)
BASE_BANK: Final = 19
BASE_DECK: Final = (14, 5, 2, 2, 2)


class Vocabulary:
    """The names a ruleset knows, each with its index in the engine's vectors.

    Built by `install` functions (base first, then modules), then `freeze`d: after that the
    tuples below are what the rules read. Indices never change once given, so the base's
    indices (lumber 0 … ore 4, knight 0 … monopoly 4) are the same in every ruleset.
    """

    def __init__(self) -> None:
        self.resources: tuple[str, ...] = ()
        self.resource_index: dict[str, int] = {}
        self.bank: tuple[int, ...] = ()  # starting bank per resource
        self.hand_limit: tuple[int, ...] = ()  # most a seat may hold per resource (0: no cap)
        self.dev_cards: tuple[str, ...] = ()
        self.dev_index: dict[str, int] = {}
        self.dev_deck: tuple[int, ...] = ()  # copies per card
        # The cards worth 1 VP each while held (the base's victory_point; a scenario may name
        # its own, as Traders & Barbarians' Toolmaking, Glassmaking and Quarry).
        self.point_cards: tuple[int, ...] = ()
        self.terrains: dict[str, int] = {}  # terrain -> resource index (-1: produces none)
        self.land: set[str] = set()  # terrains that are land (sea-like ones are not)
        # Terrains a rule naming "the desert" means (where the robber is sent back to): the
        # desert, or a scenario's barren hexes standing in for it (Rivers' swamps).
        self.deserts: set[str] = set()
        self.pieces: dict[str, PieceKind] = {}
        # Currencies: names a trade carries that are no cards (see the module docstring).
        self.currencies: tuple[str, ...] = ()
        self.trade_goods: tuple[str, ...] = ()  # resources, then currencies (set by freeze)
        self.trade_index: dict[str, int] = {}
        # Per kind of name (`names`), the set a command's names are checked against.
        self.known: dict[str, frozenset[str]] = {}
        self.frozen = False
        # A vector as an event's bundle. With the base vocabulary it is `base_bundle`, compiled
        # (hot: every production).
        self.wire_bundle: Callable[[list[int]], Bundle] = self.bundle

    # --- extension (install time) ---------------------------------------------------------------

    def add_resource(self, name: str, bank: int, hand_limit: int = 0) -> int:
        self._check(name not in self.resource_index, f"resource {name!r} twice")
        self.resource_index[name] = len(self.resources)
        self.resources += (name,)
        self.bank += (bank,)
        self.hand_limit += (hand_limit,)
        return self.resource_index[name]

    def add_dev_card(self, name: str, copies: int, point: bool = False) -> int:
        """A development card; `point`: it is worth 1 VP while held (never played)."""
        self._check(name not in self.dev_index, f"development card {name!r} twice")
        self.dev_index[name] = len(self.dev_cards)
        self.dev_cards += (name,)
        self.dev_deck += (copies,)
        if point:
            self.point_cards += (self.dev_index[name],)
        return self.dev_index[name]

    def set_copies(self, name: str, copies: int) -> None:
        """Change a card's number of copies (a scenario's deck: 0 removes the card)."""
        deck = list(self.dev_deck)
        deck[self.dev_index[name]] = copies
        self.dev_deck = tuple(deck)

    def add_terrain(
        self, name: str, resource: str | None = None, land: bool = True, desert: bool = False
    ) -> None:
        """A terrain; `desert`: rules naming the desert mean it too (it must yield nothing)."""
        self._check(resource is None or resource in self.resource_index,
                    f"terrain {name!r} produces unknown resource {resource!r}")
        self._check(not desert or resource is None, f"desert-like terrain {name!r} yields")
        self.terrains[name] = -1 if resource is None else self.resource_index[resource]
        if desert:
            self.deserts.add(name)
        if land:
            self.land.add(name)
        else:
            self.land.discard(name)

    def add_currency(self, name: str) -> None:
        """A currency a trade may carry (gold): not a card; its module keeps it (`PURSE`)."""
        self._check(name not in self.resource_index and name not in self.currencies,
                    f"currency {name!r} twice or a resource")
        self.currencies += (name,)

    def add_piece(self, kind: PieceKind) -> None:
        self.pieces[kind.name] = kind

    def _check(self, ok: bool, problem: str) -> None:
        if self.frozen:
            raise ValueError(f"the vocabulary is frozen ({problem})")
        if not ok:
            raise ValueError(problem)

    def freeze(self, costs: dict[str, tuple[int, ...]]) -> None:
        """End of assembly: pad every cost to the full resource width (a cost written before
        a module added a resource does not mention it)."""
        width = len(self.resources)
        for name, cost in costs.items():
            if len(cost) < width:
                costs[name] = tuple(cost) + (0,) * (width - len(cost))
        if width == BASE_WIDTH:
            self.wire_bundle = base_bundle
        self.trade_goods = self.resources + self.currencies
        self.trade_index = {name: i for i, name in enumerate(self.trade_goods)}
        self.frozen = True
        self.known = {kind: frozenset(self.names(kind)) for kind in KINDS}

    def names(self, kind: str) -> tuple[str, ...]:
        """The names of one kind (`events.types.Named.kind`) this vocabulary knows."""
        if kind == "resource":
            return self.resources
        if kind == "trade good":
            return self.trade_goods
        if kind == "development card":
            return self.dev_cards
        if kind == "terrain":
            return tuple(self.terrains)
        if kind == "harbor":
            return ("3:1", *self.resources)
        raise ValueError(f"no names of kind {kind!r}")

    # --- reading ------------------------------------------------------------------------------

    @property
    def width(self) -> int:
        return len(self.resources)

    def zeros(self) -> list[int]:
        return [0] * len(self.resources)

    def vector(self, bundle: Mapping[str, int]) -> list[int]:
        vec = [0] * len(self.resources)
        index = self.resource_index
        for name, n in bundle.items():
            vec[index[name]] += n
        return vec

    def bundle(self, vec: Sequence[int]) -> dict[str, int]:
        names = self.resources
        return {names[i]: n for i, n in enumerate(vec) if n} if any(vec) else {}

    def base_bundle(self, vec: Sequence[int]) -> Bundle:
        """The base part of a vector as a bundle (a view's hand or bank: the module
        resources go beside it, `extra`)."""
        return self.bundle(vec[:BASE_WIDTH])

    def wire_resource(self, name: str) -> str:
        """A resource's name as an event carries it (any name of the vocabulary)."""
        return name

    def trade_vector(self, bundle: Mapping[str, int]) -> list[int]:
        """A trade's side as a vector `trade_width` wide: resources, then currencies."""
        vec = [0] * len(self.trade_goods)
        index = self.trade_index
        for name, n in bundle.items():
            vec[index[name]] += n
        return vec

    def trade_bundle(self, vec: Sequence[int]) -> dict[str, int]:
        names = self.trade_goods
        return {names[i]: n for i, n in enumerate(vec) if n}

    @property
    def trade_width(self) -> int:
        return len(self.trade_goods)

    def extra(self, vec: Sequence[int]) -> dict[str, int]:
        """The module resources of a vector (what a view shows beside the base bundle)."""
        names = self.resources
        return {names[i]: vec[i] for i in range(BASE_WIDTH, len(vec)) if vec[i]}

    def route_kinds(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.pieces.values() if k.route)


def base_vocabulary() -> Vocabulary:
    """The base game's names, with the indices `events.types` uses."""
    v = Vocabulary()
    for r in RESOURCES:
        v.add_resource(r, BASE_BANK)
    for card, copies in zip(DEV_CARDS, BASE_DECK, strict=True):
        v.add_dev_card(card, copies, point=card == "victory_point")
    for t in ("forest", "hills", "pasture", "fields", "mountains"):
        v.add_terrain(t, RESOURCES[TERRAIN_RESOURCE[t]])
    v.add_terrain("desert", desert=True)
    v.add_terrain("sea", land=False)
    for kind in BASE_PIECES:
        v.add_piece(kind)
    return v


def base_bundle(vec: list[int]) -> Bundle:
    """`events.types.vector_to_bundle` (the same dict, in the same order), here so that the
    compiled build compiles it: production puts four of them in every roll's event."""
    out: Bundle = {}
    for i, n in enumerate(vec):
        if n:
            out[RESOURCES[i]] = n
    return out
