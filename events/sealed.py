"""Sealed replies: a secret the rules service hands to one requester only.

A create request's outcome holds the game's credentials (each seat's and the referee's). The
outcome sits in the game's outcomes hash, which other roles read (a seat's move outcome is
what the gateway answers over HTTP), so the credentials travel sealed: the request carries a
fresh random `reply_key` (on the requester's own command stream, which only the rules service
reads, and which the service deletes once the request is handled), and the outcome carries the
credentials encrypted and authenticated with it (AES-256-GCM; the game and command ids are the
associated data, so a sealed reply cannot be moved to another request). Whoever can read the
outcome but never saw the request learns nothing.
"""

from __future__ import annotations

import base64
import os
import re
from typing import Any

import msgspec
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY_BYTES = 32
NONCE_BYTES = 12
KEY_PATTERN = re.compile(r"[0-9a-f]{64}")


class SealError(ValueError):
    """A sealed reply that does not open with this key (wrong key, or altered)."""


def new_reply_key() -> str:
    """A fresh reply key (hex), one per request."""
    return os.urandom(KEY_BYTES).hex()


def check_reply_key(key: str) -> bytes:
    """The key's bytes, or ValueError naming the field."""
    if not KEY_PATTERN.fullmatch(key):
        raise ValueError(f"reply_key: {2 * KEY_BYTES} lowercase hex digits expected (a fresh "
                         "random key per request: the credentials come back sealed with it)")
    return bytes.fromhex(key)


def _context(game_id: str, command_id: str) -> bytes:
    return f"hexlog-reply\0{game_id}\0{command_id}".encode()


def seal(key: str, game_id: str, command_id: str, payload: dict[str, Any]) -> str:
    """`payload` (JSON) encrypted for the holder of `key`: base64 of nonce + ciphertext."""
    nonce = os.urandom(NONCE_BYTES)
    body = AESGCM(check_reply_key(key)).encrypt(nonce, msgspec.json.encode(payload),
                                                _context(game_id, command_id))
    return base64.b64encode(nonce + body).decode()


def unseal(key: str, game_id: str, command_id: str, sealed: str) -> dict[str, Any]:
    """What `seal` sealed, or SealError."""
    try:
        raw = base64.b64decode(sealed, validate=True)
        plain = AESGCM(check_reply_key(key)).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:],
                                                     _context(game_id, command_id))
    except (ValueError, InvalidTag) as exc:
        raise SealError(f"the sealed reply of {command_id!r} does not open with this key") from exc
    out = msgspec.json.decode(plain)
    if not isinstance(out, dict):
        raise SealError("a sealed reply holds an object")
    return out
