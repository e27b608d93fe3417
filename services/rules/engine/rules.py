"""Rule ids and their one-line texts; `Rejected` is how the engine says no.

Rule ids are stable: rulings streams, audits and docs/rules/ refer to them, tests assert them.
Modules register their own ids with `register`.
"""

from __future__ import annotations


class Rejected(Exception):
    """A command broke a rule. `rule_id` is stable; `message` is for the player."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message


RULES: dict[str, str] = {
    "base.command.unknown": "Only commands of this ruleset are accepted.",
    "base.command.invalid": "A command must be well formed (fields, types, sizes).",
    "base.game.over": "No command is accepted after the game has ended.",
    "base.turn.not_your_turn": "Only the seat that must act now may give this command.",
    "base.turn.wrong_phase": "This command is not possible at this point of the turn.",
    "base.seat.unknown": "The seat must be one of the game's seats.",
    "base.setup.settlement_first": "In set-up, each player places a settlement, then a road.",
    "base.setup.road_adjacent": "In set-up, the road must touch the settlement just placed.",
    "base.place.unknown": "The vertex, edge or hex must exist on this map.",
    "base.build.occupied": "A piece cannot be built where another piece stands.",
    "base.build.distance": "No settlement may be built next to another settlement or city (distance rule).",
    "base.build.not_land": "Settlements, cities and roads stand on land.",
    "base.build.road_connect": "A road must connect to your road, settlement or city, not through an opponent's building.",
    "base.build.settlement_connect": "A settlement must touch one of your roads (after set-up).",
    "base.build.city_needs_settlement": "A city replaces one of your own settlements.",
    "base.build.no_pieces": "Each player has 15 roads, 5 settlements and 4 cities.",
    "base.build.cost": "Building costs: road 1 brick + 1 lumber; settlement 1 each of brick, lumber, wool, grain; city 3 ore + 2 grain.",
    "base.roll.already": "The dice are rolled once per turn, at its start.",
    "base.roll.required": "The dice must be rolled before trading or building.",
    "base.discard.count": "On a 7, a player with more than 7 cards discards half of them, rounded down.",
    "base.discard.not_held": "You can only discard cards you hold.",
    "base.robber.same_hex": "The robber must move to a different land hex.",
    "base.robber.not_land": "The robber moves to a land hex.",
    "base.robber.hex": "The robber may only go where the ruleset allows.",
    "base.robber.victim": "The robber steals from a player with a building next to its new hex, or from nobody if there is none.",
    "base.robber.no_choice": "The robber's card is drawn at random; a card is named (MoveRobber's take) only where a rule lets the thief choose.",
    "base.dev.cost": "A development card costs 1 ore, 1 wool and 1 grain.",
    "base.dev.empty_deck": "No development card is left to buy.",
    "base.dev.not_held": "You can only play a development card you hold.",
    "base.dev.bought_this_turn": "A development card cannot be played in the turn it was bought.",
    "base.dev.one_per_turn": "Only one development card may be played per turn.",
    "base.dev.bank_short": "Year of Plenty takes cards the bank still has.",
    "base.trade.maritime_ratio": "Maritime trade: 4 identical cards for 1, 3:1 at a generic harbor, 2:1 of the harbor's resource.",
    "base.trade.bank_short": "The bank must have the card you take.",
    "base.trade.like_for_like": "A trade must exchange different resources.",
    "base.trade.not_held": "You can only give cards you hold.",
    "base.trade.no_gift": "Trades are exchanges: both sides give at least one card.",
    "base.trade.none_open": "There is no open trade offer to answer.",
    "base.trade.already_open": "Only one trade offer is open at a time.",
    "base.trade.not_addressed": "Only the seats the offer is addressed to may answer it.",
    "base.trade.partner_not_accepted": "A trade closes with a seat that accepted or countered the offer.",
    "base.trade.active_only": "Domestic trades are only with the active player.",
    "base.win.own_turn": "A player wins with 10 victory points, on their own turn.",
}


def register(rules: dict[str, str]) -> None:
    """Add a module's rule ids; an id may not be redefined with another text."""
    for rule_id, text in rules.items():
        old = RULES.get(rule_id)
        if old is not None and old != text:
            raise ValueError(f"rule id {rule_id!r} already means {old!r}")
        RULES[rule_id] = text


def reject(rule_id: str, message: str) -> Rejected:
    assert rule_id in RULES, f"unregistered rule id {rule_id}"
    return Rejected(rule_id, message)
