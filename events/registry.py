"""The registry of wire types: every command and event type, by its tag (the class name).

The codec builds its tagged unions from here. A wire file registers what it defines with
`register_module(__name__)` as its last line; a tag is never reused for another shape, so a
second class with a known tag is refused. `load()` imports every wire module: each module of
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

import msgspec

COMMANDS: dict[str, type[msgspec.Struct]] = {}
EVENTS: dict[str, type[msgspec.Struct]] = {}
ENTRY_POINTS = "hexlog.wire"


def register(*types: type[msgspec.Struct]) -> None:
    from events.commands import Command
    from events.events import Event

    for cls in types:
        tag = cls.__struct_config__.tag
        if not isinstance(tag, str):
            raise TypeError(f"{cls.__name__} has no tag: not a wire command or event")
        table = COMMANDS if issubclass(cls, Command) else EVENTS if issubclass(cls, Event) else None
        if table is None:
            raise TypeError(f"{cls.__name__} is neither a Command nor an Event")
        known = table.get(tag)
        if known is not None and known is not cls:
            raise ValueError(f"tag {tag!r} is taken by {known.__module__}.{known.__name__}")
        table[tag] = cls


def register_module(name: str) -> None:
    """Register every command and event type defined in module `name` (its own classes)."""
    from events.commands import Command
    from events.events import Event

    module = sys.modules[name]
    register(*(
        obj for obj in vars(module).values()
        if isinstance(obj, type) and obj.__module__ == name and obj not in (Command, Event)
        and issubclass(obj, Command | Event)
    ))


def load() -> None:
    """Import every wire module (see the module docstring); idempotent."""
    import events

    for info in pkgutil.iter_modules(events.__path__):
        importlib.import_module(f"events.{info.name}")
    for ep in entry_points(group=ENTRY_POINTS):
        importlib.import_module(ep.value)


def command_types() -> tuple[type[msgspec.Struct], ...]:
    return tuple(sorted(COMMANDS.values(), key=lambda c: c.__name__))


def event_types() -> tuple[type[msgspec.Struct], ...]:
    return tuple(sorted(EVENTS.values(), key=lambda c: c.__name__))
