"""Chance points and dealers (docs/design.md "Chance").

Every random outcome in a game is a *chance point*: a key naming what is drawn ("dice:17" = the
17th roll, "devcard:3" = the 3rd development card drawn, "steal:5", "layout:terrain:4") and its
outcomes with integer weights (so a search bot can sample or take expectations). A dealer picks
the outcome; `decide` writes it into an event and replay never draws again.

`SeededDealer` derives each outcome from HMAC-SHA256(seed, key): the k-th roll of a game is the
same whoever rolls it, which is what lets a duplicate tournament replay one seed with the seats
rotated. `ScriptedDealer` lets a test set up exact situations; `SamplingDealer` serves search.
"""

from __future__ import annotations

import hashlib
import importlib
import random
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from typing import Final, Protocol, TypeVar, cast

T = TypeVar("T")

DICE_OUTCOMES: Final[tuple[tuple[int, int], ...]] = tuple(
    (a, b) for a in range(1, 7) for b in range(1, 7)
)
# Not Final: `SeededDealer.pick` knows a roll by this object's identity, and the compiled build
# would inline a Final tuple as a separate constant in every module that names it.
DICE_WEIGHTS: tuple[int, ...] = (1,) * 36


class Dealer(Protocol):
    def pick(self, key: str, outcomes: Sequence[T], weights: Sequence[int]) -> T:
        """Choose one of `outcomes` (each with its integer weight > 0 where possible)."""
        ...

    def seed_hex(self) -> str:
        """The game's secret seed, revealed in `GameFinished` ("" if there is none)."""
        ...


class _Sha256(Protocol):
    def copy(self) -> _Sha256: ...
    def update(self, data: bytes, /) -> None: ...
    def digest(self) -> bytes: ...


def _fast_sha256() -> Callable[[bytes], _Sha256]:
    """CPython's own SHA-256 where the interpreter has it (`_sha2` from 3.12, `_sha256`
    before): the same digests as hashlib's OpenSSL one, but its `copy()` is a plain struct
    copy where OpenSSL allocates and wipes a context, which made a draw about 30 % slower."""
    for name in ("_sha2", "_sha256"):
        try:
            return cast(Callable[[bytes], _Sha256], importlib.import_module(name).sha256)
        except (ImportError, AttributeError):
            continue
    return cast(Callable[[bytes], _Sha256], hashlib.sha256)


_SHA256: Final = _fast_sha256()


NativeDraw = tuple[Callable[[bytes], bytes], Callable[[bytes, str, int], int]]


def _native_draw() -> NativeDraw | None:
    """The compiled build's draw in C (`_hmac_draw.c`: `states` and `uniform`), or None.

    A draw is two SHA-256 blocks either way; from Python it also pays for the hash objects'
    method calls and bytes around them, about as much again (benchmarks/compiled.md). The C
    gives the same numbers as `SeededDealer.uniform`'s Python (tests/engine/test_native_draw.py),
    which stays the reference and what the interpreted build runs."""
    try:
        from services.rules.engine._hmac_draw import states, uniform
    except ImportError:
        return None
    return states, uniform


_NATIVE: Final = _native_draw()


def weighted_index(x: int, weights: Sequence[int]) -> int:
    """Map a uniform integer x in [0, sum(weights)) to an outcome index."""
    for i, w in enumerate(weights):
        if x < w:
            return i
        x -= w
    raise ValueError("x out of range")


class SeededDealer:
    """Outcomes from HMAC(seed, key): reproducible, position-independent, auditable."""

    __slots__ = ("_seed", "_inner", "_outer", "_states", "_draw")

    def __init__(self, seed: bytes) -> None:
        if not seed:
            raise ValueError("a seed must not be empty")
        self._seed = seed
        # HMAC-SHA256 (RFC 2104) with the padded key hashed once: a draw then only copies the
        # two hash states and hashes its key. Same digests as `hmac.digest(seed, key,
        # "sha256")` (tests/engine/test_golden_logs.py checks), in about a third of the time.
        block = (seed if len(seed) <= 64 else hashlib.sha256(seed).digest()).ljust(64, b"\0")
        self._inner = _SHA256(bytes(b ^ 0x36 for b in block))
        self._outer = _SHA256(bytes(b ^ 0x5C for b in block))
        native = _NATIVE
        self._states = native[0](block) if native is not None else b""
        self._draw = native[1] if native is not None else None

    def uniform(self, key: str, n: int) -> int:
        draw = self._draw
        if draw is not None:  # the compiled build: the same computation in C
            return draw(self._states, key, n)
        inner = self._inner.copy()
        inner.update(key.encode())
        outer = self._outer.copy()
        outer.update(inner.digest())
        # 64 bits modulo a small n: bias below 2**-50, irrelevant for board games.
        return int.from_bytes(outer.digest()[:8], "big") % n

    def pick(self, key: str, outcomes: Sequence[T], weights: Sequence[int]) -> T:
        # The same outcome as `weighted_index`: the first whose running total exceeds x.
        if weights is DICE_WEIGHTS:  # every roll: 36 weights of 1, so outcome x is the x-th
            return outcomes[self.uniform(key, 36)]
        totals = list(accumulate(weights))
        if not totals or totals[-1] <= 0:
            raise ValueError(f"chance point {key!r} has no possible outcome")
        return outcomes[bisect_right(totals, self.uniform(key, totals[-1]))]

    def seed_hex(self) -> str:
        return self._seed.hex()


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class SamplingDealer:
    """Samples outcomes from a `random.Random`: for search bots and fuzzing, not for games."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, key: str, outcomes: Sequence[T], weights: Sequence[int]) -> T:
        return self.rng.choices(outcomes, weights=weights)[0]

    def seed_hex(self) -> str:
        return ""


class ScriptedDealer:
    """Outcomes given by a test: `{"dice": [(3, 4)], "steal": ["ore"]}` keyed by the part of
    the chance key before the first colon, consumed in order; anything unscripted falls back."""

    def __init__(
        self, script: Mapping[str, Sequence[object]], fallback: Dealer | None = None
    ) -> None:
        self.queues: dict[str, list[object]] = {k: list(v) for k, v in script.items()}
        self.fallback = fallback or SeededDealer(b"scripted")

    def pick(self, key: str, outcomes: Sequence[T], weights: Sequence[int]) -> T:
        kind = key.split(":", 1)[0]
        queue = self.queues.get(kind)
        if queue:
            wanted = queue.pop(0)
            for o, w in zip(outcomes, weights, strict=True):
                if o == wanted and w > 0:
                    return o
            raise ValueError(f"scripted outcome {wanted!r} is impossible at {key!r}")
        return self.fallback.pick(key, outcomes, weights)

    def seed_hex(self) -> str:
        return self.fallback.seed_hex()


def shuffled(dealer: Dealer, key: str, items: Sequence[T]) -> list[T]:
    """A Fisher–Yates shuffle whose i-th swap is the chance point `key:i`."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = dealer.pick(f"{key}:{i}", range(i + 1), (1,) * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out
