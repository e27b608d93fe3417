"""Redis key names for the event store (DESIGN.md "Redis layout", notes §A.4).

Every key of a game carries the hash tag of its *partition*, `{p}` with p = crc32(game_id) % PARTITIONS (16)
as three digits, so one Lua script can touch a game's log, its meta, the idempotency key of a
command and the partition feed, and the same code runs on one server or on a Cluster (all keys of
a partition hash to one slot). P is fixed for ever: changing it would move every game.

Command ids are scoped by the *game's* partition (`cmd_key(game_id, command_id)`) because the
append script checks and writes the idempotency key in the same slot as the log.

The one exception is `GAMES_INDEX` (`hexlog:games`), a global sorted set of game ids. It is not
partition-tagged, so it is never touched inside a script: the store updates it right after
`create_game` (fine on a single server; on a Cluster it simply lives in its own slot).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

PARTITIONS = 16
PREFIX = "hexlog"
GAMES_INDEX = f"{PREFIX}:games"
COMMAND_TTL_SECONDS = 7 * 24 * 3600  # 604800: how long a command's outcome answers retries
RULES_GROUP = "rules"
MAX_ID_LENGTH = 200


def check_id(kind: str, value: str) -> str:
    """Refuse ids that would make odd keys: empty, huge, or with whitespace/control characters."""
    if not value or len(value) > MAX_ID_LENGTH or not value.isprintable() or " " in value:
        raise ValueError(f"bad {kind}: {value!r}")
    return value


def partition(game_id: str) -> int:
    return zlib.crc32(game_id.encode()) % PARTITIONS


def tag(p: int) -> str:
    """`hexlog:{017}`: the key prefix of partition p, with its Cluster hash tag."""
    if not 0 <= p < PARTITIONS:
        raise ValueError(f"partition out of range: {p}")
    return f"{PREFIX}:{{{p:03d}}}"


@dataclass(frozen=True, slots=True)
class GameKeys:
    """All per-game keys; built once per call site, all in the game's partition slot."""

    game_id: str
    partition: int
    ev: str  # stream, ids `<version>-0`: the log, source of truth
    meta: str  # hash: version, status, ruleset, seed_sha256, created_at
    snap: str  # hash: version, schema, rules_version, state (a cache)
    rulings: str  # stream: rejected commands, for the mover and auditors
    prompts: str  # stream: prompts for seats
    feed: str  # partition stream: one entry per committed batch

    def cmd(self, command_id: str) -> str:
        return cmd_key(self.game_id, command_id)


def game_keys(game_id: str) -> GameKeys:
    check_id("game id", game_id)
    p = partition(game_id)
    base = f"{tag(p)}:g:{game_id}"
    return GameKeys(
        game_id=game_id,
        partition=p,
        ev=f"{base}:ev",
        meta=f"{base}:meta",
        snap=f"{base}:snap",
        rulings=f"{base}:rulings",
        prompts=f"{base}:prompts",
        feed=feed_key(p),
    )


def cmd_key(game_id: str, command_id: str) -> str:
    """String key holding a command's outcome (TTL COMMAND_TTL_SECONDS), in the game's slot."""
    check_id("command id", command_id)
    return f"{tag(partition(game_id))}:cmd:{command_id}"


def commands_key(p: int) -> str:
    """Inbound command stream of partition p; consumer group RULES_GROUP."""
    return f"{tag(p)}:cmds"


def dlq_key(p: int) -> str:
    """Poison commands of partition p."""
    return f"{tag(p)}:cmds:dlq"


def feed_key(p: int) -> str:
    """One entry per committed batch (game, from, to, cmd) for projections, bots and chat."""
    return f"{tag(p)}:feed"
