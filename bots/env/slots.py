"""The arguments of a command as action slots: each field maps a value to an index in a fixed
domain, so that an action id can be computed from a command (never from an option's position
in a prompt).

Scalar kinds: a board place (`vertex`, `edge`, `hex`, `hex_or_supply`: -1 first), a seat
(relative to the acting seat: 0 is itself, 1 the next seat clockwise; seats past the table,
the neutral colours of Catan for Two, keep their number), a resource of the game (the base
five, then the modules' own such as oil, by name), a choice among fixed values (a card kind,
a flag), a count `0..k-1`, and an unordered pair of resources. An optional field has one more
value, `None`, last. Multiset kinds (`cards`, `tokens`) are chosen one item at a time in a
canonical order (decision.py)."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from events.types import RESOURCES

BOARD_KINDS = ("vertex", "edge", "hex", "hex_or_supply")
SEAT_DOMAIN = 4  # seats are 0..3 in every game (2-seat games give seats 2, 3 to neutrals)
FISH_VALUES = (1, 2, 3)  # the values of fish tokens (fishermen)


def pairs(k: int) -> list[tuple[int, int]]:
    """Unordered pairs (with repeats) of `k` resources, in a fixed order."""
    return list(combinations_with_replacement(range(k), 2))


@dataclass(frozen=True)
class Vocabulary:
    """What a game's domains hold beyond the board: its resources (`game_resources`)."""

    resources: tuple[str, ...] = tuple(RESOURCES)

    def resource_index(self, name: object) -> int:
        try:
            return self.resources.index(str(name))
        except ValueError:
            raise SlotError(f"{name!r} is not a resource of this game {self.resources}") from None


class SlotError(ValueError):
    """A value outside its slot's domain: a command the action space cannot name."""


@dataclass(frozen=True)
class Slot:
    """One field of a command. `kind` is a board kind, `seat`, `choice`, `count`, `pair`,
    `one_card` (a bundle of one card: a menu offer), or a multiset kind `cards`/`tokens`.
    `values` holds a choice's values (and a count's size as range)."""

    field: str
    kind: str
    values: tuple[object, ...] = ()
    optional: bool = False

    @property
    def multiset(self) -> bool:
        return self.kind in ("cards", "tokens")

    def size(self, board_sizes: Mapping[str, int], vocab: Vocabulary) -> int:
        if self.kind in BOARD_KINDS:
            return board_sizes[self.kind]
        if self.kind == "seat":
            return SEAT_DOMAIN + self.optional
        if self.kind == "resource":
            return len(vocab.resources) + self.optional
        if self.kind == "pair":
            return len(pairs(len(vocab.resources)))
        if self.kind in ("one_card", "cards"):
            return len(vocab.resources)
        return len(self.values)  # choice, count, tokens

    def domain(self, vocab: Vocabulary) -> tuple[object, ...]:
        """The values of a choice, count, resource or multiset item, by index."""
        if self.kind in ("resource", "one_card", "cards"):
            return vocab.resources + ((None,) if self.optional else ())
        return self.values

    def index(self, value: object, me: int, n: int, vocab: Vocabulary) -> int:
        """The index of a scalar value (see the module docstring)."""
        kind = self.kind
        if kind in ("vertex", "edge", "hex"):
            assert isinstance(value, int)
            return value
        if kind == "hex_or_supply":
            assert isinstance(value, int)
            return value + 1
        if kind == "seat":
            if value is None:
                return SEAT_DOMAIN
            assert isinstance(value, int)
            return (value - me) % n if value < n else value
        if kind == "resource":
            if value is None:
                return len(vocab.resources)
            return vocab.resource_index(value)
        if kind == "pair":
            assert isinstance(value, tuple)
            a, b = sorted(vocab.resource_index(r) for r in value)
            return pairs(len(vocab.resources)).index((a, b))
        if kind == "one_card":
            assert isinstance(value, Mapping)
            assert len(value) == 1
            (name, count), = value.items()
            if count != 1:
                raise SlotError(f"{self.field}: a menu offer gives one card, not {count}")
            return vocab.resource_index(name)
        try:
            return self.values.index(value)  # choice, count
        except ValueError:
            raise SlotError(f"{self.field}={value!r} is not one of {self.values}") from None

    def indexer(self, vocab: Vocabulary) -> Callable[[object, int, int], int]:
        """`index` specialised to this slot's kind (value, acting seat, seats) -> index: the
        form the action space calls for every option of every prompt."""
        kind = self.kind
        if kind in ("vertex", "edge", "hex"):
            return lambda v, me, n: v  # type: ignore[return-value]
        if kind == "seat":
            def seat(v: object, me: int, n: int) -> int:
                if v is None:
                    return SEAT_DOMAIN
                assert isinstance(v, int)
                return (v - me) % n if v < n else v
            return seat
        if kind == "resource":
            names = {name: i for i, name in enumerate(vocab.resources)}
            if self.optional:
                names[None] = len(vocab.resources)  # type: ignore[index]

            def resource(v: object, me: int, n: int) -> int:
                try:
                    return names[v]  # type: ignore[index]
                except KeyError:
                    raise SlotError(f"{self.field}: {v!r} is not a resource of this game") from None
            return resource
        if kind in ("choice", "count"):
            known = {value: i for i, value in enumerate(self.values)}

            def choice(v: object, me: int, n: int) -> int:
                try:
                    return known[v]
                except KeyError:
                    raise SlotError(f"{self.field}={v!r} is not one of {self.values}") from None
            return choice
        return lambda v, me, n: self.index(v, me, n, vocab)

    def items(self, value: object, vocab: Vocabulary) -> list[int]:
        """A multiset value as the sorted indices of its items (with repeats)."""
        if self.kind == "cards":
            assert isinstance(value, Mapping)
            return sorted(vocab.resource_index(r) for r, k in value.items() for _ in range(k))
        assert isinstance(value, Sequence)
        return sorted(FISH_VALUES.index(int(v)) for v in value)


def count(field: str, k: int) -> Slot:
    """A small count or index `0..k-1` (a caravan, a barbarian, a bid)."""
    return Slot(field, "count", tuple(range(k)))


def derived(field: str, annotation: object, by_name: Mapping[str, str]) -> Slot:
    """The slot a field's type gives: a resource (a resource Literal, or a string marked as a
    resource name) is `resource`, another Literal or a bool a `choice`, an int named in
    `by_name` a board place or seat, a bundle of resources `cards`, two resources `pair`."""
    optional = False
    args = typing.get_args(annotation)
    if _is_union(annotation) and type(None) in args:
        optional = True
        (annotation,) = [a for a in args if a is not type(None)]
        args = typing.get_args(annotation)
    if _is_resource(annotation):
        return Slot(field, "resource", optional=optional)
    if annotation is bool:
        return Slot(field, "choice", (False, True))
    if typing.get_origin(annotation) is typing.Literal:
        return Slot(field, "choice", _literal(annotation) + ((None,) if optional else ()), optional)
    if annotation is int and field in by_name:
        return Slot(field, by_name[field], optional=optional)
    origin = typing.get_origin(annotation)
    if origin is dict and args and _is_resource(args[0]):
        return Slot(field, "cards")
    if origin is tuple and len(args) == 2 and all(_is_resource(a) for a in args):
        return Slot(field, "pair")
    raise SlotError(f"no action slot for field {field!r} of type {annotation!r}")


def _is_union(annotation: object) -> bool:
    return typing.get_origin(annotation) in (typing.Union, types.UnionType)


def _literal(annotation: object) -> tuple[object, ...]:
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    return typing.get_args(annotation)


def _is_resource(annotation: object) -> bool:
    """A resource Literal (the base five), or a string annotated as a resource name (a
    marker object whose `kind` is "resource")."""
    marks = getattr(annotation, "__metadata__", ()) if typing.get_origin(annotation) is typing.Annotated else ()
    if any(getattr(m, "kind", None) == "resource" for m in marks):
        return True
    values = _literal(annotation)
    return bool(values) and set(values) == set(RESOURCES)
