"""Scenario: The Rivers of Catan (docs/rules/rivers.md §7). 2-4 seats, 10 VP.

Two rivers run from the inland mountains to swamps on the coast. Roads and settlements along
them, and bridges across them, earn gold; gold buys resources; the sole richest player holds
the Wealthiest Settler (+1 VP) and every poorest player a Poor Settler (-2 VP).

Design notes:
- The map (`maps/rivers.toml`) keeps the seven river hexes (one terrain pool per kind, so the
  shuffle leaves them in place) and shuffles the twelve others; its token walk skips the
  swamps. `create` puts the 2 on the hex that received the 12 (`numbers:extra` in the set-up,
  read by the board), so that hex produces on both numbers.
- Swamps are a desert-like terrain (`vocab.add_terrain(desert=True)`): whatever a variant
  does with "the desert" it does with the swamps (Friendly Robber's fallback, Robber Flees,
  Catan for Two's robber action and trade tokens) — the combinations of §7.7.
- Bridges (bridges.py) and gold (gold.py) are this module's own commands; gold and the
  Settlers are public, so nothing is redacted (chance-and-hidden-information.md §14.7).
- Gold is the game's currency (engine/currency.py): a trade between players names it like a
  resource, in the base game's offer (`rivers.gold.domestic`).
- With Catan for Two, the neutral bridge a bridge owes is the pair's rule:
  engine/combinations/rivers_catan_for_two.py.
"""

from __future__ import annotations

from typing import Any

from events.events import GameCreated, RoadBuilt, SettlementBuilt, TradeCompleted, TurnEnded
from events.rivers import (
    BridgeBuilt,
    BuildBridge,
    BuyWithGold,
    GoldEarned,
    GoldSpent,
    ResourcesSoldForGold,
    SellForGold,
)
from services.rules.engine import hook_keys as hk
from services.rules.engine import layout
from services.rules.engine.base.scoring import derive_longest_road
from services.rules.engine.chance import Dealer
from services.rules.engine.currency import install_gold
from services.rules.engine.ruleset import Module
from services.rules.engine.scenarios.rivers import bridges, gold
from services.rules.engine.scenarios.rivers.advice import ADVICE
from services.rules.engine.scenarios.rivers.common import (
    BRIDGE,
    BRIDGE_COST,
    BRIDGES_PER_SEAT,
    EXT,
    JOINED_TOKEN,
    JOINING_TOKEN,
    NAME,
    NEUTRAL_BRIDGE,
    RIVERS_STATE,
    SWAMP,
    RiversState,
)
from services.rules.engine.scenarios.rivers.drawing import drawing
from services.rules.engine.scenarios.rivers.narration import NARRATION
from services.rules.engine.scenarios.rivers.view import view_ext
from services.rules.engine.state import MAIN, Rules, State
from services.rules.engine.vocab import PieceKind

__all__ = ["EXT", "MODULE", "NEUTRAL_BRIDGE", "RiversState"]


def init(state: State, created: GameCreated) -> RiversState:
    return RiversState(gold=[0] * state.n)


class Rivers(Module[State, None]):
    name = NAME
    kind = "scenario"
    title = "The Rivers of Catan"
    description = ("The Rivers of Catan: bridges across two rivers, gold for building along "
                   "them, the Wealthiest (+1) and Poor (-2) Settlers.")
    seats = (2, 3, 4)
    map = "rivers"
    maps = "services.rules.engine.scenarios.rivers.maps"
    conflicts: dict[str, str] = {}  # every variant combines (combinations.md §13.3)
    advice = ADVICE
    narration = NARRATION
    stages = {
        NEUTRAL_BRIDGE: "with Catan for Two: where the free bridge owed to a neutral player "
                        "goes, after building a bridge",
    }

    def __init__(self) -> None:
        self.drawing = drawing  # an instance attribute: a plain function, not a method

    # `created`: the GameCreated fields being assembled, of every type (Module.create's Any).
    def create(self, created: dict[str, Any], params: None, dealer: Dealer) -> None:
        """The 2 joins the hex that received the 12 (rivers.board.tokens)."""
        laid = [(t.q, t.r, t.number) for t in created["tiles"]]
        twelve = next(((q, r) for q, r, n in laid if n == JOINED_TOKEN), None)
        if twelve is not None:
            created["setup"][layout.EXTRA_NUMBERS] = [*twelve, JOINING_TOKEN]

    def install(self, rules: Rules, params: None) -> None:
        vocab = rules.vocab
        vocab.add_terrain(SWAMP, desert=True)
        vocab.add_piece(PieceKind(BRIDGE, "edge", BRIDGES_PER_SEAT, route=True))
        rules.cost(BRIDGE, BRIDGE_COST)
        rules.module_state(RIVERS_STATE, init, view=view_ext)
        # Bridge sites and bridges (§7.3).
        rules.add_hook(hk.ROAD_BLOCKED, bridges.road_on_bridge_site)
        rules.handle(BuildBridge, bridges.build_bridge)
        rules.allow(MAIN, BuildBridge)
        rules.add_hook(hk.PHASE_REFUSAL, bridges.bridge_not_free)
        rules.add_hook(hk.EXTRA_OPTIONS, bridges.bridge_options)
        rules.evolve_with(BridgeBuilt, bridges.evolve_bridge)
        rules.derive((BridgeBuilt,), derive_longest_road)
        # Gold (§7.4) and the Settlers (§7.5).
        rules.derive((RoadBuilt, SettlementBuilt, BridgeBuilt), gold.derive_gold)
        rules.evolve_with(GoldEarned, gold.evolve_earned)
        rules.handle(BuyWithGold, gold.buy)
        rules.handle(SellForGold, gold.sell)
        rules.allow(MAIN, BuyWithGold, SellForGold)
        rules.add_hook(hk.EXTRA_OPTIONS, gold.gold_options)
        rules.evolve_with(GoldSpent, gold.evolve_spent)
        rules.evolve_with(ResourcesSoldForGold, gold.evolve_sold)
        rules.wrap_evolver(TurnEnded, gold.new_turn)
        install_gold(rules, gold.gold_of, "rivers.gold.domestic")
        rules.add_hook(hk.VP_BONUS, gold.settlers_vp)
        # A trade may move gold, and the Settlers follow the gold.
        rules.add_vp_events(GoldEarned, GoldSpent, TradeCompleted, BridgeBuilt)
        # Public and without chance: a table playing with undo may take them back.
        rules.reversible_events(BridgeBuilt, GoldEarned, GoldSpent, ResourcesSoldForGold)


MODULE = Rivers()
