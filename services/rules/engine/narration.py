"""How a module narrates its own events (the renderer, services/render/narrate.py, asks).

A narrator turns one event into a sentence with the help of `Places`, which names seats and
board places; a module lists its narrators in `Module.narration` (use `narrator` to type one
against its event). Narration never sees behind a redaction: it gets the event as the reader
may see it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar, cast

from events.events import Event

E = TypeVar("E", bound=Event)


class Places(Protocol):
    def who(self, seat: int | None) -> str: ...

    def vertex(self, v: int) -> str: ...

    def edge(self, e: int) -> str: ...

    def hex(self, h: int) -> str: ...


Narrator = Callable[[Event, Places], str]


def narrator(kind: type[E], fn: Callable[[E, Places], str]) -> tuple[type[Event], Narrator]:
    """`(kind, fn)` as an entry of `Module.narration`, `fn` typed against `kind`."""
    return kind, cast(Narrator, fn)


def cards(bundle: dict[str, int] | None) -> str:
    if not bundle:
        return "nothing"
    return ", ".join(f"{n} {r}" for r, n in bundle.items() if n)
