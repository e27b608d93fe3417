"""One prompt answered through the action space: the legal ids, and the command once the
chosen ids name one (most commands take one id; bots/env/actions.py says which take more).

The options of the prompt form a tree of their id paths: the legal ids are the next ids of
the options that agree with the ids chosen so far, and `done` where one option's path is
a prefix of another's. Once a single option agrees, it is played: the agent never picks a
forced id (the robber's `take` where nothing can be named, a knight's only target). Two prompts have no options and are made here:

* a discard (`prompt.discard` cards of `prompt.hand`): one card at a time, in resource order
  (a card of a kind before the ones chosen is not legal), each while enough cards are left;
* with `trade_offers`, the main stage's domestic offers: a menu of one card the seat holds for
  one card of another kind, to every seat, at most `offers` per turn."""

from __future__ import annotations

import numpy as np

from bots.env.actions import ActionSpace, Block, Path
from bots.env.slots import SEAT_DOMAIN
from events.commands import Command, DiscardResources, ProposeTrade
from events.prompts import Prompt
from events.types import Bundle

MAIN = "main"  # the stage whose prompt may carry an offer (`may_trade`)


class IllegalAction(ValueError):
    """An id that is not legal at this point of the decision."""


class Decision:
    def __init__(self, space: ActionSpace, prompt: Prompt, seats: int,
                 hand: Bundle | None = None, offer_menu: bool = False) -> None:
        self.space = space
        self.prompt = prompt
        self.me = prompt.seat
        self.seats = seats
        self.prefix: list[int] = []
        self._legal: list[int] | None = None  # of the current prefix
        self.unplayable: list[Command] = []  # options outside the space (left-out types)
        live: list[tuple[Path, Command]] = []
        paths, me = space.paths, self.me
        for option in prompt.options:
            fn = paths.get(type(option))
            if fn is None:
                self.unplayable.append(option)
            else:
                live.append((fn(option, me, seats), option))
        resources = space.vocab.resources
        if offer_menu and hand and prompt.may_trade and prompt.stage == MAIN:
            for give, k in hand.items():
                for get in resources:
                    if k > 0 and get != give:
                        offer = ProposeTrade(seat=self.me, give={give: 1}, get={get: 1})
                        live.append((space.path(offer, self.me, seats) or (), offer))
        self.live = live
        self._discard: Block | None = None
        self._hand: list[int] = []
        if prompt.discard and prompt.hand is not None and DiscardResources in space.steps:
            self._discard = space.steps[DiscardResources][0]
            self._hand = [prompt.hand.get(r, 0) for r in resources]

    # --- what may be played -----------------------------------------------------------------

    def legal(self) -> list[int]:
        if self._legal is None:
            self._legal = self._discard_legal() if self._discard is not None else self._next_ids()
        return self._legal

    def _next_ids(self) -> list[int]:
        k = len(self.prefix)
        if not k:  # the first id: every path has one
            return sorted({path[0] for path, _ in self.live})
        nxt: set[int] = set()
        exact = False
        for path, _ in self.live:
            if len(path) > k:
                nxt.add(path[k])
            else:
                exact = True
        if exact and nxt:
            nxt.add(self.space.block_of(self.prefix[-1]).done)
        return sorted(nxt)

    def mask(self) -> np.ndarray:
        out = self.space.no_actions.copy()
        legal = self.legal()
        if len(legal) == 1:  # the most common mask: a roll, a forced step
            out[legal[0]] = 1
        elif legal:
            out[np.fromiter(legal, np.intp, len(legal))] = 1
        return out

    def choose(self, action: int) -> Command | None:
        """Take one id; the command once it is complete, else None (more ids to come)."""
        self._legal = None
        if self._discard is not None:
            return self._discard_choose(action)
        k = len(self.prefix)
        onward = [(p, c) for p, c in self.live if len(p) > k and p[k] == action]
        if onward:
            self.prefix.append(action)
            self.live = onward
            if len(onward) == 1 or all(len(p) == k + 1 for p, _ in onward):
                return onward[0][1]  # one option left: the rest of its path is forced
            return None
        exact = [c for p, c in self.live if len(p) == k]
        if exact and k and action == self.space.block_of(self.prefix[-1]).done:
            return exact[0]
        raise IllegalAction(f"action {action} ({self.space.label(action)}) is not legal here")

    # --- what the observation shows of it ---------------------------------------------------

    def cards_left(self) -> int:
        return self.prompt.discard - len(self.prefix) if self._discard is not None else 0

    def building(self) -> int | None:
        """The catalogue index of the command type being built over several ids."""
        if not self.prefix:
            return None
        return self.space.command_index[self.space.block_of(self.prefix[0]).entry.command]

    def chosen(self) -> list[tuple[str, int]]:
        """The values chosen so far: (`vertex`|`edge`|`hex`, id), (`seat`, slot), (`supply`, 0),
        (`item`, index) or (`value`, index)."""
        out: list[tuple[str, int]] = []
        for action in self.prefix:
            block = self.space.block_of(action)
            i = action - block.offset
            if block.multiset:
                if i < block.sizes[0]:
                    out.append(("item", i))
                continue
            values = []
            for size in reversed(block.sizes):
                i, v = divmod(i, size)
                values.append(v)
            for slot, v in zip(block.slots, reversed(values), strict=True):
                if slot.kind in ("vertex", "edge", "hex"):
                    out.append((slot.kind, v))
                elif slot.kind == "hex_or_supply":
                    out.append(("supply", 0) if v == 0 else ("hex", v - 1))
                elif slot.kind == "seat":
                    out.append(("seat", v if v < SEAT_DOMAIN else SEAT_DOMAIN))
                else:
                    out.append(("value", v))
        return out

    # --- the discard ------------------------------------------------------------------------

    def _discard_legal(self) -> list[int]:
        block = self._discard
        assert block is not None
        left = self.prompt.discard - len(self.prefix)
        if left <= 0:
            return []
        first = self.prefix[-1] - block.offset if self.prefix else 0
        remaining = self._remaining()
        out = []
        for r in range(first, len(self._hand)):
            if remaining[r] > 0 and sum(remaining[r:]) >= left:
                out.append(block.offset + r)
        return out

    def _remaining(self) -> list[int]:
        block = self._discard
        assert block is not None
        remaining = self._hand[:]
        for a in self.prefix:
            remaining[a - block.offset] -= 1
        return remaining

    def _discard_choose(self, action: int) -> Command | None:
        if action not in self._discard_legal():
            raise IllegalAction(f"action {action} ({self.space.label(action)}) is not legal here")
        self.prefix.append(action)
        if len(self.prefix) < self.prompt.discard:
            return None
        block = self._discard
        assert block is not None
        picked = [0] * len(self._hand)
        for a in self.prefix:
            picked[a - block.offset] += 1
        names = self.space.vocab.resources
        cards: Bundle = {names[r]: k for r, k in enumerate(picked) if k}
        return DiscardResources(seat=self.me, resources=cards)
