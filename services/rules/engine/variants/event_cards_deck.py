"""The event deck of Catan Event Cards as data (docs/rules/event-cards.md §3.1), and the variant's public state.

`event_cards.toml` (next to this file) lists the 36 number cards; `load_deck` validates it when
the module is imported: 36 cards, per number 2..12 the counts 1,2,3,4,5,6,5,4,3,2,1, and the
events of §3.1 with their numbers of copies (Robber Attacks exactly on the six 7s). New Year
is not a listed card: it is laid on the bottom `under_new_year` cards of every rebuilt deck.

`EventState` (in `state.ext["event_cards"]`) holds only public facts: which cards of the
current deck have been revealed, the card being resolved, the open choice stage and the
damaged roads. There is no deck order anywhere in it (see event_cards.py on why none is needed).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final, cast, get_args

from mypy_extensions import mypyc_attr

from events.event_cards import EventName
from events.events import Event
from services.rules.engine.modstate import StateKey
from services.rules.engine.state import NO_ONE, State

NAME = "event_cards"
NUMBER_COUNTS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
EVENT_COUNTS = {
    "none": 16,
    "robber_attacks": 6,
    "epidemic": 2,
    "robber_flees": 2,
    "calm_sea": 2,
    "neighborly_assistance": 2,
    "plentiful_year": 1,
    "conflict": 1,
    "tournament": 1,
    "trade_advantage": 1,
    "earthquake": 1,
    "good_neighbors": 1,
}


class DeckError(ValueError):
    """A deck file that does not describe the Catan Event Cards deck."""


@dataclass(frozen=True)
class Deck:
    kinds: tuple[tuple[int, EventName], ...]  # distinct cards: (number, event)
    copies: tuple[int, ...]  # copies of each kind
    under_new_year: int

    @property
    def size(self) -> int:
        return sum(self.copies)

    def kind(self, number: int, event: str) -> int:
        return self.kinds.index((number, cast(EventName, event)))


def validate_deck(data: dict[str, Any]) -> Deck:
    names = set(get_args(EventName)) - {"new_year"}
    per_number: dict[int, int] = {}
    per_event: dict[str, int] = {}
    kinds: list[tuple[int, EventName]] = []
    copies: list[int] = []
    for number, event, n in data["cards"]:
        if event not in names:
            raise DeckError(f"unknown event {event!r}")
        if (number, event) in kinds or n < 1:
            raise DeckError(f"card {number} {event} listed twice or with {n} copies")
        if (event == "robber_attacks") != (number == 7):
            raise DeckError("Robber Attacks is exactly the event of every 7")
        kinds.append((number, event))
        copies.append(n)
        per_number[number] = per_number.get(number, 0) + n
        per_event[event] = per_event.get(event, 0) + n
    if per_number != NUMBER_COUNTS:
        raise DeckError(f"cards per number must be {NUMBER_COUNTS}, not {per_number}")
    if per_event != EVENT_COUNTS:
        raise DeckError(f"cards per event must be {EVENT_COUNTS}, not {per_event}")
    under = data["under_new_year"]
    if not 0 <= under < sum(copies):
        raise DeckError(f"New Year cannot lie on {under} of {sum(copies)} cards")
    return Deck(tuple(kinds), tuple(copies), under)


def load_deck() -> Deck:
    path = resources.files("services.rules.engine.variants") / "event_cards.toml"
    return validate_deck(tomllib.loads(path.read_text()))


DECK = load_deck()


# The attribute names, for copies and dumps (compiled classes have no __slots__ to read).
EVENT_FIELDS = ("per_cycle", "cycle", "index", "drawn", "card", "event", "waiting", "choices",
                 "damaged", "epidemic")


# Copies start from `EventState.__new__`, without __init__: compiled, that takes a class whose
# `__new__` does not call `__init__` (and interpreted code, the scenario and tests, still
# constructs it with its arguments: hence not mypyc's serializable=True, which skips __init__
# then).
@mypyc_attr(allow_interpreted_subclasses=True)
class EventState:
    """Public state of the variant. `choices` holds the private answers of a simultaneous stage
    (like a hand: in the state, hidden by `view`) until the stage resolves."""

    __slots__ = EVENT_FIELDS

    def __init__(self, per_cycle: int, seats: int) -> None:
        self.per_cycle = per_cycle  # cards drawn before the deck is rebuilt (31 with New Year)
        self.cycle = 0  # how many times the deck was built, minus one
        self.index = 0  # cards revealed from the current deck
        self.drawn = [0] * len(DECK.kinds)  # revealed copies of each kind, this deck
        self.card = NO_ONE  # kind of the last card drawn (its event / production)
        self.event = ""  # the event whose choice stage is open ("" none)
        self.waiting: list[int] = []  # seats asked to choose, in order
        self.choices: dict[int, int] = {}  # seat -> resource index or edge
        self.damaged = [NO_ONE] * seats  # per seat its damaged road (Earthquake)
        # Set only on decide's scratch copy while an Epidemic's production is computed.
        self.epidemic = False

    def copy(self) -> EventState:
        c = EventState.__new__(EventState)
        c.per_cycle = self.per_cycle
        c.cycle = self.cycle
        c.index = self.index
        c.drawn = self.drawn[:]
        c.card = self.card
        c.event = self.event
        c.waiting = self.waiting[:]
        c.choices = dict(self.choices)
        c.damaged = self.damaged[:]
        c.epidemic = self.epidemic
        return c

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (snapshots); `choices` as [seat, value] pairs."""
        out = {k: getattr(self, k) for k in EVENT_FIELDS if k != "epidemic"}
        out["drawn"] = self.drawn[:]
        out["waiting"] = self.waiting[:]
        out["damaged"] = self.damaged[:]
        out["choices"] = [[s, v] for s, v in sorted(self.choices.items())]
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> EventState:
        x = EventState(data["per_cycle"], len(data["damaged"]))
        for k in ("cycle", "index", "card", "event"):
            setattr(x, k, data[k])
        x.drawn = list(data["drawn"])
        x.waiting = list(data["waiting"])
        x.damaged = list(data["damaged"])
        x.choices = {int(s): int(v) for s, v in data["choices"]}
        return x

    def new_deck(self, cycle: int) -> None:
        self.cycle = cycle
        self.index = 0
        self.drawn = [0] * len(DECK.kinds)

    def close_stage(self) -> None:
        self.event = ""
        self.waiting = []
        self.choices = {}


def ext(state: State) -> EventState:
    return cast(EventState, state.ext[NAME])


def emit(state: State, out: list[Event], events: Iterable[Event]) -> None:
    """Fold `events` into decide's scratch copy and collect them: later steps of one command
    (the event, then production) must see the state the earlier ones leave."""
    evolvers = state.rules.registry.evolvers
    for e in events:
        evolvers[type(e)](state, e)
        state.version += 1
        out.append(e)


EVENTS: Final = StateKey(NAME, EventState)  # the variant's state (modstate.py)
