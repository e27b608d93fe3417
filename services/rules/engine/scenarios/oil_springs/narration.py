"""Oil Springs' events in words (the renderer asks `Module.narration`): floods and pollution
are told as what happened to the island, not as field dumps."""

from __future__ import annotations

from events.events import Event
from events.oil_springs import (
    ChampionChanged,
    CityReduced,
    DisasterRolled,
    HexPolluted,
    IslandAbandoned,
    MetropolisBuilt,
    OilProduced,
    OilRefined,
    OilSequestered,
    SpringPolluted,
)
from events.pieces import PieceRemoved
from services.rules.engine.narration import Narrator, Places, narrator


def _produced(e: OilProduced, at: Places) -> str:
    got = ", ".join(f"{at.who(s)} {n}" for s, n in enumerate(e.gains) if n)
    return f"The oil springs pay out oil: {got}"


def _disaster(e: DisasterRolled, at: Places) -> str:
    total = e.d1 + e.d2
    what = "a 7: the sea floods the coast" if total == 7 else f"{total}: industrial pollution"
    return (f"The disaster marker stands at 5 after {at.who(e.seat)}'s turn: disaster! "
            f"The dice show {e.d1}+{e.d2} = {what}; the marker returns to 0")


def _removed(e: PieceRemoved, at: Places) -> str:
    where = at.edge(e.site) if e.kind in ("road", "ship", "bridge") else at.vertex(e.site)
    return f"{at.who(e.seat)}'s {e.kind.replace('_', ' ')} at {where} is lost and goes back to its owner"


def _reduced(e: CityReduced, at: Places) -> str:
    return f"The flood reduces {at.who(e.seat)}'s city at {at.vertex(e.vertex)} to a settlement"


def _polluted(e: HexPolluted, at: Places) -> str:
    return (f"Industrial pollution destroys {at.hex(e.hex)}: its number {e.number} goes onto "
            "the disaster track and the hex never produces again")


def _spring(e: SpringPolluted, at: Places) -> str:
    taken = ", ".join(f"{n} from {at.who(s)}" for s, n in enumerate(e.taken) if n)
    lost = e.from_supply + sum(e.taken)
    tail = f" ({e.from_supply} from the supply, {taken})" if taken else " from the supply"
    return (f"Industrial pollution strikes the oil spring at {at.hex(e.hex)} (number {e.number}): "
            f"{lost} oil leave the game{tail}; the spring keeps producing")


def _abandoned(e: IslandAbandoned, at: Places) -> str:
    tail = (f"; {at.who(e.champion)}, Champion of the Environment, wins a Pyrrhic victory"
            if e.champion is not None else "")
    return f"The fifth number token reaches the disaster track: the island is abandoned and nobody wins{tail}"


NARRATION: dict[type[Event], Narrator] = dict([
    narrator(OilProduced, _produced),
    narrator(OilRefined, lambda e, at: f"{at.who(e.seat)} refines 1 oil into 2 {e.resource}; the disaster marker moves up 1"),
    narrator(MetropolisBuilt, lambda e, at: f"{at.who(e.seat)} turns the city at {at.vertex(e.vertex)} into a metropolis; the disaster marker moves up 2"),
    narrator(OilSequestered, lambda e, at: f"{at.who(e.seat)} sequesters 1 oil"),
    narrator(ChampionChanged, lambda e, at: f"{at.who(e.holder)} becomes Champion of the Environment with {e.sequestered} oil sequestered"),
    narrator(DisasterRolled, _disaster),
    narrator(PieceRemoved, _removed),
    narrator(CityReduced, _reduced),
    narrator(HexPolluted, _polluted),
    narrator(SpringPolluted, _spring),
    narrator(IslandAbandoned, _abandoned),
])
