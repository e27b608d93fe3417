"""Which commands an agent can play, by rule module, and the slots of each.

Every registered command type is either here (with its slots: bots/env/slots.py) or in
`LEFT_OUT` with the reason; tests/rl/test_actions.py fails on a command type that is in
neither, so a module's new command cannot silently miss from the action space. A command
belongs to the module whose wire file defines it (`events/fishermen.py` → fishermen);
`events/commands.py` is the base game's.

The order is fixed: the base game's commands, then each module's in the order of their
names, each group sorted by command name. An action id is that order's offset plus the
slot values' index (bots/env/actions.py), so ids depend on the modules, the code's command
vocabulary and the map's topology, never on the order a prompt lists its options in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from bots.env.slots import FISH_VALUES, Slot, count, derived
from events.codec import codec
from events.commands import Command
from events.registry import COMMANDS

BASE = "base"

# An int field named so is this kind of id (a field of another name has an explicit entry in
# SLOTS below).
INT_FIELDS = {
    "vertex": "vertex", "edge": "edge", "hex": "hex",
    "victim": "seat", "partner": "seat", "to": "seat", "neutral": "seat",
}

# Fields whose name says too little: what the modules' docs and rules give (docs/rules/).
SLOTS: dict[tuple[str, str], Slot] = {
    ("MarchKnight", "source"): Slot("source", "edge"),
    ("MarchKnight", "target"): Slot("target", "edge"),
    ("MarchForeignKnight", "target"): Slot("target", "edge"),
    ("MoveBarbarianByTokens", "source"): Slot("source", "hex"),
    ("MoveBarbarianByTokens", "target"): Slot("target", "hex"),
    ("RelocateByTreason", "source"): Slot("source", "hex_or_supply"),
    ("RelocateByTreason", "target"): Slot("target", "hex"),
    ("AttackFortress", "fortress"): Slot("fortress", "vertex"),
    ("MoveShip", "ship"): Slot("ship", "edge"),
    ("MoveShip", "to"): Slot("to", "edge"),
    ("BidForCamel", "wool"): count("wool", 20),  # a bid is at most the 19 cards of a kind
    ("BidForCamel", "grain"): count("grain", 20),
    ("NameCamelPath", "caravan"): count("caravan", 3),
    ("PlaceSecondCamel", "caravan"): count("caravan", 3),
    ("MoveBarbarianOnPath", "barbarian"): count("barbarian", 3),
    ("MoveBarbarianWithTokens", "barbarian"): count("barbarian", 3),
    ("TryDriveOff", "barbarian"): count("barbarian", 3),
    ("PlayYearOfPlentyOil", "oil"): count("oil", 3),
    ("FishBuildRoad", "tokens"): Slot("tokens", "tokens", FISH_VALUES),
    ("FishRemoveRobber", "tokens"): Slot("tokens", "tokens", FISH_VALUES),
    ("FishSteal", "tokens"): Slot("tokens", "tokens", FISH_VALUES),
    ("FishTakeDevelopmentCard", "tokens"): Slot("tokens", "tokens", FISH_VALUES),
    ("FishTakeResource", "tokens"): Slot("tokens", "tokens", FISH_VALUES),
    ("ReturnFish", "tokens"): Slot("tokens", "tokens", FISH_VALUES),
}

# The domestic offer menu (`trade_offers=True`): one card for one card, to every seat.
MENU_OFFER = (Slot("give", "one_card"), Slot("get", "one_card"))

LEFT_OUT: dict[str, str] = {
    "ProposeTrade": "open-ended terms; with trade_offers=True a menu of 1-for-1 offers to "
                    "every seat takes its place",
    "CounterTrade": "open-ended terms: an agent accepts or rejects an offer",
    "ProposeGoldTrade": "open-ended terms (an offer with gold)",
    "OfferGoldTrade": "open-ended terms (an offer with gold)",
    "ProposeOilTrade": "open-ended terms (an offer with oil)",
    "DiscardWithOil": "a discard naming oil: the agent discards resources, keeping its oil "
                      "(a hand over the limit always holds enough)",
    "ProposeUndo": "a table rule's proposal, not a game move: agents never propose undos",
    "RevertTo": "the referee's command",
    "ContestRuling": "judged by the rules service, not a rule module",
}

WIRE_MODULES = {"events.commands": BASE, "events.disputes": "undo"}


def module_of(cls: type[Command]) -> str:
    """The rule module a command type belongs to (its wire file; see the docstring)."""
    return WIRE_MODULES.get(cls.__module__, cls.__module__.rpartition(".")[2].replace("_", "-"))


@dataclass(frozen=True)
class Entry:
    """A command type the agent can play, with its slots in field order."""

    command: type[Command]
    module: str
    slots: tuple[Slot, ...]

    @property
    def name(self) -> str:
        return self.command.__name__


def slots_of(cls: type[Command]) -> tuple[Slot, ...]:
    out = []
    for f in msgspec.structs.fields(cls):
        if f.name == "seat":
            continue
        out.append(SLOTS.get((cls.__name__, f.name)) or derived(f.name, f.type, INT_FIELDS))
    return tuple(out)


def entries(modules: Sequence[str], trade_offers: bool = False) -> list[Entry]:
    """The catalogue for a game of these modules (names), in id order."""
    codec()  # every wire module loaded: every command type registered
    chosen = [BASE, *sorted(set(modules))]
    by_module: dict[str, list[type[Command]]] = {m: [] for m in chosen}
    for cls in COMMANDS.values():
        module = module_of(cls)  # type: ignore[arg-type]
        if module in by_module:
            by_module[module].append(cls)  # type: ignore[arg-type]
    out = []
    for module in chosen:
        for cls in sorted(by_module[module], key=lambda c: c.__name__):
            if cls.__name__ == "ProposeTrade" and trade_offers:
                out.append(Entry(cls, module, MENU_OFFER))
            elif cls.__name__ not in LEFT_OUT:
                out.append(Entry(cls, module, slots_of(cls)))
    return out
