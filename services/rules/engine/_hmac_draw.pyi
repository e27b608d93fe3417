"""The seeded dealer's HMAC-SHA256 draw in C (_hmac_draw.c): part of the compiled build only;
`chance.SeededDealer` uses it when it is there and its own Python otherwise (the same numbers)."""

BACKEND: str  # "sha-ni" (the CPU's SHA-256 instructions) or "portable"

def states(block: bytes, /) -> bytes:
    """The 64-byte padded HMAC key's inner and outer SHA-256 states, for `uniform`."""

def uniform(states: bytes, key: str, n: int, /) -> int:
    """HMAC-SHA256(seed, key)'s first 8 bytes as a big-endian integer, `% n`."""

def sha256(data: bytes, portable: bool, /) -> bytes:
    """SHA-256 of `data` through the portable code or the one chosen at import (for tests)."""
