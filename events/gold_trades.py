"""Gold in domestic trades, for the modules that keep gold as a public count beside the hand
(Barbarian Attack §9.10, Traders & Barbarians §10.11; engine kit
`services.rules.engine.gold_trades`).

The offer is the base game's open offer with gold on one side: it is answered, countered,
confirmed and cancelled with the base commands. All of it is public.
"""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.types import Bundle


class ProposeGoldTrade(Command, frozen=True, kw_only=True):
    """A domestic offer with gold on one side: the active seat gives `give` and `give_gold`
    for `get` and `get_gold`; answered like any offer."""

    give: Bundle
    get: Bundle
    give_gold: int = 0
    get_gold: int = 0
    to: tuple[int, ...] = ()


class GoldTradeProposed(Event, frozen=True, kw_only=True):
    """An offer with gold on one side; the open offer is the base game's, its gold is here."""

    seat: int
    give: Bundle
    get: Bundle
    give_gold: int
    get_gold: int
    to: tuple[int, ...]


class GoldTraded(Event, frozen=True, kw_only=True):
    """The gold of a confirmed offer: `seat` (the proposer) pays `give_gold` to `partner`,
    who pays `get_gold`."""

    seat: int
    partner: int
    give_gold: int
    get_gold: int


register_module(__name__, Command, Event)
