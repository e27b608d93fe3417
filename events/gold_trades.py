"""Gold trades of Barbarian Attack and Traders & Barbarians before 2026-12, when gold was one
side of the base offer through types of its own (`ProposeGoldTrade`, `GoldTradeProposed`,
`GoldTraded`). Gold is now the game's currency, named in the base trade's bundles
(engine/vocab.py, engine/base/trade.py); only the upcasters that read old logs are left.

A confirmed deal with gold was two events (`GoldTraded`, then `TradeCompleted` for the cards);
it is one `TradeCompleted` now. An old log still folds to the same state (the gold part reads
as a `TradeCompleted` of gold alone), but re-deciding its confirmation gives the one event
(docs/design.md, "Retired shapes").
"""

from __future__ import annotations

from typing import Any

from events.schema import retired, retired_command

GOLD = "gold"


def _with_gold(bundle: dict[str, int], gold: int) -> dict[str, int]:
    return {**bundle, GOLD: gold} if gold else dict(bundle)


@retired_command("ProposeGoldTrade")
def _propose_gold_trade(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "ProposeTrade", "seat": d["seat"],
            "give": _with_gold(d["give"], d.get("give_gold", 0)),
            "get": _with_gold(d["get"], d.get("get_gold", 0)), "to": d.get("to", [])}


@retired("GoldTradeProposed", into="TradeProposed", at=2)
def _gold_trade_proposed(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "give": _with_gold(d["give"], d["give_gold"]),
            "get": _with_gold(d["get"], d["get_gold"]), "to": d["to"]}


@retired("GoldTraded", into="TradeCompleted", at=2)
def _gold_traded(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "partner": d["partner"], "give": _with_gold({}, d["give_gold"]),
            "get": _with_gold({}, d["get_gold"])}
