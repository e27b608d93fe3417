"""How a module narrates its own events and draws its own pieces (the renderers in
services/render/ ask: narrate.py for sentences, text.py for the board).

A narrator turns one event into a sentence with the help of `Places`, which names seats and
board places; a module lists its narrators in `Module.narration` (use `narrator` to type one
against its event). Narration never sees behind a redaction: it gets the event as the reader
may see it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Protocol, TypeVar, cast

from events.events import Event
from events.registry import EVENTS

E = TypeVar("E", bound=Event)


class Places(Protocol):
    def who(self, seat: int | None) -> str: ...

    def vertex(self, v: int) -> str: ...

    def edge(self, e: int) -> str: ...

    def hex(self, h: int) -> str: ...


Narrator = Callable[[Event, Places], str]


class Sketch(Protocol):
    """The board being drawn, as a module's `drawing` sees it: put a short text at a place
    ("vertex", "edge" or "hex" and its id); the renderer knows where that is."""

    def mark(self, place: str, site: int, text: str) -> None: ...


def narrator(kind: type[E], fn: Callable[[E, Places], str]) -> tuple[type[Event], Narrator]:
    """`(kind, fn)` as an entry of `Module.narration`, `fn` typed against `kind`."""
    return kind, cast(Narrator, fn)


SEATS = frozenset({"seat", "victim", "thief", "giver", "receiver", "holder", "partner", "neutral"})


def fields(event: Event, at: Places) -> dict[str, str]:
    """Every field of `event` in words: seats by name, places by name, card bundles as
    counts, names without underscores (what a `template` fills in)."""
    out: dict[str, str] = {}
    for name in event.__struct_fields__:
        value = getattr(event, name)
        if name in SEATS and isinstance(value, int):
            out[name] = at.who(value)
        elif name in ("vertex", "edge", "hex") and isinstance(value, int):
            out[name] = getattr(at, name)(value)
        elif isinstance(value, dict):
            out[name] = cards({str(k): int(n) for k, n in value.items()})
        elif isinstance(value, tuple):
            out[name] = ", ".join(str(v) for v in value)
        else:
            out[name] = str(value).replace("_", " ")
    return out


def templates(texts: Mapping[type[Event], str]) -> dict[type[Event], Narrator]:
    """Narrators from format strings over the event's fields in words (`fields`):
    `{KnightDiscarded: "{seat} discards a face-up knight"}`."""
    def make(text: str) -> Narrator:
        return lambda event, at: text.format(**fields(event, at))

    return {kind: make(text) for kind, text in texts.items()}


def load_templates(package: str, name: str) -> dict[type[Event], Narrator]:
    """`templates` from a TOML file of the module (`[templates]` tag = "text"): a module's
    narration as data. The event types must be registered (events.registry)."""
    data = tomllib.loads((resources.files(package) / name).read_text())
    return templates({_event_type(tag): text for tag, text in data["templates"].items()})


def _event_type(tag: str) -> type[Event]:
    kind = EVENTS[tag]
    if not issubclass(kind, Event):
        raise TypeError(f"{tag} is not an event")
    return kind


def cards(bundle: dict[str, int] | None) -> str:
    if not bundle:
        return "nothing"
    return ", ".join(f"{n} {r}" for r, n in bundle.items() if n)
