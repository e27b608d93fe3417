"""The Redis users a replicated deployment adds to those of acl.py: on the data nodes, the user
a replica logs in to its primary as and the one the Sentinels use; on the Sentinels, every
service's user with the right to ask where the primary is, and nothing more (a service logs in
to the data nodes and to the Sentinels with one user and password: services/store/connect.py).

The source of deploy/replication.acl and deploy/sentinel-users.acl (tests keep them equal) and
of the rights hexlog gives its users on the Sentinels of `hexlog up --ha`.
"""

from __future__ import annotations

from collections.abc import Iterable

from services.runtime.acl import ROLES, pool_user

# What a service's user may ask a Sentinel: where the primary and the replicas are.
SENTINEL_CLIENT_RULES = ("+ping +hello +auth +client|setname +client|setinfo +client|id "
                         "+sentinel|masters +sentinel|master +sentinel|get-master-addr-by-name "
                         "+sentinel|replicas +sentinel|slaves +sentinel|sentinels")
# A replica's login to its primary (Valkey's and Redis's documented minimum).
REPLICA_RULES = "+psync +replconf +ping"
# The Sentinels' login to the data nodes: watch them, and turn a replica into the primary.
SENTINEL_RULES = ("allchannels +multi +slaveof +replicaof +ping +exec +subscribe "
                  "+config|rewrite +role +publish +info +client|setname +client|kill "
                  "+script|kill")


def replication_acl(password: str = "change-me-{user}") -> str:
    """Lines to add to a data node's ACL file (after deploy/users.acl)."""
    return "".join(f"user {user} on resetkeys resetchannels -@all "
                   f">{password.format(user=user)} {rules}\n"
                   for user, rules in (("replica", REPLICA_RULES), ("sentinel", SENTINEL_RULES)))


def sentinel_users_acl(pools: Iterable[str], password: str = "change-me-{user}") -> str:
    """A Sentinel's ACL file: the default user off, the Sentinels' own user (they talk to each
    other as it), and every service's user, allowed to ask where the primary is."""
    lines = ["user default off",
             f"user sentinel on >{password.format(user='sentinel')} ~* &* +@all"]
    for user in [*ROLES, *(pool_user(pool) for pool in pools)]:
        lines.append(f"user {user} on resetkeys resetchannels -@all "
                     f">{password.format(user=user)} {SENTINEL_CLIENT_RULES}")
    return "\n".join(lines) + "\n"
