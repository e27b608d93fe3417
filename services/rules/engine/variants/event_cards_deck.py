"""The event deck of Catan Event Cards as data (docs/rules/event-cards.md §3.1), and the variant's public state.

`event_cards.toml` (next to this file) lists the 36 number cards; `load_deck` validates it when
the module is imported: 36 cards, per number 2..12 the counts 1,2,3,4,5,6,5,4,3,2,1, and the
events of §3.1 with their numbers of copies (Robber Attacks exactly on the six 7s). New Year
is not a listed card: it is laid on the bottom `under_new_year` cards of every rebuilt deck.

`EventState` (in `state.ext["event_cards"]`; event_cards_state.py) holds only public facts:
which cards of the current deck have been revealed, the card being resolved, the open choice
stage and the damaged roads. There is no deck order anywhere in it (see event_cards.py on why none is needed).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Final, cast, get_args

from events.event_cards import EventName
from events.events import Event
from services.rules.engine.modstate import StateKey
from services.rules.engine.state import NO_ONE, State
from services.rules.engine.variants.event_cards_state import EventState

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


def validate_deck(data: dict[str, object]) -> Deck:
    """The deck of `event_cards.toml`'s data (any shape a file holds: checked here)."""
    names = set(get_args(EventName)) - {"new_year"}
    per_number: dict[int, int] = {}
    per_event: dict[str, int] = {}
    kinds: list[tuple[int, EventName]] = []
    copies: list[int] = []
    cards = data["cards"]
    if not isinstance(cards, list):
        raise DeckError(f"cards are a list of [number, event, copies], not {cards!r}")
    for number, event, n in cards:
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
    if not isinstance(under, int) or not 0 <= under < sum(copies):
        raise DeckError(f"New Year cannot lie on {under} of {sum(copies)} cards")
    return Deck(tuple(kinds), tuple(copies), under)


def load_deck() -> Deck:
    path = resources.files("services.rules.engine.variants") / "event_cards.toml"
    return validate_deck(tomllib.loads(path.read_text()))


DECK = load_deck()


def new_event_state(per_cycle: int, seats: int) -> EventState:
    """The state at the game's start: the first deck, nothing revealed."""
    return EventState(per_cycle, drawn=[0] * len(DECK.kinds), damaged=[NO_ONE] * seats)


def new_deck(x: EventState, cycle: int) -> None:
    x.cycle = cycle
    x.index = 0
    x.drawn = [0] * len(DECK.kinds)


def close_stage(x: EventState) -> None:
    x.event = ""
    x.waiting = []
    x.choices = {}


EVENTS: Final = StateKey(NAME, EventState)  # the variant's state (modstate.py)


def ext(state: State) -> EventState:
    return EVENTS.of(state)


def emit(state: State, out: list[Event], events: Iterable[Event]) -> None:
    """Fold `events` into decide's scratch copy and collect them: later steps of one command
    (the event, then production) must see the state the earlier ones leave."""
    evolvers = state.rules.registry.evolvers
    for e in events:
        evolvers[type(e)](state, e)
        state.version += 1
        out.append(e)

