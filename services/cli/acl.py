"""`hexlog acl`: the ACL file for a Redis or Valkey server of your own.

The same users hexlog makes on its embedded server (services/runtime/acl.py): `rules`,
`organiser`, `projections`, and one user per bot pool that may reach only its own prompts and
command streams. An operator loads the file (`aclfile` in valkey.conf) and gives each service
its user's URL; `deploy/users.acl` is this output for the shipped pools.
"""

from __future__ import annotations

import argparse
from typing import Any

from services.cli.errors import UsageError
from services.cli.registry import COMMANDS


def cmd_acl(args: argparse.Namespace) -> int:
    from bots.registry import POOL_NAME
    from services.runtime.acl import users_acl

    pools = [p.strip() for p in args.pools.split(",") if p.strip()]
    bad = [p for p in pools if not POOL_NAME.fullmatch(p)]
    if bad:
        raise UsageError(f"--pools: bad pool name(s) {', '.join(bad)} (letters, digits, _ . -)")
    if "{user}" not in args.password and args.password.startswith("change-me"):
        raise UsageError("--password: keep {user} in a template password, or give a real one")
    print(users_acl(pools, args.password), end="")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("acl", help="print the ACL file (Redis users) for a server of your own",
                       description="Print an ACL file with the least-privilege users of every "
                                   "hexlog service and of each bot pool (deploy/README.md).")
    p.add_argument("--pools", default="random,heuristic",
                   help="bot pools to make users for, comma-separated (default random,heuristic)")
    p.add_argument("--password", default="change-me-{user}",
                   help="each user's password; {user} is replaced by the user's name "
                        "(default change-me-{user}: replace them before use)")
    p.set_defaults(func=cmd_acl)


COMMANDS.append(register)
