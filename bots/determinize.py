"""A whole engine state from one seat's view: the public part copied, the hidden part dealt.

A bot served over Redis gets views, not the log, so it cannot keep a `BeliefTracker`. What its
view says is still enough for a uniform belief: the resource cards no one can see are the
supply less the bank and the seat's own hand, and they are exactly the cards the other seats
hold (conservation), so dealing them at random over the others' counts is a draw from the belief
"any hand with these counts, equally likely". Development cards likewise: the deck's makeup less
the seat's own cards and the knights on the table, dealt over the others' card counts and the
deck (a few cards may be missing from that pool: progress cards played earlier, which the view
does not list; they are left out at random).

Only a game without modules is rebuilt (a module's state lives in `ext` that a view redacts in
its own way); `StateFromViewError` says why, and the bot then plays its heuristic.
"""

from __future__ import annotations

import random

from events.commands import PlayKnight, PlayMonopoly, PlayRoadBuilding, PlayYearOfPlenty
from events.events import GameCreated
from events.prompts import Prompt, View
from services.rules.engine import initial_state
from services.rules.engine.pieces import add_harbor
from services.rules.engine.state import CITY, NO_ONE, ROLL, SETTLEMENT, State

PLAYS = (PlayKnight, PlayMonopoly, PlayRoadBuilding, PlayYearOfPlenty)


class StateFromViewError(ValueError):
    """This view cannot be rebuilt into a state (a module's game)."""


def created_from_view(view: View) -> GameCreated:
    if view.ext:
        raise StateFromViewError(f"the view has module parts ({', '.join(sorted(view.ext))})")
    return GameCreated(game_id=view.game_id, ruleset="base", modules=(), seats=len(view.players),
                       names=tuple(p.name for p in view.players), map="base", tiles=view.tiles,
                       harbors=view.harbors, robber=None, seed_sha256="")


class ViewDeterminizer:
    """Rebuilds states of one game from its views; the board and ruleset are built once."""

    def __init__(self, view: View) -> None:
        self.game_id = view.game_id
        self.base = initial_state(created_from_view(view))

    def sample(self, view: View, prompt: Prompt, rng: random.Random) -> State:
        if view.seat is None:
            raise StateFromViewError("a spectator's view has no seat")
        me = view.seat
        s = self.base.copy()
        vocab = s.rules.vocab
        n = len(view.players)
        s.version = view.version
        s.phase = view.phase
        s.current = view.current
        s.turn = view.turn
        s.last_roll = view.last_roll
        s.robber = view.robber
        s.rolled = view.phase != ROLL
        s.dev_played = not any(isinstance(o, PLAYS) for o in prompt.options)
        s.bank = vocab.vector(view.bank)
        s.vp_target = view.vp_target
        s.discards = [0] * n
        s.free_roads = 0
        s.trade = None
        for pv in view.players:
            p = s.players[pv.seat]
            p.knights = pv.knights
            p.road_length = pv.road_length
            p.roads = set(pv.roads)
            p.settlements = set(pv.settlements)
            p.cities = set(pv.cities)
            for e in pv.roads:
                s.edge_owner[e] = pv.seat
            for v, level in [(v, SETTLEMENT) for v in pv.settlements] + [(v, CITY) for v in pv.cities]:
                s.vertex_owner[v] = pv.seat
                s.vertex_level[v] = level
                kind = s.board.vertex_harbor[v]
                if kind is not None:
                    add_harbor(s, p.ratios, kind)
        s.longest_holder = NO_ONE if view.longest_road is None else view.longest_road
        s.longest_length = 0 if view.longest_road is None else view.players[view.longest_road].road_length
        s.army_holder = NO_ONE if view.largest_army is None else view.largest_army
        mine = view.players[me]
        s.players[me].hand = vocab.vector(mine.hand or {})
        my_dev = [0] * len(vocab.dev_cards)
        for name, k in (mine.dev_hand or {}).items():
            my_dev[vocab.dev_index[name]] = k
        s.players[me].dev = my_dev
        self._deal_resources(s, view, me, rng)
        self._deal_cards(s, view, me, my_dev, rng)
        return s

    def _deal_resources(self, s: State, view: View, me: int, rng: random.Random) -> None:
        vocab = s.rules.vocab
        supply = list(vocab.bank)
        unseen = [supply[r] - s.bank[r] - s.players[me].hand[r] for r in range(len(supply))]
        pool = [r for r, k in enumerate(unseen) for _ in range(max(0, k))]
        rng.shuffle(pool)
        for pv in view.players:
            if pv.seat == me:
                continue
            hand = [0] * len(supply)
            for r in pool[: pv.cards]:
                hand[r] += 1
            del pool[: pv.cards]
            s.players[pv.seat].hand = hand

    def _deal_cards(self, s: State, view: View, me: int, my_dev: list[int],
                    rng: random.Random) -> None:
        vocab = s.rules.vocab
        deck = list(s.rules.cache.dev_deck)
        knight = vocab.dev_index.get("knight")
        played_knights = sum(p.knights for p in view.players)
        unseen = [deck[c] - my_dev[c] - (played_knights if c == knight else 0)
                  for c in range(len(deck))]
        pool = [c for c, k in enumerate(unseen) for _ in range(max(0, k))]
        rng.shuffle(pool)
        for pv in view.players:
            if pv.seat == me:
                continue
            dev = [0] * len(deck)
            for c in pool[: pv.dev_cards]:
                dev[c] += 1
            del pool[: pv.dev_cards]
            s.players[pv.seat].dev = dev
        rest = [0] * len(deck)
        for c in pool[: view.dev_deck]:
            rest[c] += 1
        s.deck = rest
