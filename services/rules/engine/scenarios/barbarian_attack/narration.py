"""Barbarian Attack's events in plain words (`hexlog replay`), and its pieces on a drawn
board: barbarians on their hexes, knights on their paths."""

from __future__ import annotations

from events.barbarian_attack import (
    FROM_SUPPLY,
    AttackCardDrawn,
    BarbarianCapturedByIntrigue,
    BarbarianMovedByTokens,
    BarbarianRelocatedByTreason,
    BarbariansLanded,
    CoastalBattleWon,
    ForeignKnightJoined,
    ForeignKnightMarched,
    KnightMarched,
    KnightRaised,
    MarchBegun,
    ResourceBoughtWithGold,
    ResourceSoldForGold,
    SevenVictimChosen,
)
from events.events import Event
from services.rules.engine.narration import Narrator, Places, narrator

CARD_NAMES = {"knighthood": "Knighthood", "swift_knight": "Swift Knight", "treason": "Treason",
              "intrigue": "Intrigue"}


def _landed(e: BarbariansLanded, at: Places) -> str:
    thrown = ", ".join(map(str, e.totals))
    if not e.hexes:
        return f"Barbarians try to land (throws {thrown}) but none comes ashore"
    where = ", ".join(at.hex(h) for h in e.hexes)
    return f"Barbarians land on {where} (throws {thrown})"


def _drawn(e: AttackCardDrawn, at: Places) -> str:
    how = "draws a free card" if e.free else "buys a development card"
    text = f"{at.who(e.seat)} {how}: {CARD_NAMES[e.card]}"
    if e.lost:
        text += " (no use: discarded)"
    return text


def _placed(e: KnightRaised, at: Places) -> str:
    return f"{at.who(e.seat)} raises a knight on path {at.edge(e.edge)}"


def _relocated(e: BarbarianRelocatedByTreason, at: Places) -> str:
    source = "the supply" if e.source == FROM_SUPPLY else at.hex(e.source)
    return f"{at.who(e.seat)} moves a barbarian by treason from {source} to {at.hex(e.target)}"


def _captured(e: BarbarianCapturedByIntrigue, at: Places) -> str:
    return f"{at.who(e.seat)} captures a barbarian on {at.hex(e.hex)} by intrigue"


def _moved(e: KnightMarched, at: Places) -> str:
    boost = " (a forced march for 1 grain)" if e.boost else ""
    return f"{at.who(e.seat)}'s knight marches from {at.edge(e.source)} to {at.edge(e.target)}{boost}"


def _joined(e: ForeignKnightJoined, at: Places) -> str:
    return f"The foreign knight joins on path {at.edge(e.edge)}"


def _foreign(e: ForeignKnightMarched, at: Places) -> str:
    return (f"{at.who(e.seat)} marches the foreign knight from {at.edge(e.source)} "
            f"to {at.edge(e.target)}")


def _tokens(e: BarbarianMovedByTokens, at: Places) -> str:
    return (f"{at.who(e.seat)} pays {e.tokens} trade token{'s' if e.tokens > 1 else ''} to move "
            f"a barbarian from {at.hex(e.source)} to {at.hex(e.target)}")


def _begun(e: MarchBegun, at: Places) -> str:
    return f"{at.who(e.seat)}'s knights set out"


def _battle(e: CoastalBattleWon, at: Places) -> str:
    taken = ", ".join(f"{at.who(s)} takes {n} prisoner{'s' if n > 1 else ''}"
                      for s, n in enumerate(e.prisoners) if n)
    text = (f"Battle at {at.hex(e.hex)}: {len(e.knights)} knights drive off "
            f"{e.barbarians} barbarian{'s' if e.barbarians > 1 else ''}; {taken}")
    paid = ", ".join(f"{at.who(s)} {n} gold" for s, n in enumerate(e.gold) if n)
    lost = ", ".join(f"{at.who(s)} on {at.edge(edge)}" for s, edge in e.lost)
    text += f"; the colour die shows {e.die}: " + (f"knights lost: {lost}" if lost else "no knight lost")
    if paid:
        text += f"; gold paid: {paid}"
    return text


def _victim(e: SevenVictimChosen, at: Places) -> str:
    return f"{at.who(e.seat)} draws a card from {at.who(e.victim)}"


def _gold_bought(e: ResourceBoughtWithGold, at: Places) -> str:
    return f"{at.who(e.seat)} buys 1 {e.resource} for 2 gold"


def _gold_sold(e: ResourceSoldForGold, at: Places) -> str:
    return f"{at.who(e.seat)} sells {e.count} {e.resource} for 1 gold"


NARRATION: dict[type[Event], Narrator] = dict([
    narrator(BarbariansLanded, _landed),
    narrator(AttackCardDrawn, _drawn),
    narrator(KnightRaised, _placed),
    narrator(BarbarianRelocatedByTreason, _relocated),
    narrator(BarbarianCapturedByIntrigue, _captured),
    narrator(KnightMarched, _moved),
    narrator(MarchBegun, _begun),
    narrator(ForeignKnightJoined, _joined),
    narrator(ForeignKnightMarched, _foreign),
    narrator(BarbarianMovedByTokens, _tokens),
    narrator(CoastalBattleWon, _battle),
    narrator(SevenVictimChosen, _victim),
    narrator(ResourceBoughtWithGold, _gold_bought),
    narrator(ResourceSoldForGold, _gold_sold),
])
