"""Feature kinds for the modules' parts of a view (`View.ext`): how a value at a path becomes
numbers, relative to the observing seat. bots/env/module_features.py lists each module's.

Two families: *columns* (numbers in the observation's `ext` section) and *channels* (one
more feature per vertex, edge or hex in the board sections, so a module's places sit beside
the base game's pieces on the same rows). Seats are always rotated so that the observing seat
comes first: slot k is the seat k places after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SEAT_SLOTS = 4


class Out:
    """What an encoding writes, for one numpy assignment (bots/env/observation.py): the
    indices set to 1, and (index, value) pairs of the other non-zero values."""

    __slots__ = ("idx", "me", "n", "ones", "vals")

    def __init__(self, me: int, n: int) -> None:
        self.me, self.n = me, n
        self.ones: list[int] = []
        self.idx: list[int] = []
        self.vals: list[float] = []

    def rel(self, seat: int) -> int:
        """The seat's slot: 0 is the observing seat, 1 the next one …; neutrals (seats past the
        table) keep their number."""
        return (seat - self.me) % self.n if seat < self.n else seat

    def put(self, i: int, value: float) -> None:
        if value:
            self.idx.append(i)
            self.vals.append(value)

    def one(self, i: int) -> None:
        self.ones.append(i)


def lookup(data: Any, path: str) -> Any:
    """`a.b` in nested dicts; `a.*.b` collects `b` of each element of the list `a` (None
    elements skipped) into one list. Missing keys give None."""
    head, _, rest = path.partition(".")
    if head == "*":
        items = [lookup(x, rest) if rest else x for x in (data or ()) if x is not None]
        flat: list[Any] = []
        for x in items:
            flat.extend(x if isinstance(x, list) else [x])
        return flat
    value = data.get(head) if isinstance(data, Mapping) else None
    return lookup(value, rest) if rest and value is not None else value


def _number(v: Any) -> float:
    """A number as a feature: nothing, and the -1 some modules write for "none", are 0."""
    return 0.0 if v is None else max(float(v), 0.0)


@dataclass
class Feature:
    """A path in a module's `ext` and how it is encoded; `col` and `board` are set by the
    observation layout."""

    path: str
    scale: float = 1.0
    col: int = -1
    board: tuple[int, int, int] = (0, 0, 0)  # (base, stride, first channel) of the channels

    kind = ""  # a board kind for channel features ("vertex", "edge", "hex"), else ""
    columns = 0
    channels = 0
    about = ""

    def emit(self, value: Any, out: Out) -> None:
        raise NotImplementedError

    def place(self, i: int, channel: int = 0) -> int:
        base, stride, first = self.board
        return base + i * stride + first + channel


@dataclass
class Number(Feature):
    """A number, flag or nothing: value / scale."""

    columns = 1
    about = "number / scale"

    def emit(self, value: Any, out: Out) -> None:
        out.put(self.col, _number(value) / self.scale)


@dataclass
class Numbers(Feature):
    """A list of `length` numbers (not by seat)."""

    length: int = 1
    about = "numbers / scale"

    def __post_init__(self) -> None:
        self.columns = self.length

    def emit(self, value: Any, out: Out) -> None:
        for i, v in enumerate((value or ())[: self.length]):
            out.put(self.col + i, _number(v) / self.scale)


@dataclass
class PerSeat(Feature):
    """A list by seat: 4 columns, the observing seat first."""

    columns = SEAT_SLOTS
    about = "by seat, relative / scale"

    def emit(self, value: Any, out: Out) -> None:
        for seat, v in enumerate(value or ()):
            if seat < SEAT_SLOTS:
                out.put(self.col + out.rel(seat), _number(v) / self.scale)


@dataclass
class Seats(Feature):
    """A seat, or a list of seats: 4 columns, 1 at each seat's slot."""

    columns = SEAT_SLOTS
    about = "seat(s), relative one-hot"

    def emit(self, value: Any, out: Out) -> None:
        seats = value if isinstance(value, list) else ([] if value is None else [value])
        for s in seats:
            if 0 <= int(s) < SEAT_SLOTS:
                out.one(self.col + out.rel(int(s)))


@dataclass
class OneOf(Feature):
    """A name among `values` (anything else, and nothing, give zeros)."""

    values: tuple[str, ...] = ()
    about = "one-hot"

    def __post_init__(self) -> None:
        self.columns = len(self.values)

    def emit(self, value: Any, out: Out) -> None:
        if value in self.values:
            out.one(self.col + self.values.index(value))


@dataclass
class Keyed(Feature):
    """A dict of numbers with known keys (or a list of such dicts by seat, `by_seat`)."""

    keys: tuple[str, ...] = ()
    by_seat: bool = False
    about = "by key / scale"

    def __post_init__(self) -> None:
        self.columns = len(self.keys) * (SEAT_SLOTS if self.by_seat else 1)

    def emit(self, value: Any, out: Out) -> None:
        rows = [(0, value)] if not self.by_seat else [
            (out.rel(s), v) for s, v in enumerate(value or ()) if s < SEAT_SLOTS]
        for slot, d in rows:
            for k, key in enumerate(self.keys):
                v = d.get(key) if isinstance(d, Mapping) else None
                out.put(self.col + slot * len(self.keys) + k, _number(v) / self.scale)


@dataclass
class SeatsOneOf(Feature):
    """A list by seat of names among `values`."""

    values: tuple[str, ...] = ()
    about = "by seat, one-hot"

    def __post_init__(self) -> None:
        self.columns = SEAT_SLOTS * len(self.values)

    def emit(self, value: Any, out: Out) -> None:
        for seat, v in enumerate(value or ()):
            if seat < SEAT_SLOTS and v in self.values:
                out.one(self.col + out.rel(seat) * len(self.values) + self.values.index(v))


@dataclass
class Places(Feature):
    """Places (an id, or a list of ids; `first`: of [id, …] pairs): one channel, 1 at each."""

    kind_: str = "hex"
    first: bool = False
    about = "1 at each place"

    def __post_init__(self) -> None:
        self.kind, self.channels = self.kind_, 1

    def emit(self, value: Any, out: Out) -> None:
        ids = value if isinstance(value, list) else ([] if value is None else [value])
        for v in ids:
            i = v[0] if self.first else v
            if i is not None and int(i) >= 0:
                out.ones.append(self.place(int(i)))


@dataclass
class PlaceValues(Feature):
    """[id, value] pairs: one channel holding value / scale at each id."""

    kind_: str = "hex"
    about = "value / scale at each place"

    def __post_init__(self) -> None:
        self.kind, self.channels = self.kind_, 1

    def emit(self, value: Any, out: Out) -> None:
        for i, v in value or ():
            out.put(self.place(int(i)), _number(v) / self.scale)


@dataclass
class PlacesBySeat(Feature):
    """Places per seat (a list by seat, or a dict seat → places; each an id, a list of ids or
    nothing), or a dict place → seat (`owners`): 4 channels, the owner's slot."""

    kind_: str = "edge"
    owners: bool = False
    about = "1 at each place, in its seat's channel (relative)"

    def __post_init__(self) -> None:
        self.kind, self.channels = self.kind_, SEAT_SLOTS

    def emit(self, value: Any, out: Out) -> None:
        if self.owners:
            pairs: Sequence[tuple[Any, Any]] = [(s, p) for p, s in (value or {}).items()]
        elif isinstance(value, Mapping):
            pairs = list(value.items())
        else:
            pairs = list(enumerate(value or ()))
        for seat, places in pairs:
            s = int(seat)
            if s >= SEAT_SLOTS or places is None:
                continue
            for p in places if isinstance(places, list) else [places]:
                out.ones.append(self.place(int(p), out.rel(s)))


@dataclass
class NumberCounts(Feature):
    """[number, name, count] triples (revealed event cards): counts per number 2..12."""

    columns = 11
    about = "count per number 2..12 / scale"

    def emit(self, value: Any, out: Out) -> None:
        sums = [0.0] * 11
        for number, _, k in value or ():
            if 2 <= int(number) <= 12:
                sums[int(number) - 2] += float(k)
        for i, v in enumerate(sums):
            out.put(self.col + i, v / self.scale)
