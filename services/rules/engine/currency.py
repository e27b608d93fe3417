"""A module's currency (gold) in the base trade: the vocabulary learns its name, and the module
lends the per-seat counts it keeps in its own state through the `PURSE` capability.

Rivers (§7.4 `rivers.gold.domestic`), Barbarian Attack (§9.10 `barbarian_attack.gold.trade`) and
Traders & Barbarians (§10.11 `traders_and_barbarians.gold.trade`) keep gold as a public count
beside the hand: it is no card (never stolen, discarded, counted for the 7 or monopolised), so
it is in no hand vector. An offer names it like a resource (`{"gold": 2}`); the base trade
checks that the giver holds it, refuses it on both sides (`base.trade.like_for_like`, cited by
the module's own rule id) and moves it on completion (`TradeCompleted`).
"""

from __future__ import annotations

from collections.abc import Callable

from services.rules.engine.capabilities import PURSE
from services.rules.engine.state import Rules, State

GOLD = "gold"


class CountedPurse:
    """A currency counted per seat in a module's state (`counts(state)`: the list by seat)."""

    def __init__(self, counts: Callable[[State], list[int]], rule_id: str) -> None:
        self.counts = counts
        self.rule_id = rule_id

    def held(self, state: State, seat: int, currency: str) -> int:
        return self.counts(state)[seat]

    def pay(self, state: State, payer: int, payee: int, currency: str, amount: int) -> None:
        counts = self.counts(state)
        counts[payer] -= amount
        counts[payee] += amount


def install_gold(rules: Rules, counts: Callable[[State], list[int]], rule_id: str) -> None:
    """Gold as the game's currency: a name trades carry, counted in the module's state."""
    rules.vocab.add_currency(GOLD)
    rules.provide(PURSE, CountedPurse(counts, rule_id))


def open_offer_gold(state: State) -> list[int] | None:
    """The open offer's gold, [the proposer gives, it gets] (None: no offer open): what the
    modules' views have shown since gold first rode in an offer."""
    trade = state.trade
    vocab = state.rules.vocab
    if trade is None or GOLD not in vocab.trade_index:
        return None
    i = vocab.trade_index[GOLD]
    return [trade.give[i], trade.get[i]]
