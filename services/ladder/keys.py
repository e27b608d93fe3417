"""The ladder's Redis keys, ids and names.

Everything lives under `hexlog:ladder:` (no hash tag: each key is a slot of its own on a
Cluster, and no call touches two of them at once; every change of a record is a WATCH/MULTI
on its one key). Two Redis users write here (services/runtime/acl.py): the matchmaker
(`ladder`: pods, absence, the ladder's settings) and the gateway (`gateway`: registrations,
readiness, streams seen open, games started). Neither key holds a game's credential: the
gateway keeps those under its own `hexlog:gw:ladder:` (services/gateway/ladder_starter.py),
which the matchmaker cannot read; so is a duplicate set's seed, drawn by the gateway that
creates the set's first game. Nothing under `hexlog:ladder:` is a game's secret.

Ladder games are ordinary games of the log: ids `lad-…`, every seat controlled by
`human:ladder` (the rules service writes their prompts to a stream nobody reads, which the
matchmaker trims; the gateway computes each seat's prompt from the log, as for any human
seat), the bots' names as the seats' names. That, and nothing the ladder keeps, is what the
ratings are computed from (projection.py).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid

from services.store.keys import PREFIX

LADDER = f"{PREFIX}:ladder"
CONFIG = f"{LADDER}:config"  # string: the running ladder's settings (config.LadderConfig, JSON)
BOTS = f"{LADDER}:bots"  # sorted set: bot id -> registration time (s)
READY = f"{LADDER}:ready"  # sorted set: bot id -> when it said ready (ms)
SEEN = f"{LADDER}:seen"  # sorted set: bot id -> the last time a gateway saw its stream open (ms)
GAMES = f"{LADDER}:games"  # sorted set: every ladder game id -> created (ms)
LIVE = f"{LADDER}:live"  # sorted set: games pending or running -> created (ms)
FINISHED = f"{LADDER}:finished"  # sorted set: finished games -> finished (ms), the newest kept
PODS = f"{LADDER}:pods"  # stream, group `gateways`: pods whose games a gateway is to create
NEWS = f"{LADDER}:news"  # stream (capped): a game started or finished, a bot absent or revoked
LEADER = f"{LADDER}:leader"  # string with a TTL: the matchmaker that forms pods now
CURSORS = f"{LADDER}:cursors"  # hash: partition -> the last feed entry the matchmaker read
MISSES = f"{LADDER}:misses"  # hash: bot id -> deadlines missed in a row
ROTATION = f"{LADDER}:rotation"  # string: the rule set the next round of matchmaking starts at

PODS_GROUP = "gateways"
NEWS_KEPT = 10_000
FINISHED_KEPT = 5_000
BOT_GAMES_KEPT = 500

CONTROLLER = "human:ladder"  # every ladder seat's controller (prompts: nobody reads them)
GAME_PREFIX = "lad-"

BOT_ID = re.compile(r"b-[0-9a-f]{12}")
GAME_ID = re.compile(r"lad-[0-9a-f]{12}")
BOT_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{2,31}$"  # like a Lichess user name: 3 to 32
TOKEN_PREFIX = "hxb_"  # a prefix secret scanners can look for


def new_bot_id() -> str:
    return f"b-{uuid.uuid4().hex[:12]}"


def new_game_id() -> str:
    return f"{GAME_PREFIX}{uuid.uuid4().hex[:12]}"


def new_set_id() -> str:
    return f"set-{uuid.uuid4().hex[:12]}"


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def is_bot_id(text: str) -> bool:
    return BOT_ID.fullmatch(text) is not None


def is_ladder_game(game_id: str) -> bool:
    """Whether `game_id` is one the ladder issues (anything else names no ladder game and
    never reaches a key)."""
    return GAME_ID.fullmatch(game_id) is not None


def token_hash(token: str) -> str:
    """Tokens are stored by their SHA-256 only."""
    return hashlib.sha256(token.encode()).hexdigest()


def bot_key(bot_id: str) -> str:
    """A bot's record (records.BotRecord, JSON)."""
    return f"{LADDER}:bot:{bot_id}"


def bot_games_key(bot_id: str) -> str:
    """A bot's games (sorted set: game id -> created ms), its newest BOT_GAMES_KEPT."""
    return f"{LADDER}:bot:{bot_id}:games"


def name_key(name: str) -> str:
    """A bot name, taken for good (case does not make another name): -> the bot id."""
    return f"{LADDER}:name:{name.lower()}"


def token_key(token: str) -> str:
    """A bot token (by its hash) -> the bot id."""
    return f"{LADDER}:tok:{token_hash(token)}"


def game_key(game_id: str) -> str:
    """A ladder game's record (records.LadderGame, JSON)."""
    return f"{LADDER}:game:{game_id}"


def registrations_key(client: str) -> str:
    """An address's registrations of the last day (sorted set: bot id -> time), its quota."""
    return f"{LADDER}:reg:{client}"


# The ratings, kept by the projector (projection.py) under the projections' prefix.
RESULTS = f"{PREFIX}:proj:ladder:results"  # hash: game id -> its result (JSON)
BOARDS = f"{PREFIX}:proj:ladder:boards"  # hash: board ("overall", a rule set) -> rows (JSON)
