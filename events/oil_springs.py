"""Commands and events of the Oil Springs scenario (docs/rules/oil-springs.md §12; engine module
`services.rules.engine.scenarios.oil_springs`).

Oil is a sixth resource of the game's vocabulary: it travels in the base commands and events
(a discard, Year of Plenty, Monopoly, a trade, the robber's `take`). What is here is oil's own:
refining, metropolises, sequestering, its production in rounds, the disasters. Oil held is
public (§12.3), so none of these events is redacted; the disaster's dice and the polluted hex
are chance, drawn by the dealer and recorded here.

Until 2026-12 oil had commands and events of its own beside the base ones; they are retired,
and their upcasters (at the end) read old logs into the base shapes.
"""

from __future__ import annotations

from typing import Any

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.schema import retired, retired_command, widened
from events.types import Resource

OIL = "oil"

# --- commands -------------------------------------------------------------------------------


class RefineOil(Command, frozen=True, kw_only=True):
    """1 oil becomes 2 cards of `resource` (§12.5); the disaster marker moves up by 1."""

    resource: Resource


class BuildMetropolis(Command, frozen=True, kw_only=True):
    """1 brick, 1 grain, 1 ore and 2 oil turn the city on `vertex` into a metropolis."""

    vertex: int


class SequesterOil(Command, frozen=True, kw_only=True):
    """One oil put aside for good (once per turn, §12.6)."""







# --- events ---------------------------------------------------------------------------------


class OilProduced(Event, frozen=True, kw_only=True):
    """Oil paid out for a number, per seat (round-robin from the roller, §12.3)."""

    gains: tuple[int, ...]




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
# v2 (2026-12): resources and cards are any name of the game's vocabulary (events.types).
widened("OilRefined")


# --- retired shapes (before 2026-12): oil in the base commands and events now --------------


def _with_oil(bundle: dict[str, int], oil: int) -> dict[str, int]:
    return {**bundle, OIL: oil} if oil else dict(bundle)


@retired_command("RobForOil")
def _rob_for_oil(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "MoveRobber", "seat": d["seat"], "hex": d["hex"], "victim": d["victim"],
            "take": OIL}


@retired_command("DiscardWithOil")
def _discard_with_oil(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "DiscardResources", "seat": d["seat"],
            "resources": _with_oil(d["resources"], d["oil"])}


@retired_command("PlayYearOfPlentyOil")
def _year_of_plenty_oil(d: dict[str, Any]) -> dict[str, Any]:
    other = d.get("resource")
    return {"type": "PlayYearOfPlenty", "seat": d["seat"],
            "resources": [OIL, OIL] if d["oil"] != 1 or other is None else [OIL, other]}


@retired_command("PlayMonopolyOil")
def _monopoly_oil(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "PlayMonopoly", "seat": d["seat"], "resource": OIL}


@retired_command("ProposeOilTrade")
def _propose_oil_trade(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "ProposeTrade", "seat": d["seat"],
            "give": _with_oil(d["give"], d.get("give_oil", 0)),
            "get": _with_oil(d["get"], d.get("get_oil", 0)), "to": d.get("to", [])}


@retired("OilStolen", into="CardStolen", at=2)
def _oil_stolen(d: dict[str, Any]) -> dict[str, Any]:
    return {"thief": d["thief"], "victim": d["victim"], "resource": OIL, "n": -1}


@retired("OilDiscarded", into="ResourcesDiscarded", at=2)
def _oil_discarded(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "resources": {OIL: d["oil"]}}


@retired("OilPlentyPlayed", into="YearOfPlentyPlayed", at=2)
def _oil_plenty(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "resources": _with_oil(d["resources"], d["oil"])}


@retired("OilMonopolyPlayed", into="MonopolyPlayed", at=2)
def _oil_monopoly(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "resource": OIL, "taken": d["taken"]}


@retired("OilTradeProposed", into="TradeProposed", at=2)
def _oil_trade_proposed(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "give": _with_oil(d["give"], d["give_oil"]),
            "get": _with_oil(d["get"], d["get_oil"]), "to": d["to"]}


@retired("OilTradeCompleted", into="TradeCompleted", at=2)
def _oil_trade_completed(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "partner": d["partner"],
            "give": _with_oil(d["give"], d["give_oil"]), "get": _with_oil(d["get"], d["get_oil"])}
