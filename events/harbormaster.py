"""Events of the Harbormaster variant (docs/rules/harbormaster.md §4; engine module `variants/harbormaster.py`)."""

from __future__ import annotations

from events.events import Event
from events.registry import register_module


class HarbormasterChanged(Event, frozen=True, kw_only=True):
    """The Harbormaster card (2 VP, public) moved: to `holder`, or back to the supply (None).

    `points` is every seat's harbor points when it moved (public: buildings are on the board).
    """

    holder: int | None
    points: tuple[int, ...]

    def describe(self) -> str:
        """The log line for this event."""
        if self.holder is None:
            return "Harbormaster card back to the supply"
        return f"Harbormaster card to seat {self.holder} ({self.points[self.holder]} harbor points)"


register_module(__name__, Event)
