"""Scenario: Barbarian Attack (docs/rules/barbarian-attack.md §9). 2–4 seats, 12 VP.

Barbarians land on the coast whenever someone builds; three on a hex conquer it and the
buildings around it. Knights raised from the scenario's development deck march along the
paths and win battles at the end of the turn for prisoners (a VP per pair) and gold. No robber,
no Largest Army; the 7 is discards and a steal.

Design notes:
- Public module state in `state.ext["barbarian-attack"]` (common.AttackState): barbarians per
  hex, supply, prisoners, gold, the deck's counts and the turn's flags. Knights are a piece kind
  (`knight`, an edge piece beside whatever stands there) in `Player.pieces`; `Player.knights`
  counts those in play (no Knight card exists here, so Largest Army never arises; Event
  Cards' Conflict and Tournament read it: docs/rules/barbarian-attack.md §9.12).
- Conquest is read from the barbarian counts (common.py), never stored: production, road and
  settlement blockers and VP follow; harbor ratios are refreshed where barbarians move.
- Landings are a deriver after a build (landing.py); battles an `end_of_turn` step
  (battles.py); the card's choices and the 7's steal are phases of their own (deck.py,
  seven.py); the march closes trading and building (knights.py).
- Gold is the game's currency (engine/currency.py): trades between players name it.
- With another module, the rules of the pair live in engine/combinations/ (Catan for Two: the
  foreign knight's entry, the neutral settlement's landing, the token action, a lost knight's
  pay; Harbormaster: the card re-checked when barbarians move).
- Chance keys: `layout:terrain[:1]`, `layout:harbors`, `landing:<n>`, `devcard:<n>`,
  `prisoners:<n>`, `lossdie:<n>`, `steal:<n>` (docs/rules/chance-and-hidden-information.md §14.9).
"""

from __future__ import annotations

from collections.abc import Callable

from events.barbarian_attack import (
    ForeignKnightMarched,
    KnightMarched,
    MarchBegun,
    ResourceBoughtWithGold,
    ResourceSoldForGold,
)
from events.events import GameCreated, TurnEnded
from services.rules.engine import hook_keys as hk
from services.rules.engine.ruleset import Module, SetupRound
from services.rules.engine.scenarios.barbarian_attack import (
    battles,
    conquest,
    deck,
    gold,
    knights,
    landing,
    prompts,
    rule_ids,
    seven,
)
from services.rules.engine.scenarios.barbarian_attack.advice import ADVICE
from services.rules.engine.scenarios.barbarian_attack.common import (
    ATTACK,
    BARBARIANS,
    CARD,
    DECK,
    EXT,
    KNIGHTS,
    STARTS,
    STEAL,
    TARGET,
    attack,
    building_conquered,
)
from services.rules.engine.scenarios.barbarian_attack.drawing import drawing
from services.rules.engine.scenarios.barbarian_attack.narration import NARRATION
from services.rules.engine.scenarios.barbarian_attack.state import AttackState
from services.rules.engine.scenarios.barbarian_attack.view import view_ext
from services.rules.engine.state import Rules, State
from services.rules.engine.vocab import PieceKind

__all__ = ["EXT", "MODULE", "rule_ids"]

def init(state: State, created: GameCreated) -> AttackState:
    a = AttackState(barbarians=[0] * len(state.board.topo.hexes), prisoners=[0] * state.n,
                    gold=[0] * state.n, supply=BARBARIANS, deck=list(DECK))
    for h in STARTS:
        a.barbarians[state.board.hex_id(h)] += 1
        a.supply -= 1
    return a


def conquered_building(state: State, seat: int, v: int) -> bool:
    """`building_void`: a conquered building counts for nothing (§9.5)."""
    return building_conquered(state, v)


TurnEvolver = Callable[[State, TurnEnded], None]


def wrap_turn_ended(previous: TurnEvolver) -> TurnEvolver:
    """The turn's flags (march, moved knights, gold buys) start over with the next turn."""

    def evolve(state: State, e: TurnEnded) -> None:
        previous(state, e)
        a = attack(state)
        a.marching = False
        a.moved = []
        a.gold_buys = 0
        a.foreign_moved = False

    return evolve


class BarbarianAttack(Module[State, None]):
    name = "barbarian-attack"
    kind = "scenario"
    title = "Barbarian Attack"
    description = ("Barbarians land on the coast with every build and conquer hexes; knights "
                   "from a new development deck drive them off for prisoners and gold. 12 VP.")
    conflicts = {
        "friendly-robber": "no robber",
    }
    map = "barbarian-attack"
    maps = "services.rules.engine.scenarios.barbarian_attack.maps"
    advice = ADVICE
    narration = NARRATION
    stages = {
        CARD: "the choice the development card just drawn leaves: where its knight goes "
              "(Knighthood, Swift Knight), which barbarians move (Treason), which one is "
              "captured (Intrigue)",
        STEAL: "after a 7's discards: whom the roller draws a random card from",
    }
    drawing = staticmethod(drawing)

    def install(self, rules: Rules, params: None) -> None:
        vocab = rules.vocab
        vocab.add_terrain("castle")
        vocab.add_piece(PieceKind("knight", "edge", KNIGHTS))
        for card in vocab.dev_cards:  # the base deck is not used (§9.1)
            vocab.set_copies(card, 0)
        rules.settings(target=TARGET, setup=(SetupRound(), SetupRound(piece="city", resources=True)))
        rules.module_state(ATTACK, init, view=view_ext)
        rules.wrap_evolver(TurnEnded, wrap_turn_ended)
        # Public and without chance: an undo (table rule) may cross them.
        rules.reversible_events(*(MarchBegun, KnightMarched, ForeignKnightMarched,
                                 ResourceSoldForGold, ResourceBoughtWithGold))
        landing.install(rules)
        conquest.install(rules)
        deck.install(rules)
        gold.install(rules)
        seven.install(rules)
        battles.install(rules)
        knights.install(rules)  # after deck and gold: the march closes their commands
        prompts.install(rules)
        rules.add_hook(hk.BUILDING_VOID, conquered_building)  # a conquered building counts nothing


MODULE = BarbarianAttack()
