"""A game's phase, or a prompt's stage, in the words a player uses at the table ("camel bidding", "moving the
robber"), never the rules' id (`caravans.bid`): what the panel, the text board and the replay
show."""

from __future__ import annotations

# The base game's phases, then each module's (its ids are `module.phase`).
PHASE_WORDS: dict[str, str] = {
    "setup": "setup",
    "roll": "before the roll",
    "discard": "discarding on a 7",
    "robber": "moving the robber",
    "main": "building and trading",
    "road_building": "road building",
    "trade": "trading",
    "over": "game over",
    # Prompt stages that are not phases (what a player is asked within one).
    "setup_settlement": "placing a set-up settlement",
    "setup_road": "placing a set-up road",
    "trade_answer": "answering a trade offer",
    "undo.vote": "voting on an undo",
    "barbarian_attack.card": "carrying out a card",
    "barbarian_attack.steal": "stealing on a 7",
    "caravans.bid": "camel bidding",
    "caravans.name": "naming the camel's path",
    "caravans.second": "placing the second camel",
    "catan_for_two.give_back": "giving back a forced trade's cards",
    "catan_for_two.neutral": "building for a neutral player",
    "event_cards.assist": "event: neighborly assistance",
    "event_cards.earthquake": "event: earthquake",
    "event_cards.gift": "event: good neighbors",
    "event_cards.grant": "event: resources from the bank",
    "event_cards.take": "event: taking a resource",
    "fishermen.return": "giving back fish",
    "pirate_islands.gold": "choosing gold's resources",
    "pirate_islands.reward": "choosing the fleet's reward",
    "pirate_islands.steal": "stealing on a 7",
    "rivers.neutral_bridge": "building a neutral bridge",
    "traders_and_barbarians.barbarian": "moving a barbarian",
    "traders_and_barbarians.wagon": "moving the wagon",
}


def phase_words(phase: str) -> str:
    """`phase` as a player says it; a phase not listed still reads as words (its last part,
    without underscores), never as a dotted id."""
    return PHASE_WORDS.get(phase) or phase.rsplit(".", 1)[-1].replace("_", " ")
