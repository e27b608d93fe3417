"""The scenario's rule ids (docs/rules/pirate-islands.md §11), registered on import."""

from __future__ import annotations

from services.rules.engine.rules import register

RULE_IDS: dict[str, str] = {
    "pirate_islands.board.map": "The game is played on the fixed Pirate Islands map; only harbor kinds are shuffled.",
    "pirate_islands.setup.preplaced": "Each player starts with their slot's settlement and ship, which bring no resources.",
    "pirate_islands.setup.main_island": "The two set-up settlements go on the main island, each with a road.",
    "pirate_islands.ship.cost": "A ship costs 1 lumber and 1 wool.",
    "pirate_islands.ship.limit": "Each player has 15 ships.",
    "pirate_islands.ship.lane": "A ship lies only on a lane edge of its owner's slot.",
    "pirate_islands.ship.route_end": "A new ship extends the open end of its owner's route; the route never branches.",
    "pirate_islands.ship.shortest": "Each new ship brings the route one step closer to its fortress along the lanes.",
    "pirate_islands.ship.fortress_end": "No ship goes beyond its owner's fortress vertex.",
    "pirate_islands.ship.move": "One open ship not built this turn may be moved per turn, only to a place a new ship could go.",
    "pirate_islands.ship.road_building": "Road Building may place ships instead of roads.",
    "pirate_islands.road.main_island": "Roads are built only on the main island, never on a ship lane.",
    "pirate_islands.road.ship_join": "Roads and ships join only at a settlement or city.",
    "pirate_islands.settlement.site": "The only settlement on a pirate island is a player's own slot site, once their route touches it.",
    "pirate_islands.production.gold": "A gold field pays one resource of choice per unit due.",
    "pirate_islands.fleet.move": "Each roll moves the fleet clockwise by the smaller die before anything else.",
    "pirate_islands.fleet.attack": "The fleet attacks each player with a building on its hex, in seat order from the roller, fleet strength = smaller die against the player's warships.",
    "pirate_islands.fleet.loss": "A player weaker than the fleet loses 1 random card plus 1 per city to the bank.",
    "pirate_islands.fleet.reward": "A player stronger than the fleet takes 1 resource of choice from the bank.",
    "pirate_islands.fleet.removed": "The fleet leaves the board when every fortress has fallen.",
    "pirate_islands.warship.convert": "A Knight (or, with 4 players, a VP card) turns the rear-most ordinary ship of the route into a warship, as the turn's development card.",
    "pirate_islands.warship.needs_ship": "A warship needs an ordinary ship to convert.",
    "pirate_islands.seven.order": "On a 7 the fleet acts first, then discards, then the optional steal.",
    "pirate_islands.seven.steal": "The roller may draw one random card from any other player of their choice.",
    "pirate_islands.fortress.own_only": "A player attacks only their own slot's fortress.",
    "pirate_islands.fortress.connected": "An attack needs an unbroken route from the slot settlement to a ship at the fortress vertex, re-established after every failure.",
    "pirate_islands.fortress.roll": "One die against the warships: more warships lowers the strength by 1, fewer loses 2 front ships, equal loses 1.",
    "pirate_islands.fortress.ends_turn": "An attack ends the attacker's turn.",
    "pirate_islands.fortress.captured": "A fortress at strength 0 becomes its attacker's settlement.",
    "pirate_islands.dev.deck": "The deck loses its VP cards with 3 players; with 4 they count as Knights.",
    "pirate_islands.dev.no_reshuffle": "The deck is not rebuilt once empty.",
    "pirate_islands.win.fortress": "Only a player who has captured their own fortress can win.",
    "pirate_islands.win.target": "The win needs 10 VP on the player's own turn (11 with Harbormaster).",
    "pirate_islands.awards.none": "Longest Road and Largest Army are not played.",
}

register(RULE_IDS)
