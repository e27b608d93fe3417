"""Commands and events of the Oil Springs scenario (docs/rules/oil-springs.md §12; engine module
`services.rules.engine.scenarios.oil_springs`).

Oil is a sixth resource the base events cannot name (engine/vocab.py), so every move of oil
has an event here. Oil held is public (§12.3), so none of these events is redacted; the
disaster's dice and the polluted hex are chance, drawn by the dealer and recorded here.
"""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.types import Bundle, Resource

# --- commands -------------------------------------------------------------------------------


class RefineOil(Command, frozen=True, kw_only=True):
    """1 oil becomes 2 cards of `resource` (§12.5); the disaster marker moves up by 1."""

    resource: Resource


class BuildMetropolis(Command, frozen=True, kw_only=True):
    """1 brick, 1 grain, 1 ore and 2 oil turn the city on `vertex` into a metropolis."""

    vertex: int


class SequesterOil(Command, frozen=True, kw_only=True):
    """One oil put aside for good (once per turn, §12.6)."""


class RobForOil(Command, frozen=True, kw_only=True):
    """Move the robber to `hex` and take 1 oil from `victim` instead of a random card."""

    hex: int
    victim: int


class DiscardWithOil(Command, frozen=True, kw_only=True):
    """A 7's discard naming oil too (§12.4): `resources` and `oil` together make the count."""

    resources: Bundle
    oil: int


class PlayYearOfPlentyOil(Command, frozen=True, kw_only=True):
    """Year of Plenty taking oil (§12.4): `oil` (1 or 2) tokens and, with 1, one `resource`."""

    oil: int
    resource: Resource | None = None


class PlayMonopolyOil(Command, frozen=True, kw_only=True):
    """Monopoly naming oil: single tokens, round from the next seat, up to the limit."""


class ProposeOilTrade(Command, frozen=True, kw_only=True):
    """A domestic offer with oil (§12.4): `give`/`get` resources plus `give_oil`/`get_oil`
    tokens; answered with the base's AcceptTrade, RejectTrade, CounterTrade, ConfirmTrade."""

    give: Bundle
    get: Bundle
    give_oil: int = 0
    get_oil: int = 0
    to: tuple[int, ...] = ()


# --- events ---------------------------------------------------------------------------------


class OilProduced(Event, frozen=True, kw_only=True):
    """Oil paid out for a number, per seat (round-robin from the roller, §12.3)."""

    gains: tuple[int, ...]


class OilStolen(Event, frozen=True, kw_only=True):
    thief: int
    victim: int


class OilDiscarded(Event, frozen=True, kw_only=True):
    """Oil given back to the supply in a 7's discard (the marker does not move)."""

    seat: int
    oil: int


class OilRefined(Event, frozen=True, kw_only=True):
    seat: int
    resource: Resource


class MetropolisBuilt(Event, frozen=True, kw_only=True):
    seat: int
    vertex: int


class OilSequestered(Event, frozen=True, kw_only=True):
    seat: int


class ChampionChanged(Event, frozen=True, kw_only=True):
    """Champion of the Environment passes to `holder` with `sequestered` oil aside."""

    holder: int
    sequestered: int


class OilPlentyPlayed(Event, frozen=True, kw_only=True):
    """Year of Plenty played for `oil` tokens (what the limit lets in) and `resources`."""

    seat: int
    oil: int
    resources: Bundle


class OilMonopolyPlayed(Event, frozen=True, kw_only=True):
    """Monopoly on oil: `taken` tokens per seat."""

    seat: int
    taken: tuple[int, ...]


class OilTradeProposed(Event, frozen=True, kw_only=True):
    seat: int
    give: Bundle
    get: Bundle
    give_oil: int
    get_oil: int
    to: tuple[int, ...]


class OilTradeCompleted(Event, frozen=True, kw_only=True):
    """`seat` gave `give` and `give_oil` oil to `partner` and received `get` and `get_oil`."""

    seat: int
    partner: int
    give: Bundle
    get: Bundle
    give_oil: int
    get_oil: int


class DisasterRolled(Event, frozen=True, kw_only=True):
    """The disaster roll at the end of `seat`'s turn (chance key "disaster:<n>"); the marker
    goes back to 0. A 7 floods the coast, another total pollutes a hex."""

    seat: int
    d1: int
    d2: int
    n: int


class CityReduced(Event, frozen=True, kw_only=True):
    """A flooded coastal city becomes a settlement: its `PieceRemoved` comes first, then this
    puts its owner's settlement in its place (a flooded settlement is only a PieceRemoved)."""

    seat: int
    vertex: int


class HexPolluted(Event, frozen=True, kw_only=True):
    """Industrial pollution destroys `hex` (chance key "pollution:<n>"): its number token goes
    onto the disaster track and the hex never produces again."""

    hex: int
    number: int
    n: int


class SpringPolluted(Event, frozen=True, kw_only=True):
    """Pollution on an oil spring: oil leaves the game, from the supply first, then `taken`
    from the seats (per seat). The spring keeps producing."""

    hex: int
    number: int
    n: int
    from_supply: int
    taken: tuple[int, ...]


class IslandAbandoned(Event, frozen=True, kw_only=True):
    """The fifth number token reached the track: nobody wins; the Champion of the
    Environment, if any, has a Pyrrhic victory."""

    champion: int | None


register_module(__name__, Command, Event)
