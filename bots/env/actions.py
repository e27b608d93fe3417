"""The discrete action space of a game's modules and map: every playable command as one action
id, or as a short sequence of ids.

A command type (bots/env/catalogue.py) is played in *steps*, each a block of consecutive ids:

* its scalar slots, grouped in field order while a group's domain stays at most `MAX_BLOCK`
  values: one id per combination (`BuildRoad edge=17` and `MoveRobber hex=9 victim=+1` are
  one id each; `MarchKnight` is two steps, the source path, then the target path with the
  boost, since paths x paths would be 35k ids; the robber's `take`, a card named where Oil
  Springs lets the thief choose, is a step after the hex and victim);
* then each multiset slot (cards of a discard or a payment, fish tokens), one item per id in
  a canonical order (resources as in the game's vocabulary, tokens by value), with one more
  id in the block, `done`, for the rare multiset that is a prefix of another option's.

An option's *path* is its ids in order (a 1-id path for most). Ids: the block's offset plus the
mixed-radix index of the values, fields first to last (bots/env/slots.py for each kind's
index). The offsets follow the catalogue's fixed order, so an id means the same command in
every game of the same modules and map; `digest` names the space (a policy records it)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from bots.env.catalogue import Entry, entries
from bots.env.slots import SEAT_DOMAIN, Slot, SlotError, Vocabulary, pairs
from events.commands import Command

MAX_BLOCK = 512
Path = tuple[int, ...]
PathFn = Callable[[Command, int, int], Path]  # (command, acting seat, seats) -> ids


@dataclass(frozen=True)
class Block:
    """One step of a command type: ids `offset .. offset + size - 1`."""

    entry: Entry
    step: int
    slots: tuple[Slot, ...]
    sizes: tuple[int, ...]  # a scalar step's domain per slot; a multiset's item count
    offset: int

    @property
    def multiset(self) -> bool:
        return self.slots[0].multiset if self.slots else False

    @property
    def size(self) -> int:
        if self.multiset:
            return self.sizes[0] + 1  # the items, and `done`
        total = 1
        for s in self.sizes:
            total *= s
        return total

    @property
    def done(self) -> int:
        """The id that ends a multiset step early (see the module docstring)."""
        return self.offset + self.sizes[0]


def steps_of(entry: Entry, sizes: Mapping[str, int],
             vocab: Vocabulary) -> list[tuple[tuple[Slot, ...], tuple[int, ...]]]:
    """The slots of each step, with their domains (see the module docstring)."""
    scalars = [s for s in entry.slots if not s.multiset]
    out: list[tuple[tuple[Slot, ...], tuple[int, ...]]] = []
    group: list[Slot] = []
    product = 1
    for slot in scalars:
        size = slot.size(sizes, vocab)
        if group and product * size > MAX_BLOCK:
            out.append((tuple(group), tuple(s.size(sizes, vocab) for s in group)))
            group, product = [], 1
        group.append(slot)
        product *= size
    if group or not entry.slots:
        out.append((tuple(group), tuple(s.size(sizes, vocab) for s in group)))
    out.extend(((s,), (s.size(sizes, vocab),)) for s in entry.slots if s.multiset)
    return out


class ActionSpace:
    """The ids of one set of modules on one map topology (`sizes`: its vertex, edge and hex
    counts; `vocab`: its resources; both from a view, bots/env/board.py)."""

    def __init__(self, modules: Sequence[str], sizes: Mapping[str, int],
                 vocab: Vocabulary | None = None, trade_offers: bool = False) -> None:
        self.modules = tuple(sorted(set(modules)))
        self.sizes = dict(sizes)
        self.vocab = vocab = vocab or Vocabulary()
        self.trade_offers = trade_offers
        self.entries = entries(self.modules, trade_offers)
        self.blocks: list[Block] = []
        self.steps: dict[type[Command], list[Block]] = {}
        offset = 0
        for entry in self.entries:
            blocks = []
            for i, (slots, domain) in enumerate(steps_of(entry, self.sizes, vocab)):
                block = Block(entry, i, slots, domain, offset)
                blocks.append(block)
                offset += block.size
            self.steps[entry.command] = blocks
            self.blocks.extend(blocks)
        self.n = offset
        self.no_actions = np.zeros(offset, dtype=np.int8)  # a mask's start (copied)
        self._owner = [b for b in self.blocks for _ in range(b.size)]
        self.paths: dict[type[Command], PathFn] = {
            cls: _path_fn(blocks, vocab) for cls, blocks in self.steps.items()}
        self.command_index = {e.command: i for i, e in enumerate(self.entries)}
        self.digest = hashlib.sha256("\n".join(self.labels()).encode()).hexdigest()[:16]

    def path(self, command: Command, me: int, seats: int) -> Path | None:
        """The ids that play `command` for seat `me` of `seats`; None for a command outside
        the space (a left-out type, or a module this space was not made for)."""
        fn = self.paths.get(type(command))
        return None if fn is None else fn(command, me, seats)

    def block_of(self, action: int) -> Block:
        return self._owner[action]

    def label(self, action: int) -> str:
        """`BuildRoad edge=17`, `MoveRobber hex=9 victim=+1`, `DiscardResources resources+brick`."""
        block = self._owner[action]
        head = block.entry.name + (f"#{block.step + 1}" if len(self.steps[block.entry.command]) > 1 else "")
        i = action - block.offset
        if block.multiset:
            slot = block.slots[0]
            item = "done" if i == block.sizes[0] else str(slot.domain(self.vocab)[i])
            return f"{head} {slot.field}+{item}"
        parts = []
        for slot, size in reversed(list(zip(block.slots, block.sizes, strict=True))):
            i, v = divmod(i, size)
            parts.append(f"{slot.field}={_value_label(slot, v, self.vocab)}")
        return " ".join([head, *reversed(parts)])

    def labels(self) -> list[str]:
        return [self.label(a) for a in range(self.n)]


def _value_label(slot: Slot, v: int, vocab: Vocabulary) -> str:
    if slot.kind == "seat":
        return "none" if v == SEAT_DOMAIN else ("self" if v == 0 else f"+{v}")
    if slot.kind == "hex_or_supply":
        return "supply" if v == 0 else str(v - 1)
    if slot.kind == "pair":
        a, b = pairs(len(vocab.resources))[v]
        return f"{vocab.resources[a]}+{vocab.resources[b]}"
    if slot.kind in ("choice", "count", "resource", "one_card"):
        return str(slot.domain(vocab)[v])
    return str(v)


def _path_fn(blocks: list[Block], vocab: Vocabulary) -> PathFn:
    """The path of a command type, compiled into closures: this runs for every option of every
    prompt, so each block of scalars becomes one function of the command, and the common
    shapes (one or two scalar blocks) call them without a loop."""
    if all(not b.multiset for b in blocks):
        fns = [_block_fn(b, vocab) for b in blocks]
        if len(fns) == 1:
            (one,) = fns
            return lambda c, me, n: (one(c, me, n),)
        if len(fns) == 2:
            first, second = fns
            return lambda c, me, n: (first(c, me, n), second(c, me, n))
    plan = [(b.offset, b.slots[0] if b.multiset else None,
             None if b.multiset else _block_fn(b, vocab)) for b in blocks]

    def general(c: Command, me: int, n: int) -> Path:
        out: list[int] = []
        for offset, multiset, fn in plan:
            if multiset is not None:
                out.extend(offset + i for i in multiset.items(getattr(c, multiset.field), vocab))
            elif fn is not None:
                out.append(fn(c, me, n))
        if not out:  # a command of empty multisets alone: its first block's `done`
            out.append(blocks[0].done)
        return tuple(out)
    return general


BlockFn = Callable[[Command, int, int], int]


def _block_fn(block: Block, vocab: Vocabulary) -> BlockFn:
    """The id of a block of scalar slots: its offset plus the values' mixed-radix index."""
    offset, name = block.offset, block.entry.name
    if not block.slots:
        return lambda c, me, n: offset
    parts = [(attrgetter(s.field), None if s.kind in PLACES else s.indexer(vocab), size)
             for s, size in zip(block.slots, block.sizes, strict=True)]

    def index(part: tuple[Callable[[Command], object], Callable[[object, int, int], int] | None, int],
              c: Command, me: int, n: int) -> int:
        get, indexer, size = part
        i = get(c) if indexer is None else indexer(get(c), me, n)
        if not 0 <= i < size:  # type: ignore[operator]
            raise SlotError(f"{name}: index {i} of a slot not in 0..{size - 1}")
        return i  # type: ignore[return-value]

    if len(parts) == 1 and parts[0][1] is None:  # one board place: its id is its index
        get, _, size = parts[0]

        def place(c: Command, me: int, n: int) -> int:
            i: int = get(c)  # type: ignore[assignment]
            if not 0 <= i < size:
                raise SlotError(f"{name}: place {i} is off this map (0..{size - 1})")
            return offset + i
        return place
    if len(parts) == 1:
        (a,) = parts
        return lambda c, me, n: offset + index(a, c, me, n)
    if len(parts) == 2:
        a, b = parts
        width = b[2]
        return lambda c, me, n: offset + index(a, c, me, n) * width + index(b, c, me, n)

    def many(c: Command, me: int, n: int) -> int:
        i = 0
        for part in parts:
            i = i * part[2] + index(part, c, me, n)
        return offset + i
    return many


PLACES = ("vertex", "edge", "hex")  # slots whose value is its index
