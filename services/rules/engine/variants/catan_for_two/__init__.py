"""Variant: Catan for Two (docs/rules/catan-for-two.md §5, rules 1–8). Two seats, 10 VP.

Two neutral colours block the board, the active player rolls twice per turn, builds a free
neutral road/settlement after each road/settlement of their own, and spends trade tokens on a
forced trade or on sending the robber to the desert.

Design notes:
- Neutrals are board-only owners: `Player` objects appended to `state.players` at ids n, n+1
  (2 and 3) by this module's ext init, from `GameCreated.setup["catan-for-two.neutrals"]` (their
  start vertices, decided with the layout: rule 1). `state.n` stays 2, so turns, trades,
  scores and victory only ever see the seats; the base treats owners >= n generically: they
  never produce or get robbed, discards/monopoly/views are per seat, while the board checks
  (distance rule, road connection, longest road, which may go to a neutral) cover every owner
  because they read `vertex_owner`/`edge_owner`. Views list the seats in `players` and the
  neutrals' pieces in `ext["catan-for-two"]["neutrals"]`; `longest_road` may name a neutral id.
- Two rolls (rule 8) = the wrapped `RollDice` handler plus the `roll_resolved` hook (called by
  the base when a roll's production, or a 7's discards and robber, is over): after the first it
  goes back to the ROLL phase, after the second on to MAIN. The first roll is the ruleset's
  `roll` hook (dice, or what a module puts instead); the second is `second_roll`, which re-rolls
  a repeated total with `DiceRerolled` events (no effect). Nothing else reads `step`/`first`,
  so the rule of a pair replaces the second step only, by providing `SECOND_ROLL`: with
  event-cards a second card draw (docs/rules/event-cards.md §3 DECISION;
  engine/combinations/catan_for_two_event_cards.py). The handler (not the `roll` hook) is
  wrapped because event-cards *replaces* the `roll` hook: so the module order does not matter.
- What other modules build on is offered as capabilities (capabilities.py): the neutral
  owners and the owed neutral piece (`NEUTRAL_OWNERS`), the trade tokens (`TRADE_TOKENS`).
- Neutral building (rule 5): the BuildRoad/BuildSettlement handlers are wrapped to append
  `NeutralBuildRequired` when some neutral piece fits (checked on the board *after* the build);
  the phase `catan_for_two.neutral` then lists every legal neutral piece, and the neutral piece
  is placed by the base piece evolvers (free), so longest road and road cutting stay the base's.
  Road Building's free roads are roads built, so each owes a neutral road too (DECISION).
  Set-up placements owe nothing (official text: after set-up each neutral has 1 settlement).
- Tokens (rules 2, 3, 4, 6, 7) live in `state.ext["catan-for-two"]` (public). One token action
  per turn, in MAIN (i.e. after both rolls). A forced trade draws at chance keys
  "forcedtrade:<n>:<i>" and waits in phase `catan_for_two.give_back` for the 2 cards back.
"""

from __future__ import annotations

from typing import Any

from services.rules.engine.board import Board
from services.rules.engine.capabilities import NEUTRAL_OWNERS, TRADE_TOKENS
from services.rules.engine.chance import Dealer
from services.rules.engine.ruleset import Module
from services.rules.engine.state import Rules, State
from services.rules.engine.variants.catan_for_two import neutrals, rolls, tokens
from services.rules.engine.variants.catan_for_two.advice import ADVICE
from services.rules.engine.variants.catan_for_two.capabilities import NEUTRALS, TOKENS
from services.rules.engine.variants.catan_for_two.common import (
    EXT,
    GIVE_BACK,
    NEUTRAL,
    SETUP_KEY,
    TWO,
    TwoState,
)
from services.rules.engine.variants.catan_for_two.narration import NARRATION
from services.rules.engine.variants.catan_for_two.neutrals import init, start_vertices
from services.rules.engine.variants.catan_for_two.view import view_ext

__all__ = ["EXT", "GIVE_BACK", "MODULE", "NEUTRAL", "TwoState"]


# --- the module -----------------------------------------------------------------------------


class CatanForTwo(Module[State, None]):
    name = "catan-for-two"
    title = "Catan for Two"
    description = ("Two players: two neutral colours, two rolls per turn, neutral building, "
                   "trade tokens (forced trade, robber to the desert).")
    seats = (2,)
    advice = ADVICE
    narration = NARRATION
    stages = {
        NEUTRAL: "the free road or settlement owed to a neutral player after building one: "
                 "which neutral, and where",
        GIVE_BACK: "a forced trade's end: the 2 cards the active seat gives back",
    }

    def create(self, created: dict[str, Any], params: None, dealer: Dealer) -> None:
        board = Board(created["tiles"], created["harbors"])
        created["setup"][SETUP_KEY] = start_vertices(board)

    def install(self, rules: Rules, params: None) -> None:
        rules.module_state(TWO, init, view=view_ext)
        rolls.install(rules)
        neutrals.install(rules)
        tokens.install(rules)
        rules.provide(NEUTRAL_OWNERS, NEUTRALS)
        rules.provide(TRADE_TOKENS, TOKENS)


MODULE = CatanForTwo()
