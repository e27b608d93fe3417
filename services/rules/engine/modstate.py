"""Module state: what a variant or a scenario keeps in a game beside the base state.

A module declares its state's type once, with a typed key:

    FISH: Final = StateKey("fishermen", FishState)      # FishState: a msgspec Struct
    rules.module_state(FISH, init, view=view_fish)      # in install
    fish = FISH.of(state)                               # in the rules: a FishState

and the engine does the rest: the state is made by `init` when the game starts, copied with
the game's state (`State.copy`), written to plain JSON data and read back for snapshots and
undo (`State.to_dict`, restore.py), shown by `view` in each seat's view (and by `referee` in
the referee's), all from the type: no module writes a copy, a dump or a load by hand.

The type is a `msgspec.Struct` (fields typed; nested Structs, lists, sets, tuples and dicts
of them are copied deep, and dumped as JSON-able data: a set as a sorted list, a dict with
int keys as an object whose keys are strings, read back as ints). A module whose state is a
plain value (an int, a str) gives that type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar, cast

import msgspec

ST = TypeVar("ST")  # the state type (engine.state.State)
T = TypeVar("T")

_PLAIN = (int, str, bool, float)


class WithModuleStates(Protocol):
    """What `StateKey.of` reads: a game state's module states by name (engine.state.State)."""

    @property
    def ext(self) -> Mapping[str, object]: ...


class StateKey(Generic[T]):
    """The typed key of one module's state in `State.ext`."""

    def __init__(self, name: str, kind: type[T]) -> None:
        self.name = name
        self.kind = kind
        plain = kind in _PLAIN
        if not plain and not (isinstance(kind, type) and issubclass(kind, msgspec.Struct)):
            raise TypeError(f"{name}: a module state is a msgspec Struct or a plain value "
                            f"(int, str, bool, float), not {kind!r}")
        self.plain = plain
        # Copies go through msgpack (C, no Python per field): encode, then decode as the type.
        self._encode = msgspec.msgpack.Encoder().encode
        self._decode = None if plain else msgspec.msgpack.Decoder(kind).decode

    def of(self, state: WithModuleStates) -> T:
        """This module's state in `state` (an engine State)."""
        return cast(T, state.ext[self.name])

    def copy(self, value: object) -> object:
        if self.plain:
            return value
        decode = self._decode
        assert decode is not None
        return decode(self._encode(value))

    def dump(self, value: object) -> object:
        """Plain JSON-able data: sets as sorted lists, dict keys as strings."""
        if self.plain:
            return value
        return plain(value)

    def load(self, data: object) -> object:
        if self.plain:
            return data
        return msgspec.convert(data, self.kind, strict=False)

    def __repr__(self) -> str:
        return f"StateKey({self.name!r}, {self.kind.__name__})"


def plain(value: object) -> object:
    """`value` as plain JSON-able data, the same for equal values: a Struct as an object of
    its fields, a set as a sorted list, a dict's keys as strings in sorted order."""
    if isinstance(value, msgspec.Struct):
        return {f: plain(getattr(value, f)) for f in value.__struct_fields__}
    if isinstance(value, set | frozenset):
        return sorted(plain(v) for v in value)  # type: ignore[type-var]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


# What a module's view shows (JSON-able data: truly any shape a module chooses).
ViewData = Any


class ModuleStates(Generic[ST]):
    """The module states of a ruleset, by name: how each is made, and what views show of it."""

    keys: dict[str, StateKey[Any]]
    init: dict[str, Callable[[ST, Any], object]]
    view: dict[str, Callable[[ST, int | None], ViewData]]
    # What the referee's view adds to a module's `view` entry: the secrets the module keeps in
    # its own state (the values of every hand's tokens), which `view` shows no one else.
    referee: dict[str, Callable[[ST], dict[str, ViewData]]]

    def __init__(self) -> None:
        self.keys = {}
        self.init = {}
        self.view = {}
        self.referee = {}

    def copy_all(self, ext: dict[str, object]) -> dict[str, object]:
        keys = self.keys
        return {k: keys[k].copy(v) for k, v in ext.items()}

    def dump_all(self, ext: dict[str, object]) -> dict[str, object]:
        keys = self.keys
        return {k: keys[k].dump(v) for k, v in ext.items()}

    def load_all(self, data: dict[str, object]) -> dict[str, object]:
        keys = self.keys
        return {k: keys[k].load(v) for k, v in data.items()}
