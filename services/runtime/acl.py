"""The Redis users hexlog's services run as: each gets the least it needs.

One source for `deploy/users.acl` (what an operator loads into a production server; a test
keeps the file equal to `users_acl()`) and for the users `hexlog` makes on its embedded server
(services/runtime/users.py).

Redis key patterns limit which keys a command may touch, not what a command returns, so each
role lists commands *with* their keys: a selector `(~pattern +cmd …)` grants those commands on
those keys only. That is what keeps a bot pool from XAUTOCLAIM-ing the command streams (which
hands over the entries' bodies) or creating groups on them, and from SET-ting a key it only
may add stream entries to.

| role | may | may not |
|---|---|---|
| rules | everything under `hexlog:`, scripts | administration (ACL, CONFIG, FLUSHALL, …), Pub/Sub (no channel) |
| organiser | add requests (create, forfeit, signed moves) to its own streams `hexlog:{p}:cmds`; read logs, meta, rulings, outcomes (credentials come sealed for the requester), standings; its tournament keys `hexlog:t:*` | read a game's secrets (seed, credentials) or another requester's sealed credentials; delete, set or expire any command stream; touch prompts or the gateway's keys; write logs |
| projections | read logs, meta, the game index; consume the feeds with their own group; write `hexlog:proj:*` | secrets, outcomes, prompts, commands; write a log or meta; move or destroy a group (XGROUP SETID/DESTROY) |
| gateway | add requests (create, forfeit, signed moves) to its own streams `hexlog:{p}:cmds:gateway`; read logs, meta, rulings, outcomes, deadlines, pools, the ladder's ratings; its lobby keys `hexlog:gw:*` (a ladder game's credentials too); the ladder's keys `hexlog:ladder:*` (registrations, readiness, the pods it makes games of) | read a game's secrets or another requester's sealed credentials, prompts (turn keys), any command stream; delete, set or expire a command stream; write logs, meta or tournament keys; scripts |
| ladder | the matchmaker (`hexlog serve ladder`): its own keys `hexlog:ladder:*` (pods, absence, settings); read the feeds, games' meta and the ladder's ratings; trim its seats' unread prompt streams `hexlog:{p}:prompts:human:ladder`; declare that controller (`hexlog:pool:human:ladder`) | any command stream (it creates no game: the gateway does), outcomes, secrets, logs, other prompts (turn keys), the gateway's keys (where a ladder game's credentials are) |
| bot pool `X` | add commands to its own streams `hexlog:{p}:cmds:bot:X`, read/ack/claim its own prompts, read why its answers were refused (`hexlog:{p}:refused:bot:X`), register itself, keep its heartbeat | anything else: other pools' prompts and commands, logs, meta, secrets, outcomes |
"""

from __future__ import annotations

from collections.abc import Iterable

from services.store.keys import GATEWAY, PREFIX, commands_key

ROLES = ("rules", "organiser", "projections", "gateway", "ladder")
# What any client needs to connect; the last three let a Redis Cluster client learn the slot
# map and the commands' key positions (harmless on a single server).
CONNECTION = ("+ping +hello +client|setname +client|id +client|info +info "
              "+cluster|slots +cluster|shards +command")


def pool_user(pool: str) -> str:
    """The Redis user of a bot pool (`random` → `bot-random`)."""
    return f"bot-{pool}"


def rules_for(role: str) -> str:
    """The ACL rules (everything after `user <name> on >password`) of a service role."""
    p = PREFIX
    if role == "rules":
        return f"~{p}:* +@all -@admin -@dangerous +info +script|load"
    if role == "organiser":
        return (f"{reads(ORGANISER_READS)} +@read -@dangerous {CONNECTION} "
                f"({own_commands('')}) "
                f"(~{p}:t:* +@read -@dangerous +set +rpush +lset +hset +del)")
    if role == "projections":
        return (f"{reads(('games', '{*}:g:*:ev', '{*}:g:*:meta', '{*}:g:*:refused'))} +@read "
                f"-@dangerous {CONNECTION} "
                f"({feed_selector()}) "
                f"(~{p}:proj:* +@read +@hash +@string +del +unlink +scan -@dangerous) "
                f"(~{p}:svc:projections:* ~{p}:alive:projections +set +get +del)")
    if role == "gateway":
        return (f"{reads(GATEWAY_READS)} +@read -@dangerous {CONNECTION} "
                f"({own_commands(GATEWAY)}) "
                f"(~{p}:gw:* +@read -@dangerous +set +del +zadd +zrem +zremrangebyscore +expire +watch "
                "+unwatch +multi +exec +discard) "
                f"(~{p}:ladder:* +@read -@dangerous +set +del +zadd +zrem +zremrangebyscore "
                "+zremrangebyrank +expire +hdel +xadd +xreadgroup +xack +xautoclaim "
                "+xgroup|create +watch +unwatch +multi +exec +discard)")
    if role == "ladder":
        return (f"{reads(LADDER_READS)} +@read -@dangerous {CONNECTION} "
                f"(~{p}:ladder:* +@read -@dangerous +set +del +pexpire +zadd +zrem "
                "+zremrangebyscore +zremrangebyrank +expire +hset +hdel +hincrby +xadd +watch "
                "+unwatch +multi +exec +discard) "
                f"(~{p}:pool:human:ladder +hset) "
                f"(~{p}:{{*}}:prompts:human:ladder +xtrim) "
                f"(~{p}:svc:ladder:* ~{p}:alive:ladder +set +get +del)")
    raise ValueError(f"unknown role {role!r} (roles: {', '.join(ROLES)}, or a bot pool)")


# What each requester may read (besides its own keys): logs, meta and rulings of every game,
# outcomes (a move's outcome answers its sender; a creation's credentials are sealed for its
# requester only: events/sealed.py), heartbeats and pools.
ORGANISER_READS = ("games", "{*}:g:*:ev", "{*}:g:*:meta", "{*}:g:*:rulings", "{*}:g:*:outcomes",
                   "{*}:g:*:refused", "{*}:feed", "pool:*", "alive:*", "svc:*", "proj:*", "stats:*")
GATEWAY_READS = ("games", "{*}:g:*:ev", "{*}:g:*:meta", "{*}:g:*:rulings", "{*}:g:*:outcomes",
                 "{*}:g:*:refused", "{*}:deadlines", "pool:*", "alive:*", "proj:ladder:*")
# The matchmaker reads which games finished (meta), who missed a deadline (the feeds: the
# command ids of the batches), the ratings it matches by, and who is alive.
LADDER_READS = ("{*}:feed", "{*}:g:*:meta", "proj:ladder:*", "alive:*")


def reads(patterns: Iterable[str]) -> str:
    return " ".join(f"%R~{PREFIX}:{k}" for k in patterns)


def own_commands(source: str) -> str:
    """A selector's rules: add entries to this source's own command streams, nothing else (no
    DEL, SET or EXPIRE of them; XADD's MAXLEN and explicit ids can only spoil its own)."""
    return f"%W~{commands_key_pattern(source)} +xadd"


def commands_key_pattern(source: str) -> str:
    """The key pattern of a source's command streams in every partition."""
    return commands_key(0, source).replace("{000}", "{*}")


def feed_selector() -> str:
    """The projections' consumer group on the feeds: read, acknowledge, take over what a dead
    projector left, make the group. Not SETID or DESTROY (no group's position is theirs to
    move; the feed has no other group: whoever else follows it reads with XREAD)."""
    return (f"~{PREFIX}:{{*}}:feed +xreadgroup +xread +xrange +xrevrange +xlen +xack "
            "+xautoclaim +xgroup|create +xpending +xinfo|groups")


def pool_rules(*pools: str) -> str:
    """The ACL rules of a bot worker serving `pools`: their command streams (add only), their
    prompts. One selector covers all the pools' prompt streams, because a command must be
    allowed whole by one selector, and a worker reads every pool's prompts in one XREADGROUP."""
    p = PREFIX

    def keys(pattern: str) -> str:
        return " ".join(f"~{p}:{pattern.format(pool=pool)}" for pool in pools)

    commands = " ".join(f"%W~{commands_key_pattern(f'bot:{pool}')}" for pool in pools)
    return (f"{commands} +xadd "
            f"({keys('{{*}}:prompts:bot:{pool}')} +xreadgroup +xack +xautoclaim +xgroup|create) "
            f"({keys('{{*}}:refused:bot:{pool}')} +xread +xrange +xrevrange +xlen) "
            f"({keys('pool:bot:{pool}')} +hset) "
            f"({keys('alive:bots:{pool}')} {keys('svc:bots:{pool}:*')} +set +get +del) "
            f"{CONNECTION}")


def users_acl(pools: Iterable[str], password: str = "change-me-{user}") -> str:
    """An ACL file: the default user off, the three service roles, one user per bot pool.
    `{user}` in `password` is replaced by each user's name."""
    lines = ["user default off"]
    for role in ROLES:
        lines.append(f"user {role} on resetkeys resetchannels -@all "
                     f">{password.format(user=role)} {rules_for(role)}")
    for pool in pools:
        user = pool_user(pool)
        lines.append(f"user {user} on resetkeys resetchannels -@all "
                     f">{password.format(user=user)} {pool_rules(pool)}")
    return "\n".join(lines) + "\n"


def acl_words(line: str) -> list[str]:
    """The arguments of `ACL SETUSER` for one line of an ACL file (after `user`): words, with
    a parenthesised selector kept as one argument."""
    words: list[str] = []
    depth = 0
    for token in line.split():
        if depth:
            words[-1] += " " + token
        else:
            words.append(token)
        depth += token.count("(") - token.count(")")
    return words[1:] if words and words[0] == "user" else words
