"""How a command proves which seat sent it, without the seat's credential ever travelling.

Every seat (and the referee) has a secret credential, known to the rules service and to
whoever created the game. A command never carries it. Instead the command stream entry holds
the command body (`__data__`, JSON) and a `mac` field:

    key = HMAC-SHA256(credential, "<game_id>|<seat>|<version>")   # one key per seat and turn
    mac = hex(HMAC-SHA256(key, __data__))                          # over the exact bytes sent

`seat` is the seat number, or -1 for the referee; `version` is the command's
`expected_version` (0 for requests that are not moves, such as a forfeit). A prompt hands a
bot `key` for exactly the version it asks about, so a bot pool never holds a credential at all,
and a key read from an old prompt is useless once the game has moved on. A message copied
from a stream is useless too: the mac covers its command id, game, seat and version, and a
command id is answered once.

Any language can do this with its standard HMAC; `docs/protocol.md` shows it.
"""

from __future__ import annotations

import hashlib
import hmac

MAC_FIELD = "mac"


def turn_key(credential: str, game_id: str, seat: int, version: int) -> bytes:
    """The key that signs `seat`'s commands decided on `version` of `game_id`."""
    message = f"{game_id}|{seat}|{version}".encode()
    return hmac.digest(credential.encode(), message, hashlib.sha256)


def sign(key: bytes, body: bytes) -> str:
    """The `mac` field for a command body signed with a turn key."""
    # (one-shot `hmac.digest`: a third less time than `hmac.new(...).hexdigest()`, once per
    # command in the bot worker and in the rules service)
    return hmac.digest(key, body, hashlib.sha256).hex()


def verify(key: bytes, body: bytes, mac: str) -> bool:
    """Whether `mac` signs `body` with `key` (constant time)."""
    return hmac.compare_digest(sign(key, body), mac)
