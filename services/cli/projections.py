"""`hexlog projections rebuild`: recompute every projection from the logs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from services.cli.registry import COMMANDS


def cmd_projections(args: argparse.Namespace) -> int:
    import asyncio

    from redis.asyncio import Redis

    from services.projections.projector import Projector
    from services.runtime.valkey import redis_url_from_env_or_embedded

    async def rebuild(url: str) -> int:
        redis = Redis.from_url(url)
        try:
            return await Projector(redis).rebuild()
        finally:
            await redis.aclose()

    with redis_url_from_env_or_embedded(args.data_dir) as url:
        n = asyncio.run(rebuild(url))
    print(f"rebuilt the projections of {n} games")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("projections", help="maintain the read models (game summaries, standings)")
    p.add_argument("action", choices=["rebuild"], help="rebuild: drop and recompute from the logs")
    p.add_argument("--data-dir", type=Path, default=Path(".hexlog"),
                   help="embedded Valkey data (ignored with REDIS_URL)")
    p.set_defaults(func=cmd_projections)


COMMANDS.append(register)
