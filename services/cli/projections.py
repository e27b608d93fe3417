"""`hexlog projections rebuild`: recompute every projection from the logs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from services.cli.options import add_server_options
from services.cli.registry import COMMANDS

if TYPE_CHECKING:
    from services.projections.projector import Projections


def shipped() -> Projections:
    """The projections hexlog's projector runs beyond game summaries: a tournament's results
    and standings, the bot ladder's ratings. Named here, above the packages (the projector
    knows no tournament and no ladder)."""
    from services.ladder.projection import LadderRatings
    from services.tournament.projection import Standings

    return {"tournament": Standings, "ladder": LadderRatings}


def serve(url: str, name: str | None) -> None:
    """`hexlog serve projections`: the projector with hexlog's projections, until SIGTERM."""
    from services.projections.projector import run

    run(url, shipped(), name)


def cmd_projections(args: argparse.Namespace) -> int:
    from services.cli import interrupt
    from services.cli.server import say, server_for
    from services.projections.projector import Projector
    from services.runtime.users import role_url

    async def rebuild(url: str) -> tuple[int, list[str]]:
        from services.store.connect import connect

        redis = connect(role_url(url, "projections"))
        try:
            projector = Projector(redis, shipped())
            return await projector.rebuild(), projector.unreadable
        finally:
            await redis.aclose()

    with server_for(args, "projections") as server:
        applied, unreadable = interrupt.run(rebuild(server.url))
    print(f"rebuilt the projections of {applied} games")
    if unreadable:
        shown = ", ".join(unreadable[:5]) + (" …" if len(unreadable) > 5 else "")
        say(f"left out {len(unreadable)} game(s) whose log cannot be read: {shown}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("projections", help="maintain the read models (game summaries, standings)")
    p.add_argument("action", choices=["rebuild"], help="rebuild: drop and recompute from the logs")
    add_server_options(p, log_level=False)
    p.set_defaults(func=cmd_projections)


COMMANDS.append(register)
