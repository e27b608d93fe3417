"""The compiled build's dice draw in C (services/rules/engine/_hmac_draw.c) gives the numbers
the Python reference gives: HMAC-SHA256(seed, key), its first 8 bytes big endian, modulo n.
Every roll, card and steal of an audited game is re-derived from the revealed seed by that
formula, so one differing draw would make a recorded game fail its audit.

Collected where the engine is compiled (`compiled_only`, tests/conftest.py); CI's compiled
pass requires it. The whole games agree too: tests/engine/test_compiled_build.py.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from services.rules.engine import chance
from services.rules.engine.chance import DICE_OUTCOMES, DICE_WEIGHTS, SeededDealer

pytestmark = pytest.mark.compiled_only
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def native() -> ModuleType:
    """The C module (imported here: the interpreted checkout collecting this file has none)."""
    from services.rules.engine import _hmac_draw

    return _hmac_draw


def reference(seed: bytes, key: str, n: int) -> int:
    """The audit's formula, with the standard library's HMAC."""
    return int.from_bytes(hmac.digest(seed, key.encode(), "sha256")[:8], "big") % n


def padded(seed: bytes) -> bytes:
    return (seed if len(seed) <= 64 else hashlib.sha256(seed).digest()).ljust(64, b"\0")


def test_the_dealer_draws_in_c_in_the_compiled_build(native: ModuleType) -> None:
    assert chance._NATIVE is not None
    assert native.BACKEND in ("sha-ni", "portable")


@pytest.mark.parametrize("portable", [True, False], ids=["portable", "chosen-at-import"])
def test_sha256_matches_hashlib_at_every_padding_length(
    native: ModuleType, portable: bool
) -> None:
    """0 to 300 bytes: every place the padding can fall (one block or two, a key over 55)."""
    rng = random.Random(7)
    for length in range(301):
        data = rng.randbytes(length)
        assert native.sha256(data, portable) == hashlib.sha256(data).digest(), length


def test_uniform_matches_the_reference_for_any_seed_key_and_n(native: ModuleType) -> None:
    rng = random.Random(11)
    alphabet = "dice:steal-0123456789éλ€😀"  # keys are UTF-8 encoded, as str.encode does
    for _ in range(2000):
        seed = rng.randbytes(rng.randrange(1, 160))  # longer than a block: hashed first
        states = native.states(padded(seed))
        key = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 140)))
        for n in (1, 2, 25, 36, 2**63 - 1, 2**63, 2**64 + 3, 10**30, -7):
            assert native.uniform(states, key, n) == reference(seed, key, n), (seed, key, n)


def test_the_seeded_dealer_draws_what_the_audit_recomputes() -> None:
    for seed in (b"x", b"bench:0:1", os.urandom(64), os.urandom(100)):
        dealer = SeededDealer(seed)
        for k in range(200):
            key = f"dice:{k}"
            assert dealer.uniform(key, 36) == reference(seed, key, 36)
            assert dealer.pick(key, DICE_OUTCOMES, DICE_WEIGHTS) == DICE_OUTCOMES[
                reference(seed, key, 36)]
            x = reference(seed, f"card:{k}", 7)  # weights 2, 0, 5: x < 2 is "a", else "c"
            assert dealer.pick(f"card:{k}", "abc", (2, 0, 5)) == ("a" if x < 2 else "c")


def test_bad_arguments_are_refused_as_python_would(native: ModuleType) -> None:
    states = native.states(padded(b"seed"))
    with pytest.raises(ZeroDivisionError):
        native.uniform(states, "dice:0", 0)
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate cannot be encoded, as in Python
        native.uniform(states, "\ud800", 36)
    with pytest.raises(ValueError, match="64 bytes"):
        native.uniform(b"short", "dice:0", 36)
    with pytest.raises(TypeError):
        native.uniform(states, b"dice:0", 36)
    with pytest.raises(ValueError, match="64-byte"):
        native.states(b"short")


def test_the_interpreted_build_runs_the_python_draw() -> None:
    """HEXLOG_ENGINE=interpreted ignores the compiled modules, the C draw included."""
    code = ("from services.rules.engine import chance\n"
            "from services.rules.build import engine_build\n"
            "print(engine_build(), chance._NATIVE)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "HEXLOG_ENGINE": "interpreted"}, check=True)
    assert out.stdout.split() == ["interpreted", "None"]
