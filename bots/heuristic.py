"""The heuristic bot: greedy, with a board sense (pips, resource variety, harbors).

Priorities in its own turn: city > settlement > development card > road toward a free site >
maritime trade that brings a goal closer > end turn. It robs the leader's best hex, discards
what it needs least and accepts offers that turn surplus into something it lacks. Deterministic
for a given seed, so tournaments replay exactly.

It knows the base game only. Whatever a rule module adds, the bot asks the module's advice
(`engine.advice`, `Module.advice`) at three points: a stage it does not know, first thing in
its main stage, and after its buildings; it never tests which variant is played.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from events.commands import (
    AcceptTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    Command,
    DiscardResources,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    PlaceRoad,
    PlaceSettlement,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RejectTrade,
    RollDice,
)
from events.prompts import Prompt, View
from events.types import RESOURCE_INDEX, bundle_to_vector, vector_to_bundle
from services.rules.engine.advice import Advice
from services.rules.engine.board import Board
from services.rules.engine.modules import advice_for, map_packages
from services.rules.engine.views import board_of

C = TypeVar("C", bound=Command)

PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
COSTS = {
    "city": (0, 0, 0, 2, 3),
    "settlement": (1, 1, 1, 1, 0),
    "development_card": (0, 0, 1, 1, 1),
    "road": (1, 1, 0, 0, 0),
}


class HeuristicBot:
    name = "heuristic"
    needs_view = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._boards: dict[str, Board] = {}
        self.advisors: list[Advice] = advice_for()

    def advice(self, view: View, prompt: Prompt, point: str) -> Command | None:
        """The first advice a module gives at this point (`stage`, `first`, `after_buildings`)."""
        for advisor in self.advisors:
            command: Command | None = getattr(advisor, point)(view, prompt, self)
            if command is not None:
                return command
        return None

    def goal(self, hand: list[int]) -> tuple[int, ...]:
        """What this hand saves for: a city with 3 ore and grain, else a settlement."""
        return COSTS["city"] if hand[3] + hand[4] >= 3 else COSTS["settlement"]

    # --- board sense ------------------------------------------------------------------------

    def board(self, view: View) -> Board:
        b = self._boards.get(view.game_id)
        if b is None:
            b = board_of(view, map_packages())  # a scenario's map and terrains too
            self._boards = {view.game_id: b}  # one game at a time per seat is the common case
        return b

    def vertex_value(self, board: Board, v: int, hand_income: list[float] | None = None) -> float:
        income = [0.0] * 5
        for h in board.topo.vertex_land_hexes[v]:
            r = board.hex_resource[h]
            if r >= 0:
                income[r] += PIPS.get(board.hex_number[h], 0)
        value = sum(income) + 1.5 * sum(1 for x in income if x > 0)
        # Ore and grain build cities; brick and lumber build roads early on.
        value += 0.4 * (income[3] + income[4])
        if board.vertex_harbor[v] is not None:
            value += 1.0
        if hand_income is not None:
            value += 0.5 * sum(1 for r in range(5) if income[r] and not hand_income[r])
        return value

    def my_income(self, board: Board, view: View, seat: int) -> list[float]:
        income = [0.0] * 5
        me = view.players[seat]
        for v, mult in [(v, 1) for v in me.settlements] + [(v, 2) for v in me.cities]:
            for h in board.topo.vertex_land_hexes[v]:
                r = board.hex_resource[h]
                if r >= 0:
                    income[r] += mult * PIPS.get(board.hex_number[h], 0)
        return income

    # --- choosing ---------------------------------------------------------------------------

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        assert view is not None
        stage = prompt.stage
        if stage == "setup_settlement":
            return self.best_settlement(view, prompt)
        if stage == "setup_road":
            return self.best_road(view, prompt, setup=True)
        if stage == "roll":
            return self.roll_phase(view, prompt)
        if stage == "discard":
            return self.discard(view, prompt)
        if stage == "robber":
            return self.robber(view, prompt)
        if stage == "main":
            return self.main(view, prompt)
        if stage == "road_building":
            return self.best_road(view, prompt, setup=False)
        if stage == "trade_answer":
            return self.answer_trade(view, prompt)
        return self.advice(view, prompt, "stage") or prompt.default

    def of(self, prompt: Prompt, kind: type[C]) -> list[C]:
        return [o for o in prompt.options if isinstance(o, kind)]

    def best_settlement(self, view: View, prompt: Prompt) -> Command:
        board = self.board(view)
        income = self.my_income(board, view, prompt.seat)
        options: list[PlaceSettlement | BuildSettlement] = [
            *self.of(prompt, PlaceSettlement), *self.of(prompt, BuildSettlement)
        ]
        if not options:
            return prompt.default
        return max(options, key=lambda o: (self.vertex_value(board, o.vertex, income), -o.vertex))

    def best_road(self, view: View, prompt: Prompt, setup: bool) -> Command:
        board = self.board(view)
        options: list[PlaceRoad | BuildRoad] = [*self.of(prompt, PlaceRoad), *self.of(prompt, BuildRoad)]
        if not options:
            return prompt.default
        taken = {v for p in view.players for v in p.settlements + p.cities}
        blocked = taken | {u for v in taken for u in board.topo.vertex_neighbours[v]}

        def reach(o: Any) -> float:
            best = 0.0
            for v in board.topo.edge_vertices[o.edge]:
                for u in (v, *board.topo.vertex_neighbours[v]):
                    if u not in blocked and board.topo.vertex_is_land[u]:
                        best = max(best, self.vertex_value(board, u) - (0 if u == v else 1))
            return best

        return max(options, key=lambda o: (reach(o), -o.edge))

    def roll_phase(self, view: View, prompt: Prompt) -> Command:
        knights = self.of(prompt, PlayKnight)
        if knights and self.robber_hurts_me(view, prompt.seat):
            return knights[0]
        return RollDice(seat=prompt.seat)

    def robber_hurts_me(self, view: View, seat: int) -> bool:
        board = self.board(view)
        if view.robber < 0:
            return False
        mine = set(view.players[seat].settlements) | set(view.players[seat].cities)
        return any(v in mine for v in board.topo.hex_vertices[view.robber])

    def discard(self, view: View, prompt: Prompt) -> Command:
        hand = bundle_to_vector(prompt.hand or {})
        keep_for = self.goal(hand)
        out = [0] * 5
        for _ in range(prompt.discard):
            # Drop the card with the largest surplus over what the next build needs.
            r = max(range(5), key=lambda i: (hand[i] - keep_for[i] if hand[i] else -99, -i))
            hand[r] -= 1
            out[r] += 1
        return DiscardResources(seat=prompt.seat, resources=vector_to_bundle(out))

    def robber(self, view: View, prompt: Prompt) -> Command:
        board = self.board(view)
        owner: dict[int, tuple[int, int]] = {}
        for p in view.players:
            for v in p.settlements:
                owner[v] = (p.seat, 1)
            for v in p.cities:
                owner[v] = (p.seat, 2)
        leader = max(
            (p for p in view.players if p.seat != prompt.seat), key=lambda p: (p.public_vp, p.cards)
        ).seat

        def value(o: MoveRobber) -> tuple[float, int]:
            if o.hex < 0:  # off the board (a scenario's "desert"): harms nobody
                return 0.0, 1
            pips = PIPS.get(board.hex_number[o.hex], 0)
            score = 0.0
            for v in board.topo.hex_vertices[o.hex]:
                if v in owner:
                    s, mult = owner[v]
                    weight = 1.5 if s == leader else 1.0
                    score += (-3.0 if s == prompt.seat else weight) * mult * pips
            if o.victim is not None:
                score += 0.3 * view.players[o.victim].cards
            return score, -o.hex

        options = self.of(prompt, MoveRobber)
        return max(options, key=value) if options else prompt.default

    def main(self, view: View, prompt: Prompt) -> Command:
        seat = prompt.seat
        board = self.board(view)
        # A module's move first (Catan for Two: a token action, then build with what it brought).
        first = self.advice(view, prompt, "first")
        if first is not None:
            return first
        cities = self.of(prompt, BuildCity)
        if cities:
            return max(cities, key=lambda o: (self.vertex_value(board, o.vertex), -o.vertex))
        settlements = self.of(prompt, BuildSettlement)
        if settlements:
            return self.best_settlement(view, prompt)
        advised = self.advice(view, prompt, "after_buildings")  # Event Cards: mend a road
        if advised is not None:
            return advised
        played = self.play_card(view, prompt)
        if played is not None:
            return played
        me = view.players[seat]
        hand = bundle_to_vector(me.hand or {})
        roads = self.of(prompt, BuildRoad)
        wants_road = roads and me.pieces_left["settlement"] > 0 and len(me.roads) < 13
        if self.of(prompt, BuyDevelopmentCard) and (hand[3] > 1 or hand[4] > 2 or not wants_road):
            return BuyDevelopmentCard(seat=seat)
        if wants_road:
            return self.best_road(view, prompt, setup=False)
        trade = self.useful_trade(prompt, hand)
        if trade is not None:
            return trade
        return EndTurn(seat=seat)

    def play_card(self, view: View, prompt: Prompt) -> Command | None:
        seat = prompt.seat
        if self.of(prompt, PlayKnight) and self.robber_hurts_me(view, seat):
            return PlayKnight(seat=seat)
        hand = bundle_to_vector(view.players[seat].hand or {})
        # The base five only: a module's resource (Oil Springs' oil) is its advice's business.
        yop = [o for o in self.of(prompt, PlayYearOfPlenty)
               if all(r in RESOURCE_INDEX for r in o.resources)]
        if yop:
            goal = COSTS["city"] if len(view.players[seat].settlements) else COSTS["settlement"]
            need = [max(0, goal[i] - hand[i]) for i in range(5)]
            return max(yop, key=lambda o: sum(min(need[RESOURCE_INDEX[r]], 1) for r in set(o.resources)))
        if self.of(prompt, PlayRoadBuilding) and view.players[seat].pieces_left["road"] >= 2:
            return PlayRoadBuilding(seat=seat)
        mono = [o for o in self.of(prompt, PlayMonopoly) if o.resource in RESOURCE_INDEX]
        if mono and view.turn % 3 == 0:
            return self.rng.choice(mono)
        return None

    def useful_trade(self, prompt: Prompt, hand: list[int]) -> Command | None:
        trades = self.of(prompt, MaritimeTrade)
        if not trades:
            return None
        for goal_name in ("city", "settlement", "development_card"):
            goal = COSTS[goal_name]
            need = [max(0, goal[i] - hand[i]) for i in range(5)]
            if sum(need) == 0 or sum(need) > 2:
                continue
            for t in trades:
                g, r = RESOURCE_INDEX[t.give], RESOURCE_INDEX[t.get]
                # Give only what the goal does not need, for something it does.
                if need[r] > 0 and hand[g] - goal[g] >= 2:
                    return t
        return None

    def answer_trade(self, view: View, prompt: Prompt) -> Command:
        accept = self.of(prompt, AcceptTrade)
        if not accept or view.trade is None:
            return RejectTrade(seat=prompt.seat)
        hand = bundle_to_vector(view.players[prompt.seat].hand or {})
        gets = bundle_to_vector(view.trade.give)
        gives = bundle_to_vector(view.trade.get)
        # Accept only if it gives at least as many cards, all from our surplus.
        surplus_ok = all(gives[i] == 0 or hand[i] - gives[i] >= 1 for i in range(5))
        leader = max(p.public_vp for p in view.players)
        proposer_leads = view.players[view.trade.proposer].public_vp == leader and leader >= 7
        if surplus_ok and sum(gets) >= sum(gives) and not proposer_leads:
            return accept[0]
        return RejectTrade(seat=prompt.seat)


