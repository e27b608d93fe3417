"""Each rule module's part of the observation: the features of its `View.ext` entry
(bots/env/features.py for the kinds). A key of a module's ext is either encoded here or in
`IGNORED` with the reason; tests/rl/test_observation.py plays every module and fails on a key
in neither, so a module's new state cannot silently stay out of the observation."""

from __future__ import annotations

from collections.abc import Callable

from bots.env.features import (
    Feature,
    Keyed,
    Number,
    NumberCounts,
    Numbers,
    OneOf,
    PerSeat,
    Places,
    PlacesBySeat,
    PlaceValues,
    Seats,
    SeatsOneOf,
)

EVENTS = ("plentiful_year", "conflict", "robber_flees", "tournament", "trade_advantage",
          "epidemic", "earthquake", "good_neighbors", "robber_attacks", "calm_sea",
          "neighborly_assistance", "new_year")
ATTACK_CARDS = ("knighthood", "swift_knight", "treason", "intrigue")
COMMODITIES = ("glass", "marble", "sand", "tools")
FISH = ("1", "2", "3")

# The key of a module's entry in `View.ext`, where it is not the module's name.
EXT_KEYS = {"event-cards": "event_cards"}


def features(module: str) -> list[Feature]:
    """Fresh feature objects (the layout sets their positions) for one module."""
    make = FEATURES.get(module)
    return make() if make is not None else []


FEATURES: dict[str, Callable[[], list[Feature]]] = {
    "barbarian-attack": lambda: [
        PlaceValues("barbarians", 3.0, kind_="hex"),
        Places("conquered", kind_="hex"),
        Places("conquered_buildings", kind_="vertex"),
        Number("supply", 30.0),
        Places("castle", kind_="hex"),
        Places("coastal", kind_="hex"),
        PlacesBySeat("knights", kind_="edge"),
        PerSeat("gold", 10.0),
        PerSeat("prisoners", 10.0),
        Number("deck", 26.0),
        OneOf("card", values=ATTACK_CARDS),
        Number("marching"),
        Places("moved", kind_="edge"),
        Number("gold_buys", 2.0),
        Places("foreign_knight", kind_="edge"),
        Number("foreign_moved"),
    ],
    "caravans": lambda: [
        Number("camels_left", 22.0),
        Places("camels", kind_="edge", first=True),
        Places("caravans.*.edges", kind_="edge"),
        Places("caravans.*.head", kind_="vertex"),
        Numbers("started", length=3),
        Seats("vote.builder"),
        PerSeat("vote.votes", 10.0),
        Seats("vote.named"),
    ],
    "catan-for-two": lambda: [
        PerSeat("tokens", 10.0),
        Number("supply", 20.0),
        PerSeat("token_price", 3.0),
        Number("token_action_used"),
        Number("knight_discarded"),
        Number("roll", 2.0),
        Number("first_roll", 12.0),
        OneOf("neutral_build", values=("road", "settlement")),
        Places("neutrals.*.roads", kind_="edge"),
        Places("neutrals.*.settlements", kind_="vertex"),
    ],
    "event-cards": lambda: [
        NumberCounts("revealed", 6.0),
        Number("until_new_year", 36.0),
        Number("last_card.number", 12.0),
        OneOf("last_card.event", values=EVENTS),
        OneOf("event", values=EVENTS),
        PlacesBySeat("damaged_roads", kind_="edge"),
        Seats("waiting"),
    ],
    "fishermen": lambda: [
        PlaceValues("grounds", 12.0, kind_="hex"),
        Places("lake", kind_="hex"),
        PerSeat("tokens", 7.0),
        Keyed("hand", 7.0, keys=FISH),
        Number("supply", 40.0),
        Number("boot_in_supply"),
        Seats("boot"),
        PerSeat("return_due", 7.0),
        Keyed("prices", 7.0, keys=("robber", "steal", "bank", "road", "devcard")),
    ],
    "harbormaster": lambda: [
        Seats("holder"),
        PerSeat("points", 10.0),
    ],
    "oil-springs": lambda: [
        PerSeat("oil", 4.0),
        Number("supply", 15.0),
        Number("marker", 5.0),
        PerSeat("sequestered", 10.0),
        Number("removed", 15.0),
        Seats("champion"),
        Places("destroyed", kind_="hex"),
        PlacesBySeat("metropolises", kind_="vertex", owners=True),
        Places("springs", kind_="hex"),
        Number("used"),
        Number("sequestered_now"),
    ],
    "pirate-islands": lambda: [
        Places("fleet", kind_="hex"),
        Places("loop", kind_="hex"),
        PlacesBySeat("routes", kind_="edge"),
        PerSeat("warships", 10.0),
        PlacesBySeat("fortresses", kind_="vertex"),
        PerSeat("strength", 6.0),
        PlacesBySeat("sites", kind_="vertex"),
        PerSeat("gold", 10.0),
        Number("reward", 5.0),
    ],
    "rivers": lambda: [
        PerSeat("gold", 10.0),
        Seats("wealthiest"),
        Seats("poor"),
        Number("bought_this_turn", 2.0),
        PlacesBySeat("bridges", kind_="edge"),
        Places("bridge_sites", kind_="edge"),
        Number("neutral_bridge_owed"),
    ],
    "traders-and-barbarians": lambda: [
        PerSeat("gold", 10.0),
        PlacesBySeat("wagons", kind_="vertex"),
        PerSeat("levels", 6.0),
        SeatsOneOf("cargo", values=COMMODITIES),
        Keyed("delivered", 5.0, keys=COMMODITIES, by_seat=True),
        Keyed("stacks.castle", 6.0, keys=COMMODITIES),
        Keyed("stacks.quarry", 6.0, keys=COMMODITIES),
        Keyed("stacks.glassworks", 6.0, keys=COMMODITIES),
        Places("barbarians", kind_="edge"),
        Number("movement_points", 10.0),
        Number("moving"),
        Number("grain_paid"),
        Number("gold_buys", 2.0),
    ],
    "undo": lambda: [],
    # No state of their own: what they change shows in the base view (the robber's hexes,
    # the VP target).
    "friendly-robber": lambda: [],
    "victory-points": lambda: [],
}

IGNORED: dict[str, dict[str, str]] = {
    "barbarian-attack": {"trade_gold": "gold in an open offer: agents make no such offers"},
    "caravans": {"vote": "encoded through vote.builder, vote.votes and vote.named; the "
                         "options are the prompt's, and `mine`/`second` the agent's own moves"},
    "catan-for-two": {"neutrals": "encoded through neutrals.*.roads and .settlements"},
    "event-cards": {"cycle": "the deck's count of rebuilds: no bearing on play",
                    "last_card": "encoded through last_card.number and .event",
                    "my_choice": "the seat's own choice, already made"},
    "fishermen": {"lake_numbers": "the same in every game (2, 3, 11, 12)",
                  "spent": "tokens back in the supply: the supply count holds what matters"},
    "oil-springs": {"mode": "a game parameter, the same all game",
                    "trade_oil": "oil in an open offer: agents make no such offers"},
    "pirate-islands": {"fleet_index": "the fleet's place, encoded by its hex"},
    "rivers": {"gold_offer": "an offer with gold is answered from the prompt's options"},
    "traders-and-barbarians": {"stacks": "encoded through stacks.castle, .quarry, .glassworks",
                               "trade_gold": "gold in an open offer: agents make no such offers"},
    "undo": {"policy": "a game parameter", "floor": "how far back an undo may go",
             "vote": "an open proposal is answered from the prompt's options"},
}
