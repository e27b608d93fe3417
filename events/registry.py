"""The registry of wire types: every command and event type, by its tag (the class name).

The codec builds its tagged unions from here. A wire file registers what it defines with
`register_module(__name__, Command, Event)` as its last line (the bases tell commands from
events; this file imports neither, so the wire modules import it without a circle); a tag is
never reused for another shape, so a second class with a known tag is refused. `load()` imports every wire module: each module of
this package (the base game's and the shipped modules' files), then those other packages
name under the entry-point group `hexlog.wire` (a module package living outside hexlog). So
any process that decodes — the rules service, a bot worker, a replay — only has to use
`events.codec.codec()`, which calls `load()`; nothing here imports the engine.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from importlib.metadata import entry_points
from pathlib import Path

import msgspec

# Per base class name ("Command", "Event"): tag -> type.
TABLES: dict[str, dict[str, type[msgspec.Struct]]] = {"Command": {}, "Event": {}}
COMMANDS = TABLES["Command"]
EVENTS = TABLES["Event"]
ENTRY_POINTS = "hexlog.wire"


def register(base: type[msgspec.Struct], *types: type[msgspec.Struct]) -> None:
    """Register `types`, subclasses of `base` (Command or Event), by their tags."""
    table = TABLES[base.__name__]
    for cls in types:
        tag = cls.__struct_config__.tag
        if not isinstance(tag, str) or not issubclass(cls, base):
            raise TypeError(f"{cls.__name__} is not a tagged {base.__name__}")
        known = table.get(tag)
        if known is not None and known is not cls:
            raise ValueError(f"tag {tag!r} is taken by {known.__module__}.{known.__name__}")
        table[tag] = cls


def register_module(name: str, *bases: type[msgspec.Struct]) -> None:
    """Register every subclass of `bases` defined in module `name` (its own classes)."""
    module = sys.modules[name]
    own = [obj for obj in vars(module).values()
           if isinstance(obj, type) and obj.__module__ == name and obj not in bases]
    for base in bases:
        register(base, *(cls for cls in own if issubclass(cls, base)))


def load() -> None:
    """Import every wire module (see the module docstring); idempotent. The modules are listed
    from this file's own folder, not `events.__path__`: a folder named `events` earlier on the
    path (tests/events under pytest) can make `events` a namespace package that hides them."""
    for info in pkgutil.iter_modules([str(Path(__file__).resolve().parent)]):
        importlib.import_module(f"events.{info.name}")
    for ep in entry_points(group=ENTRY_POINTS):
        importlib.import_module(ep.value)


def command_types() -> tuple[type[msgspec.Struct], ...]:
    return tuple(sorted(COMMANDS.values(), key=lambda c: c.__name__))


def event_types() -> tuple[type[msgspec.Struct], ...]:
    return tuple(sorted(EVENTS.values(), key=lambda c: c.__name__))
