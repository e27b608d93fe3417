"""Catan for Two's events in plain words (the renderer asks `Module.narration`)."""

from __future__ import annotations

from events.catan_for_two import (
    DiceRerolled,
    ForcedTradeDrawn,
    ForcedTradeReturned,
    KnightDiscarded,
    NeutralBuildRequired,
    NeutralRoadBuilt,
    NeutralSettlementBuilt,
    RobberSentToDesert,
    TradeTokensGained,
    TradeTokensSpent,
)
from events.events import Event
from services.rules.engine.narration import Narrator, Places, cards, narrator


def _rerolled(e: DiceRerolled, at: Places) -> str:
    return f"{at.who(e.seat)} rolled {e.d1}+{e.d2} again, the first roll's total: rolls again"


def _owed(e: NeutralBuildRequired, at: Places) -> str:
    return f"{at.who(e.seat)} built a {e.cause} and owes a neutral {e.piece}"


def _neutral_road(e: NeutralRoadBuilt, at: Places) -> str:
    return f"{at.who(e.seat)} built a road for {at.who(e.neutral)} at {at.edge(e.edge)}"


def _neutral_settlement(e: NeutralSettlementBuilt, at: Places) -> str:
    return f"{at.who(e.seat)} built a settlement for {at.who(e.neutral)} at {at.vertex(e.vertex)}"


def _gained(e: TradeTokensGained, at: Places) -> str:
    return f"{at.who(e.seat)} gains {e.tokens} trade token(s) ({e.reason})"


def _spent(e: TradeTokensSpent, at: Places) -> str:
    return f"{at.who(e.seat)} spends {e.tokens} trade token(s): {e.action.replace('_', ' ')}"


def _drawn(e: ForcedTradeDrawn, at: Places) -> str:
    what = ", ".join(e.cards) if e.cards is not None else f"{e.count} cards"
    return f"{at.who(e.seat)} forces a trade and draws {what} from {at.who(e.victim)}"


def _returned(e: ForcedTradeReturned, at: Places) -> str:
    what = cards({str(k): n for k, n in e.resources.items()}) if e.resources is not None else f"{e.count} cards"
    return f"{at.who(e.seat)} gives {what} back to {at.who(e.victim)}"


def _robber_sent(e: RobberSentToDesert, at: Places) -> str:
    return f"{at.who(e.seat)} sends the robber to the desert {at.hex(e.hex)}"


def _knight(e: KnightDiscarded, at: Places) -> str:
    return f"{at.who(e.seat)} discards a face-up knight"


NARRATION: dict[type[Event], Narrator] = dict([
    narrator(DiceRerolled, _rerolled),
    narrator(NeutralBuildRequired, _owed),
    narrator(NeutralRoadBuilt, _neutral_road),
    narrator(NeutralSettlementBuilt, _neutral_settlement),
    narrator(TradeTokensGained, _gained),
    narrator(TradeTokensSpent, _spent),
    narrator(ForcedTradeDrawn, _drawn),
    narrator(ForcedTradeReturned, _returned),
    narrator(RobberSentToDesert, _robber_sent),
    narrator(KnightDiscarded, _knight),
])
