"""The observation of one seat: a flat float32 vector (and the same numbers as a dict of
arrays), made from `view(state, seat)` alone, so it holds only what that seat may see.
docs/rl.md lists every section and feature.

Sections, in order (`Layout.sections`):

* `hexes` (hex id x features): terrain one-hot, number tokens one-hot (2..12), pips, the
  robber, `selected` (a hex named by the command being built), then module channels;
* `vertices`: a settlement and a city per seat slot (4 + 4), the harbor kind (3:1 and the
  five 2:1), `selected`, module channels;
* `edges`: a road per seat slot, `selected`, module channels;
* `players` (4 seat slots x 9 + the ruleset's piece kinds): present, to act, public VP, cards,
  development cards, knights played, road length, Longest Road, Largest Army, pieces left by
  kind;
* `me`: own hand, own development cards by kind, own total VP;
* `game`: bank, deck, turn, last roll, VP target, the open domestic offer;
* `decision`: the prompt's stage, cards left to discard, and the command being built over
  several actions (its type, the items, seat and value chosen so far);
* `ext`: the modules' numbers (bots/env/module_features.py).

Seat slots are relative: slot 0 is the observing seat, slot k the seat k places after it, so
a policy plays every seat alike. Counts are divided by a rough maximum (values stay small; a
few may pass 1, and victory points may be negative, in The Rivers of Catan)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bots.env.board import PIECE_ORDER, BoardInfo
from bots.env.features import SEAT_SLOTS, Feature, Out, lookup
from bots.env.module_features import EXT_KEYS, features
from events.prompts import View
from events.types import RESOURCES
from services.rules.engine import MODULES

if TYPE_CHECKING:
    from bots.env.actions import ActionSpace
    from bots.env.decision import Decision

TERRAINS = ("desert", "hills", "forest", "pasture", "fields", "mountains", "sea", "lake",
            "swamp", "oasis", "castle", "quarry", "glassworks", "gold", "oil_spring", "other")
HARBORS = ("3:1", *RESOURCES)
PIECES = PIECE_ORDER  # the base game's three first (`BoardInfo.pieces`: a ruleset's kinds)
DEV_CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly",
             "swift_journey", "toolmaking", "glassmaking", "quarry", "other")
# A players row: present, to act, public VP, cards, development cards, Knights played, road
# length, Longest Road, Largest Army, then the pieces left by kind.
PLAYER_SCALES = [1.0, 1.0, 1 / 10, 1 / 10, 1 / 5, 1 / 5, 1 / 10, 1.0, 1.0]  # then 1/15 a kind
KNOWN_DEV_CARDS = DEV_CARDS[:-1]  # all but `other`
ZEROS = (0,) * 64  # defaults for `map(dict.get, keys, ZEROS)` (longer than any key list)
DEV_INDEX = {name: i for i, name in enumerate(DEV_CARDS)}
BASE_STAGES = ("setup_settlement", "setup_road", "roll", "discard", "robber", "main",
               "road_building", "trade", "trade_answer")
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
VALUE_SLOTS = 20  # the largest choice or count domain (a camel bid: 0..19)
ITEM_SLOTS = 6  # the most items a multiset slot has (resources: 5, fish values: 3)

HEX_BASE = len(TERRAINS) + 11 + 3  # terrain, numbers 2..12, pips, robber, selected
VERTEX_BASE = 2 * SEAT_SLOTS + len(HARBORS) + 1
EDGE_BASE = SEAT_SLOTS + 1
PLAYER = 9  # a players row's numbers before the pieces left, one per kind of the ruleset


def me_width(resources: int) -> int:
    return resources + len(DEV_CARDS) + 1


def game_width(resources: int) -> int:
    """bank, deck, turn, last roll (11), VP target, then the offer: open, proposer (4), give,
    get, made to me, accepted by (4)."""
    return resources + 1 + 1 + 11 + 1 + (1 + SEAT_SLOTS + 2 * resources + 1 + SEAT_SLOTS)


@dataclass(frozen=True)
class Section:
    name: str
    start: int
    rows: int  # 1 for the flat sections
    width: int

    @property
    def stop(self) -> int:
        return self.start + self.rows * self.width


class Layout:
    """Where every feature sits, for one set of modules on one map topology."""

    def __init__(self, modules: Sequence[str], sizes: dict[str, int], space: ActionSpace,
                 pieces: Sequence[str] = PIECES[:3]) -> None:
        self.modules = tuple(sorted(set(modules)))
        self.pieces = tuple(pieces)  # the kinds of piece a seat may have left
        self.module_features: list[tuple[str, Feature]] = [
            (EXT_KEYS.get(m, m), f) for m in self.modules for f in features(m)]
        channels = {"hex": HEX_BASE, "vertex": VERTEX_BASE, "edge": EDGE_BASE}
        for _, f in self.module_features:
            if f.kind:
                f.board = (0, 0, channels[f.kind])  # base and stride once sections are known
                channels[f.kind] += f.channels
        self.resources = space.vocab.resources
        self.stages = BASE_STAGES + tuple(
            s for m in self.modules for s in sorted(MODULES[m].stages) if m in MODULES)
        self.commands = len(space.entries)
        decision = len(self.stages) + 2 + self.commands + ITEM_SLOTS + SEAT_SLOTS + 1 + VALUE_SLOTS + 1
        ext = sum(f.columns for _, f in self.module_features)
        shapes = [("hexes", sizes["hex"], channels["hex"]),
                  ("vertices", sizes["vertex"], channels["vertex"]),
                  ("edges", sizes["edge"], channels["edge"]),
                  ("players", SEAT_SLOTS, PLAYER + len(self.pieces)),
                  ("me", 1, me_width(len(self.resources))),
                  ("game", 1, game_width(len(self.resources))),
                  ("decision", 1, decision), ("ext", 1, ext)]
        self.sections: dict[str, Section] = {}
        start = 0
        for name, rows, width in shapes:
            self.sections[name] = Section(name, start, rows, width)
            start += rows * width
        self.size = start
        col = self.sections["ext"].start
        kinds = {"hex": "hexes", "vertex": "vertices", "edge": "edges"}
        for _, f in self.module_features:
            if f.kind:
                sec = self.sections[kinds[f.kind]]
                f.board = (sec.start, sec.width, f.board[2])
            else:
                f.col = col
                col += f.columns


class Encoder:
    """Observations of one layout; `static` caches each game's fixed board features."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.buffer = np.zeros(layout.size, dtype=np.float32)
        # Per board (by identity: a game's BoardInfo lives as long as the game is observed).
        self._static: dict[int, tuple[BoardInfo, np.ndarray]] = {}
        s = layout.sections
        self.hex, self.vertex, self.edge = s["hexes"], s["vertices"], s["edges"]
        self.players, self.me, self.game = s["players"], s["me"], s["game"]
        self.decision = s["decision"]
        self.stage_index = {name: i for i, name in enumerate(layout.stages)}
        k = len(layout.resources)
        # What divides each number of each row of `_dense` (players, me, the game's first
        # numbers), and the rows of an empty seat slot and of no view of one's own.
        player = np.array(PLAYER_SCALES + [1 / 15] * len(layout.pieces), np.float32)
        self.row_scales = [player] * SEAT_SLOTS + [
            np.array([*[1 / 10] * k, *[1 / 5] * len(DEV_CARDS), 1 / 10], np.float32),
            np.array([*[1 / 19] * k, 1 / 25, 1 / 100], np.float32)]  # the bank, deck, turn
        self.scales = np.concatenate(self.row_scales)
        self.numbers_stop = self.players.start + len(self.scales)  # the rest: `encode`
        self.no_player: tuple[float, ...] = (0,) * (PLAYER + len(layout.pieces))
        self.no_me: tuple[float, ...] = (0,) * me_width(k)
        # Per observing seat: (its board, the seats' pieces, the board with them): `_pieces`.
        self._last: dict[int, tuple[BoardInfo, list[Any], np.ndarray]] = {}
        self.robber_at = self.hex.start + len(TERRAINS) + 12

    def static(self, view: View, board: BoardInfo) -> np.ndarray:
        """The features that never change in a game (terrain, numbers, harbors)."""
        got = self._static.get(id(board))
        if got is not None and got[0] is board:
            return got[1]
        out = np.zeros(self.layout.size, dtype=np.float32)
        hx, vx = self.hex, self.vertex
        terrain_index = {t: i for i, t in enumerate(TERRAINS)}
        for h, (terrain, numbers) in enumerate(zip(board.terrain, board.numbers, strict=True)):
            row = hx.start + h * hx.width
            out[row + terrain_index.get(terrain, len(TERRAINS) - 1)] = 1
            for n in numbers:
                if 2 <= n <= 12:
                    out[row + len(TERRAINS) + n - 2] = 1
            out[row + len(TERRAINS) + 11] = sum(PIPS.get(n, 0) for n in numbers) / 5
        for v, kind in enumerate(board.harbor):
            if kind in HARBORS:
                out[vx.start + v * vx.width + 2 * SEAT_SLOTS + HARBORS.index(kind)] = 1
        if len(self._static) > 64:  # a bot serves many games: keep the recent ones
            self._static.clear()
        self._static[id(board)] = (board, out)
        return out

    def encode(self, view: View, board: BoardInfo, decision: Decision | None) -> np.ndarray:
        """The flat observation (a new array). `decision`: the prompt being answered by this
        seat, if it is this seat's turn to act."""
        me = view.seat if view.seat is not None else 0
        n = len(view.players)
        obs = self._pieces(view, board, me, n).copy()
        if view.robber >= 0:
            obs[self.robber_at + view.robber * self.hex.width] = 1.0
        obs[self.players.start:self.numbers_stop] = self._numbers(view, me, n)
        game = self.game.start + len(self.layout.resources)  # past the bank: deck, turn, …
        if 2 <= view.last_roll <= 12:
            obs[game + 2 + view.last_roll - 2] = 1.0
        obs[game + 13] = view.vp_target / 10
        out = Out(me, n)
        if view.trade is not None:
            self._trade(view, game + 14, out)
        if decision is not None:
            self._decision(decision, obs, out)
        for key, f in self.layout.module_features:
            data = view.ext.get(key)
            if data is not None:
                f.emit(lookup(data, f.path), out)
        ones, idx, vals = out.ones, out.idx, out.vals
        if ones:  # numpy reads typed arrays faster than lists of Python numbers
            obs[np.fromiter(ones, np.intp, len(ones))] = 1.0
        if idx:
            obs[np.fromiter(idx, np.intp, len(idx))] = np.fromiter(vals, np.float32, len(vals))
        return obs

    def _numbers(self, view: View, me: int, n: int) -> np.ndarray:
        """The `players`, `me` and `game` sections, scaled: their numbers gathered in one list
        and read by numpy at once (its reading of Python numbers costs per number, and once
        per call besides)."""
        r = self._dense(view, me, n)
        flat = [*r[0], *r[1], *r[2], *r[3], *r[4], *r[5]]  # players, me, bank, deck, turn
        numbers = np.fromiter(flat, np.float32, len(flat))
        numbers *= self.scales
        return numbers

    def _dense(self, view: View, me: int, n: int) -> list[tuple[float, ...]]:
        """The rows of the `players` (4) and `me` sections and the game's bank, deck and turn,
        as raw numbers in order (`row_scales` divides them)."""
        # `map(d.get, keys, zeros)` reads a dict's values in key order at C speed.
        rows = [self.no_player] * SEAT_SLOTS
        current, longest, largest = view.current, view.longest_road, view.largest_army
        kinds = self.layout.pieces
        mine = None
        for p in view.players:
            seat = p.seat
            rows[(seat - me) % n] = (
                1, seat == current, p.public_vp, p.cards, p.dev_cards, p.knights,
                p.road_length, seat == longest, seat == largest,
                *map(p.pieces_left.get, kinds, ZEROS))
            if seat == me:
                mine = p
        names = self.layout.resources
        ext_resources = view.ext.get("resources") if len(names) > len(RESOURCES) else None
        if mine is None:
            rows.append(self.no_me)
        else:
            hand = mine.hand or {}
            if ext_resources:
                extra = ext_resources.get("hands") or {}
                hand = {**(extra.get(me) or extra.get(str(me)) or {}), **hand}
            dev = mine.dev_hand or {}
            other = sum(k for card, k in dev.items() if card not in DEV_INDEX) if dev else 0
            rows.append((*map(hand.get, names, ZEROS), *map(dev.get, KNOWN_DEV_CARDS, ZEROS),
                         other, mine.vp or 0))
        bank = view.bank
        if ext_resources:
            bank = {**(ext_resources.get("bank") or {}), **bank}
        rows.append((*map(bank.get, names, ZEROS), view.dev_deck, min(view.turn, 1000)))
        return rows

    def _trade(self, view: View, at: int, out: Out) -> None:
        """The open offer: open, the proposer's slot, give and get by resource, made to this
        seat, and the slots of the seats that accepted or countered."""
        t = view.trade
        assert t is not None
        names, put = self.layout.resources, out.put
        k = len(names)
        out.ones.append(at)
        out.ones.append(at + 1 + out.rel(t.proposer))
        for i, r in enumerate(names):
            put(at + 1 + SEAT_SLOTS + i, t.give.get(r, 0) / 5)
            put(at + 1 + SEAT_SLOTS + k + i, t.get.get(r, 0) / 5)
        at += 1 + SEAT_SLOTS + 2 * k
        if out.me in t.to:
            out.ones.append(at)
        for seat, answer in t.answers.items():
            if answer == "accept" or isinstance(answer, dict):
                out.ones.append(at + 1 + out.rel(int(seat)))

    def _pieces(self, view: View, board: BoardInfo, me: int, n: int) -> np.ndarray:
        """The fixed board with the seats' pieces on it, as `me` sees it: made again only
        when a piece was placed, moved or removed (most steps build nothing)."""
        pieces = [(p.settlements, p.cities, p.roads) for p in view.players]
        last = self._last.get(me)
        if last is not None and last[0] is board and last[1] == pieces:
            return last[2]
        vx, ex = self.vertex, self.edge
        vstart, vw, estart, ew = vx.start, vx.width, ex.start, ex.width
        ones: list[int] = []
        for p in view.players:
            rel = (p.seat - me) % n
            ones.extend([vstart + v * vw + rel for v in p.settlements])
            ones.extend([vstart + v * vw + SEAT_SLOTS + rel for v in p.cities])
            ones.extend([estart + e * ew + rel for e in p.roads])
        array = self.static(view, board).copy()
        array[ones] = 1.0
        self._last[me] = (board, pieces, array)
        return array

    def _decision(self, decision: Decision, obs: np.ndarray, out: Out) -> None:
        base, ones = self.decision.start, out.ones
        stage = self.stage_index.get(decision.prompt.stage)
        if stage is not None:
            obs[base + stage] = 1.0
        at = base + len(self.layout.stages)
        obs[at] = 1.0  # this seat acts
        left = decision.cards_left()
        if left:
            obs[at + 1] = left / 10
        if not decision.prefix:
            return
        at += 2
        entry = decision.building()
        if entry is not None:
            ones.append(at + entry)
        at += self.layout.commands
        hx, vx, ex = self.hex, self.vertex, self.edge
        rows = {"hex": (hx, len(TERRAINS) + 13), "vertex": (vx, VERTEX_BASE - 1),
                "edge": (ex, EDGE_BASE - 1)}
        items = [0] * ITEM_SLOTS
        for kind, value in decision.chosen():
            if kind == "item":
                items[min(value, ITEM_SLOTS - 1)] += 1
            elif kind in rows:
                sec, channel = rows[kind]
                ones.append(sec.start + value * sec.width + channel)
            elif kind == "seat":
                ones.append(at + ITEM_SLOTS + min(value, SEAT_SLOTS))
            elif kind == "supply":
                ones.append(at + ITEM_SLOTS + SEAT_SLOTS + 1 + VALUE_SLOTS)
            else:
                ones.append(at + ITEM_SLOTS + SEAT_SLOTS + 1 + min(value, VALUE_SLOTS - 1))
        for i, k in enumerate(items):
            out.put(at + i, k / 5)
