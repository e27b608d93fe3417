"""Commands and events of the Caravans scenario (docs/rules/caravans.md §8; engine module
`services.rules.engine.scenarios.caravans`).

A caravan is named by its arrow (0 north, 1 south-east, 2 south-west): each arrow starts one
caravan, and a merged caravan keeps the id of the one whose camel made the merge. Bids are
public when made; the placement each voter names is sealed until every voter has named one
(`CamelPathNamed` is redacted for everyone but the voter), then `CamelVoteDecided` reveals all.
"""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.registry import register_module

# --- commands -------------------------------------------------------------------------------


class BidForCamel(Command, frozen=True, kw_only=True):
    """A seat's one bid at a camel vote: wool and grain from its hand, laid open (§8.5)."""

    wool: int = 0
    grain: int = 0


class NameCamelPath(Command, frozen=True, kw_only=True):
    """The placement a voter wants: `edge` for caravan `caravan` (sealed until all named)."""

    caravan: int
    edge: int


class PlaceSecondCamel(Command, frozen=True, kw_only=True):
    """Catan for Two: the vote's second camel, in another caravan than the first (§8.9)."""

    caravan: int
    edge: int


# --- events ---------------------------------------------------------------------------------


class CamelVoteOpened(Event, frozen=True, kw_only=True):
    """`seat` built this turn: the table votes on where the next camel goes. `options` are the
    legal placements as flat (caravan, edge) pairs."""

    seat: int
    options: tuple[int, ...]


class CamelBidMade(Event, frozen=True, kw_only=True):
    """A public bid; the cards go to the bank at once (§8.5 step 6)."""

    seat: int
    wool: int
    grain: int


class CamelPathNamed(Event, frozen=True, kw_only=True):
    """Sealed: only `seat` (and the referee's log) sees the named placement."""

    seat: int
    caravan: int | None
    edge: int | None


class CamelVoteDecided(Event, frozen=True, kw_only=True):
    """Every voter's named placement revealed, and which rule decided (a rule id).

    `votes` and `choices` per seat (choices as flat (caravan, edge) pairs, -1 -1 for a seat that
    named nothing); `decider` is None when a coalition decided; `second` is the seat that places
    a second camel (Catan for Two), if any."""

    votes: tuple[int, ...]
    choices: tuple[int, ...]
    rule: str
    decider: int | None
    caravan: int
    edge: int
    second: int | None = None


class CamelPlaced(Event, frozen=True, kw_only=True):
    """A camel on `edge` for caravan `caravan` (placed by `seat`); `merged` names the caravan
    it joined, if its head reached one."""

    seat: int
    caravan: int
    edge: int
    merged: int | None = None


register_module(__name__, Command, Event)
