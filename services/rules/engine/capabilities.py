"""What modules offer each other, as typed capabilities (docs/design.md "Capabilities").

A module that has something others build on provides it when it is installed
(`rules.provide(NEUTRAL_OWNERS, …)`); a module that would use it asks when it decides
(`rules.capability(NEUTRAL_OWNERS)`) and gets the provider, or None when no module of the game
offers it. So a scenario never imports a variant's internals, never asks which modules are on,
and reads no other module's state: it asks for what it needs. Asking when deciding (not when
installing) makes the answer the same whatever order the modules were listed in.

    key               provided by                      what it is
    PURSE             Rivers, Barbarian Attack,        where the game's currency (gold) is kept:
                      Traders & Barbarians             the base trade moves it
    NEUTRAL_OWNERS    Catan for Two                    board-only owners and the neutral piece
                                                       owed after a build
    TRADE_TOKENS      Catan for Two                    the token supply, a token action's price
    DICE_DECK         Event Cards                      the deck drawn instead of the dice
    DAMAGED_ROADS     Event Cards                      roads an event put out of use
    SECOND_ROLL       a combination module             what replaces Catan for Two's second roll

Rules that exist only for a pair of modules live in one combination module for the pair
(engine/combinations/), installed when both are on.
"""

from __future__ import annotations

from typing import Protocol

from events.commands import Command
from events.events import Event
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import Rejected
from services.rules.engine.ruleset import Capability
from services.rules.engine.state import State


class Purse(Protocol):
    """Where a module keeps a currency (a name of `vocab.currencies`): per seat, public.
    `rule_id` is the module's rule on its currency in trades, which a refusal about the
    currency cites (`rivers.gold.domestic`, …)."""

    rule_id: str

    def held(self, state: State, seat: int, currency: str) -> int: ...

    def pay(self, state: State, payer: int, payee: int, currency: str, amount: int) -> None:
        """Evolve side: `amount` of `currency` goes from `payer` to `payee`."""


class NeutralOwners(Protocol):
    """Board-only owners (ids from `state.n` on: they never take turns, produce or get
    robbed) and the free neutral piece the active seat owes after building one of its own."""

    stage: str  # the phase (and prompt stage) in which the owed neutral piece is placed

    def owners(self, state: State) -> range: ...

    def options(self, state: State, seat: int, piece: str) -> list[Command]:
        """The neutral pieces of kind `piece` ("road", "settlement") `seat` may place now."""

    def owed_after(self, state: State, cause: str) -> str | None:
        """What a build of `cause` owes the neutrals on this board (None: nothing fits)."""

    def owed(self, state: State) -> str:
        """The piece owed now ("": none)."""

    def owe(self, state: State, piece: str) -> None:
        """Evolve side: the active seat owes `piece`; the owed piece's stage opens."""

    def settle(self, state: State, piece: str | None) -> None:
        """Evolve side: what is owed becomes `piece` (None: nothing; the stage closes)."""


class TradeTokens(Protocol):
    """The trade tokens: a supply, each seat's tokens, one token action per turn at a price."""

    def in_play(self, state: State) -> bool: ...

    def supply(self, state: State) -> int: ...

    def price(self, state: State, seat: int) -> int: ...

    def action_problem(self, state: State, seat: int) -> Rejected | None:
        """Why `seat` may not take a token action now (None: it may)."""

    def spend(self, state: State, seat: int, tokens: int) -> None:
        """Evolve side: the turn's token action is paid."""


class DiceDeck(Protocol):
    """A deck of number cards drawn instead of rolling the dice."""

    def draw(self, state: State, seat: int, dealer: Dealer) -> list[Event]:
        """One card drawn and resolved, as a roll of the dice would be."""

    def resolving(self, state: State) -> str:
        """The event of the card last drawn ("" before the first)."""


class DamagedRoads(Protocol):
    def damaged(self, state: State, edge: int) -> bool:
        """Whether the road on `edge` is out of use (a road no longer: no route over it)."""


class SecondRoll(Protocol):
    """Catan for Two's second roll of a turn, as a pair rule changes it (`first`: the first
    roll's total)."""

    def __call__(self, state: State, seat: int, dealer: Dealer, first: int, /) -> list[Event]: ...


PURSE: Capability[Purse] = Capability("purse")
NEUTRAL_OWNERS: Capability[NeutralOwners] = Capability("neutral owners")
TRADE_TOKENS: Capability[TradeTokens] = Capability("trade tokens")
DICE_DECK: Capability[DiceDeck] = Capability("dice deck")
DAMAGED_ROADS: Capability[DamagedRoads] = Capability("damaged roads")
SECOND_ROLL: Capability[SecondRoll] = Capability("second roll")
