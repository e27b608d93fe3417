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
| rules | everything under `hexlog:`, scripts | administration (ACL, CONFIG, FLUSHALL, …) |
| organiser | create games and forfeit seats (`cmds`), read logs, meta, rulings, outcomes, standings; its tournament keys | read a game's secrets (seed, credentials), touch prompts, write logs |
| projections | read logs, meta, the game index; consume the feeds; write `hexlog:proj:*` | secrets, outcomes, prompts, commands; write a log or meta |
| gateway | create games and forfeit seats, send seats' signed moves (`cmds`); read logs, meta, rulings, outcomes, deadlines, pools; its lobby keys `hexlog:gw:*` | read a game's secrets, prompts (turn keys), bot pools' streams; write logs or meta; scripts |
| bot pool `X` | add commands to its own streams `hexlog:{p}:cmds:bot:X`, read/ack/claim its own prompts, register itself, keep its heartbeat | anything else: other pools' prompts and commands, logs, meta, secrets, outcomes |
"""

from __future__ import annotations

from collections.abc import Iterable

from services.store.keys import PREFIX

ROLES = ("rules", "organiser", "projections", "gateway")
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
        return f"~{p}:* &* +@all -@admin -@dangerous +info +script|load"
    if role == "organiser":
        reads = " ".join(f"%R~{p}:{k}" for k in (
            "games", "{*}:g:*:ev", "{*}:g:*:meta", "{*}:g:*:rulings", "{*}:g:*:outcomes", "{*}:feed",
            "pool:*", "alive:*", "svc:*", "proj:*", "stats:*"))
        return (f"{reads} %W~{p}:{{*}}:cmds ~{p}:t:* +@read -@dangerous "
                f"+xadd +set +rpush +lset +hset +del {CONNECTION}")
    if role == "projections":
        reads = " ".join(f"%R~{p}:{k}" for k in ("games", "{*}:g:*:ev", "{*}:g:*:meta"))
        return (f"{reads} ~{p}:proj:* +@read +@hash +@string +del +unlink +scan -@dangerous "
                f"({feed_selector()}) ~{p}:svc:projections:* ~{p}:alive:projections "
                f"+set {CONNECTION}")
    if role == "gateway":
        reads = " ".join(f"%R~{p}:{k}" for k in (
            "games", "{*}:g:*:ev", "{*}:g:*:meta", "{*}:g:*:rulings", "{*}:g:*:outcomes",
            "{*}:deadlines", "pool:*", "alive:*"))
        return (f"{reads} %W~{p}:{{*}}:cmds ~{p}:gw:* +@read -@dangerous +xadd +set +del "
                f"+zadd +zrem +zremrangebyscore +expire +watch +unwatch +multi +exec +discard {CONNECTION}")
    raise ValueError(f"unknown role {role!r} (roles: {', '.join(ROLES)}, or a bot pool)")


def feed_selector() -> str:
    return (f"~{PREFIX}:{{*}}:feed +xreadgroup +xread +xrange +xrevrange +xlen +xack "
            "+xautoclaim +xgroup|create +xgroup|setid +xpending +xinfo|groups")


def pool_rules(*pools: str) -> str:
    """The ACL rules of a bot worker serving `pools`: their command streams (add only), their
    prompts. One selector covers all the pools' prompt streams, because a command must be
    allowed whole by one selector, and a worker reads every pool's prompts in one XREADGROUP."""
    p = PREFIX

    def keys(pattern: str) -> str:
        return " ".join(f"~{p}:{pattern.format(pool=pool)}" for pool in pools)

    commands = " ".join(f"%W~{p}:{{*}}:cmds:bot:{pool}" for pool in pools)
    return (f"{commands} +xadd "
            f"({keys('{{*}}:prompts:bot:{pool}')} +xreadgroup +xack +xautoclaim +xgroup|create) "
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
