"""What the heuristic bot should do in Barbarian Attack (bots ask `Module.advice`).

The base bot builds cities and settlements and saves for them; it knows nothing of knights,
barbarians or gold. The advice: after the buildings, spend gold on what the next build lacks
and buy development cards (knights are the scenario's engine); once nothing more is to be
built, march the knights where they win battles (more knights than barbarians on a hex, for
prisoners) or close in on barbarians that threaten our buildings; raise knights, relocate
and capture barbarians where our buildings are threatened; on a 7 draw from the fullest hand.
With Catan for Two the foreign knight marches last, where it helps our knights win.
"""

from __future__ import annotations

from events.barbarian_attack import (
    FOREIGN,
    FROM_SUPPLY,
    BeginMarch,
    BuyResourceWithGold,
    CaptureByIntrigue,
    ChooseSevenVictim,
    MarchForeignKnight,
    MarchKnight,
    RaiseKnight,
    RelocateByTreason,
)
from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    Command,
    EndTurn,
)
from events.prompts import Prompt, View
from events.types import RESOURCE_INDEX, bundle_to_vector
from services.rules.engine.advice import Advice, BotSense, offered
from services.rules.engine.board import Board
from services.rules.engine.mapdata import ENGINE_MAPS
from services.rules.engine.scenarios.barbarian_attack.common import CARD, EXT, FULL, STEAL
from services.rules.engine.scenarios.barbarian_attack.view import AttackView
from services.rules.engine.views import board_of

MAPS = "services.rules.engine.scenarios.barbarian_attack.maps"
BOOST_PRICE = 0.5


class Seen:
    """The scenario as one seat sees it: barbarians, knights, our buildings by hex."""

    def __init__(self, view: View, seat: int, board: Board) -> None:
        ext: AttackView = view.ext[EXT]
        self.board = board
        self.seat = seat
        self.coastal: list[int] = list(ext["coastal"])
        self.barbarians = {int(h): int(n) for h, n in ext["barbarians"]}
        self.knights: dict[int, int] = {int(e): s for s, edges in enumerate(ext["knights"])
                                        for e in edges}
        foreign = ext.get("foreign_knight")
        self.foreign: int | None = None if foreign is None else int(foreign)
        if self.foreign is not None:
            self.knights[self.foreign] = FOREIGN
        me = view.players[seat]
        topo = board.topo
        self.mine: dict[int, int] = {}  # hex -> our building levels on it
        self.theirs: dict[int, int] = {}
        for p in view.players:
            target = self.mine if p.seat == seat else self.theirs
            for v, level in [(v, 1) for v in p.settlements] + [(v, 2) for v in p.cities]:
                for h in topo.vertex_land_hexes[v]:
                    target[h] = target.get(h, 0) + level
        self.marching = bool(ext["marching"])
        self.me = me

    def hex_value(self, h: int, knights: dict[int, int]) -> float:
        """What the knights around coastal hex h are worth to us."""
        b = self.barbarians.get(h, 0)
        if b == 0:
            return 0.0
        sides = self.board.topo.hex_edges[h]
        around = [knights[e] for e in sides if e in knights]
        ours = around.count(self.seat)
        if not ours:
            return 0.0
        stake = 1.0 + self.mine.get(h, 0) + (2.0 if b >= FULL else 0.0)
        if len(around) > b:
            return 4.0 * b * ours / len(around) + stake  # a won battle: prisoners
        return 0.6 * ours * min(b, 2) * stake / (b + 1 - len(around) + 1)

    def value(self, knights: dict[int, int]) -> float:
        return sum(self.hex_value(h, knights) for h in self.coastal)

    def march_gain(self, o: MarchKnight) -> float:
        after = dict(self.knights)
        del after[o.source]
        after[o.target] = self.seat
        gain = self.value(after) - self.value(self.knights)
        # Drifting towards barbarians (a small pull), so a knight is near the next fight.
        gain += 0.05 * (self.near(o.target) - self.near(o.source))
        return gain - (BOOST_PRICE if o.boost else 0.0)

    def foreign_gain(self, o: MarchForeignKnight) -> float:
        """The foreign knight fights beside ours: what moving it adds to our knights' hexes."""
        if self.foreign is None:
            return 0.0
        after = dict(self.knights)
        del after[self.foreign]
        after[o.target] = FOREIGN
        return (self.value(after) - self.value(self.knights)
                + 0.05 * (self.near(o.target) - self.near(self.foreign)))

    def near(self, e: int) -> float:
        topo = self.board.topo
        hexes = {h for v in topo.edge_vertices[e] for h in topo.vertex_land_hexes[v]}
        return float(sum(self.barbarians.get(h, 0) * (1 + self.mine.get(h, 0)) for h in hexes))

    def edge_value(self, e: int) -> float:
        after = dict(self.knights)
        after[e] = self.seat
        return self.value(after) - self.value(self.knights) + 0.1 * self.near(e)

    def threat(self, h: int) -> float:
        return self.mine.get(h, 0) - 0.5 * self.theirs.get(h, 0)


class BarbarianAttackAdvice(Advice):
    def __init__(self) -> None:
        self._boards: dict[str, Board] = {}

    def seen(self, view: View, seat: int) -> Seen | None:
        if EXT not in view.ext:
            return None
        board = self._boards.get(view.game_id)
        if board is None:
            board = board_of(view, (ENGINE_MAPS, MAPS))
            self._boards = {view.game_id: board}
        return Seen(view, seat, board)

    def stage(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if prompt.stage == STEAL:
            victims = [o for o in prompt.options if isinstance(o, ChooseSevenVictim)]
            return max(victims, key=lambda o: (view.players[o.victim].cards,
                                               view.players[o.victim].public_vp, -o.victim))
        if prompt.stage != CARD:
            return None
        seen = self.seen(view, prompt.seat)
        if seen is None or not prompt.options:
            return None
        first = prompt.options[0]
        if isinstance(first, RaiseKnight):
            raise_options = [o for o in prompt.options if isinstance(o, RaiseKnight)]
            return max(raise_options, key=lambda o: (seen.edge_value(o.edge), -o.edge))
        if isinstance(first, CaptureByIntrigue):
            captures = [o for o in prompt.options if isinstance(o, CaptureByIntrigue)]
            return max(captures, key=lambda o: (
                seen.barbarians.get(o.hex, 0) >= FULL and seen.mine.get(o.hex, 0) > 0,
                seen.threat(o.hex), seen.barbarians.get(o.hex, 0), -o.hex))
        if isinstance(first, RelocateByTreason):
            moves = [o for o in prompt.options if isinstance(o, RelocateByTreason)]

            def gain(o: RelocateByTreason) -> tuple[float, int, int]:
                out = 0.0 if o.source == FROM_SUPPLY else seen.threat(o.source)
                return out - seen.threat(o.target), -o.source, -o.target

            return max(moves, key=gain)
        return None

    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        seen = self.seen(view, prompt.seat)
        if seen is None:
            return None
        marches = [o for o in prompt.options if isinstance(o, MarchKnight)]
        if seen.marching or (marches == [] and offered(prompt, MarchForeignKnight)):
            return self.march(seen, marches, prompt, forced=offered(prompt, EndTurn) is None)
        building = offered(prompt, BuildCity) or offered(prompt, BuildSettlement)
        if offered(prompt, EndTurn) is None and building is None:
            return offered(prompt, BeginMarch)  # a castle knight must leave
        return None

    def after_buildings(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        seen = self.seen(view, prompt.seat)
        if seen is None:
            return None
        hand = bundle_to_vector(view.players[prompt.seat].hand or {})
        buy = self.gold_buy(prompt, hand, sense.goal(hand))
        if buy is not None:
            return buy
        card = offered(prompt, BuyDevelopmentCard)
        if card is not None:
            return card
        if offered(prompt, BuildRoad) is not None and len(seen.me.roads) < 12:
            return None  # the bot's own road logic first
        return offered(prompt, BeginMarch)

    def march(self, seen: Seen, marches: list[MarchKnight], prompt: Prompt,
              forced: bool) -> Command | None:
        if marches:
            best = max(marches, key=lambda o: (seen.march_gain(o), -o.source, -o.target))
            if forced or seen.march_gain(best) > 0:
                return best
        foreign = [o for o in prompt.options if isinstance(o, MarchForeignKnight)]
        if foreign:  # it marches last: after ours are done
            move = max(foreign, key=lambda o: (seen.foreign_gain(o), -o.target))
            if forced or seen.foreign_gain(move) > 0:
                return move
        return offered(prompt, EndTurn) or (marches[0] if marches else None)

    def gold_buy(self, prompt: Prompt, hand: list[int], goal: tuple[int, ...]) -> Command | None:
        buys = [o for o in prompt.options if isinstance(o, BuyResourceWithGold)]
        missing = [max(0, g - h) for g, h in zip(goal, hand, strict=True)]
        if not buys or sum(missing) > 2:
            return None
        useful = [o for o in buys if missing[RESOURCE_INDEX[o.resource]] > 0]
        return max(useful, key=lambda o: missing[RESOURCE_INDEX[o.resource]]) if useful else None


ADVICE = BarbarianAttackAdvice()
