"""Redis key names for the event store (docs/design.md "Redis layout").

Every key of a game carries the hash tag of its *partition*, `{p}` with p = crc32(game_id) % PARTITIONS (16)
as three digits, so one Lua script can touch a game's log, its meta, the idempotency key of a
command and the partition feed, and the same code runs on one server or on a Cluster (all keys of
a partition hash to one slot). P is fixed for ever: changing it would move every game.

A command's outcome (its idempotency record) is a field of the game's outcomes hash, named by
the *scope* that sent it and its id (`outcome_field(scope, command_id)`): the scope is the seat
the command was authenticated as (`s0`, `s1`, … or `ref` for the referee), `org` for an
organiser's request (create) and `svc` for a move the service itself plays (deadline, forfeited
seat). So a sender can only ever occupy ids in its own scope: nobody can squat another seat's
next command id. One hash per game (not a key per command) because the append script checks and
writes it with the log, and because it can be expired in one step once the game is over.

Commands arrive on one stream per *source* and partition, each written by one Redis user only:
`hexlog:{p}:cmds` by organisers (the CLI, tournaments: game creation, forfeits, seats' moves
sent by a trusted client), `hexlog:{p}:cmds:gateway` by the HTTP gateway (the same kinds of
request, for its lobby's tables), and `hexlog:{p}:cmds:bot:<pool>` by that bot pool. A Redis
ACL cannot forbid an argument (`XADD … MAXLEN 0`, an explicit maximum id), so a writer may
trim, poison or flood a stream it may add to; each stream having one writer, that writer can
only ever spoil its own requests. The rules service owns the streams: it creates them with its
consumer group, and no other user may delete, set or expire them.

The one exception is `GAMES_INDEX` (`hexlog:games`), a global sorted set of game ids. It is not
partition-tagged, so it is never touched inside a script: the store updates it right after
`create_game` (fine on a single server; on a Cluster it simply lives in its own slot).
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from functools import lru_cache

PARTITIONS = 16
PREFIX = "hexlog"
GAMES_INDEX = f"{PREFIX}:games"
CONTROLLERS = f"{PREFIX}:controllers"  # set: every bot pool seated in a game (its cmds streams)
OUTCOMES_TTL_SECONDS = 3600  # how long a finished game's outcomes still answer retries
RULES_GROUP = "rules"
MAX_ID_LENGTH = 200


def check_id(kind: str, value: str) -> str:
    """Refuse ids that would make odd keys: empty, huge, or with whitespace/control characters."""
    if not value or len(value) > MAX_ID_LENGTH or not value.isprintable() or " " in value:
        raise ValueError(f"bad {kind}: {value!r}")
    return value


@lru_cache(maxsize=8192)  # asked several times for every command of the games in play
def partition(game_id: str) -> int:
    return zlib.crc32(game_id.encode()) % PARTITIONS


def tag(p: int) -> str:
    """`hexlog:{017}`: the key prefix of partition p, with its Cluster hash tag."""
    if not 0 <= p < PARTITIONS:
        raise ValueError(f"partition out of range: {p}")
    return _TAGS[p]


_TAGS = tuple(f"{PREFIX}:{{{p:03d}}}" for p in range(PARTITIONS))


@dataclass(frozen=True, slots=True)
class GameKeys:
    """All per-game keys; built once per call site, all in the game's partition slot."""

    game_id: str
    partition: int
    ev: str  # stream, ids `<version>-0`: the log, source of truth
    meta: str  # hash: version, status, ruleset, seed_sha256, created_at (no secrets)
    secret: str  # hash: seed, seat credentials, referee credential (the rules service's only)
    outcomes: str  # hash: `<scope>:<command id>` -> outcome (JSON); expires after the game
    snap: str  # hash: version, schema, rules_version, state (a cache)
    rulings: str  # stream: rejected commands, for the mover and auditors
    prompts: str  # stream: prompts for seats
    refused: str  # hash: per seat, how many answers were refused and the first reason
    feed: str  # partition stream: one entry per committed batch



# Every command of a game asks for its keys (the append, the prompt, the lock): kept for the
# games in play (the rules service holds at most 4,096 folded), ten strings built once each.
@lru_cache(maxsize=8192)
def game_keys(game_id: str) -> GameKeys:
    check_id("game id", game_id)
    p = partition(game_id)
    base = f"{tag(p)}:g:{game_id}"
    return GameKeys(
        game_id=game_id,
        partition=p,
        ev=f"{base}:ev",
        meta=f"{base}:meta",
        secret=f"{base}:secret",
        outcomes=f"{base}:outcomes",
        snap=f"{base}:snap",
        rulings=f"{base}:rulings",
        prompts=f"{base}:prompts",
        refused=f"{base}:refused",
        feed=feed_key(p),
    )


def outcome_field(scope: str, command_id: str) -> str:
    """The field of a game's outcomes hash that holds a command's outcome."""
    check_id("command id", command_id)
    if scope not in _SCOPES and not SCOPE.fullmatch(scope):
        raise ValueError(f"bad outcome scope: {scope!r}")
    return f"{scope}:{command_id}"


SCOPE = re.compile(r"s\d{1,2}|ref|org|svc")
ORGANISER = "org"  # the scope of create and forfeit requests
SERVICE = "svc"  # the scope of moves the service plays itself (deadlines, forfeited seats)
REFEREE_SCOPE = "ref"
_SCOPES = frozenset([ORGANISER, SERVICE, REFEREE_SCOPE, *(f"s{seat}" for seat in range(8))])


def seat_scope(seat: int) -> str:
    """The outcome scope of a command authenticated as `seat` (-1: the referee)."""
    return REFEREE_SCOPE if seat < 0 else f"s{seat}"


POOL = re.compile(r"bot:[A-Za-z0-9_.\-]{1,64}")


def check_pool(controller: str) -> str:
    """A bot pool's controller name (`bot:<name>`), or ValueError."""
    if not POOL.fullmatch(controller):
        raise ValueError(f"bad bot pool {controller!r} (bot:<letters, digits, _ . ->)")
    return controller


GATEWAY = "gateway"  # the command source of the HTTP gateway
REQUESTERS = ("", GATEWAY)  # sources whose streams may carry create and forfeit requests


@lru_cache(maxsize=4096)  # (partitions × sources: the organisers, the gateway, the pools)
@lru_cache(maxsize=4096)  # a bot worker asks for every answer: a few dozen keys in all
def commands_key(p: int, source: str = "") -> str:
    """Inbound command stream of partition p (consumer group RULES_GROUP) of one source: the
    organisers' ("" ), the gateway's (`GATEWAY`) or a bot pool's (`bot:<name>`)."""
    if not source:
        return f"{tag(p)}:cmds"
    if source == GATEWAY:
        return f"{tag(p)}:cmds:{GATEWAY}"
    return f"{tag(p)}:cmds:{check_pool(source)}"


def source_of_stream(stream: str) -> str:
    """The source a command stream belongs to ('' for the organisers' stream)."""
    _, _, rest = stream.partition("}:cmds")
    return rest[1:] if rest.startswith(":") else ""


@lru_cache(maxsize=4096)  # asked for every command read: a service reads a few dozen streams
def pool_of_stream(stream: str) -> str:
    """The bot pool a command stream belongs to ('' for a requester's stream)."""
    source = source_of_stream(stream)
    return source if source.startswith("bot:") else ""


def dlq_key(p: int) -> str:
    """Poison commands of partition p."""
    return f"{tag(p)}:cmds:dlq"


def feed_key(p: int) -> str:
    """One entry per committed batch (game, from, to, cmd) for projections, bots and chat."""
    return f"{tag(p)}:feed"
