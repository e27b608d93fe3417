"""`hexlog games`: the games a server holds, newest first.

One row per game from its meta (what anyone who may read the game index sees: no secrets):
its id, the rules (scenario and variants), whether it is live or finished, its version (events
so far), when it started and who won. `--live` keeps the games still being played; `--json`
prints the same as one object per game, for scripts.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, cast

from services.cli.options import add_server_options, at_least
from services.cli.registry import COMMANDS
from services.cli.replay import ELSEWHERE, redis_url, run_async


async def list_games(url: str, live_only: bool, limit: int) -> tuple[list[dict[str, Any]], int]:
    """(the newest games, at most `limit` of them; 0: all), and how many the server holds."""
    from services.store.connect import connect
    from services.store.keys import GAMES_INDEX, game_keys

    redis = connect(url)
    try:
        total = int(await redis.zcard(GAMES_INDEX))
        ids = [cast(bytes, g).decode() for g in await redis.zrevrange(GAMES_INDEX, 0, -1)]
        rows: list[dict[str, Any]] = []
        for start in range(0, len(ids), 500):  # one round trip per 500 games
            pipe = redis.pipeline(transaction=False)
            chunk = ids[start:start + 500]
            for game_id in chunk:
                pipe.hgetall(game_keys(game_id).meta)
            for game_id, raw in zip(chunk, await pipe.execute(), strict=True):
                meta = {k.decode(): v.decode() for k, v in raw.items()}
                if not meta or (live_only and meta.get("status") != "live"):
                    continue
                rows.append(row(game_id, meta))
                if limit and len(rows) >= limit:
                    return rows, total
        return rows, total
    finally:
        await redis.aclose()


def row(game_id: str, meta: dict[str, str]) -> dict[str, Any]:
    modules = [m.get("name", "?") for m in json.loads(meta.get("modules") or "[]")]
    winner = meta.get("winner", "")
    return {
        "game_id": game_id,
        "rules": " + ".join([meta.get("ruleset", "base"), *modules]),
        "status": meta.get("status", "?"),
        "version": int(meta.get("version", 0)),
        "seats": int(meta.get("seats", 0)),
        "started": meta.get("created_at", ""),
        "winner": int(winner) if winner.lstrip("-").isdigit() and int(winner) >= 0 else None,
        "tournament": meta.get("tournament", ""),
    }


def format_games(rows: list[dict[str, Any]], total: int, where: str, live_only: bool) -> str:
    from services.render.tables import render_table

    kind = "live game" if live_only else "game"
    if not rows:
        return f"no {kind}s {where} (another server: {ELSEWHERE})"
    table = render_table(
        ["game", "rules", "status", "version", "started (UTC)", "winner"],
        [[r["game_id"], r["rules"], r["status"], str(r["version"]),
          r["started"][:19].replace("T", " "),
          "-" if r["winner"] is None else f"seat {r['winner']}"] for r in rows],
        right={"version"})
    shown = f"{len(rows)} {kind}{'s' * (len(rows) != 1)}" + (
        f" of {total}" if len(rows) < total else "")
    return f"{shown} {where}, newest first\n{table}"


def cmd_games(args: argparse.Namespace) -> int:
    with redis_url(args, "games") as url:
        rows, total = run_async(list_games(url, args.live, args.limit))
        if args.json:
            print(json.dumps({"games": rows, "total": total}))
        else:
            print(format_games(rows, total, args.looked_in, args.live))
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("games", help="list the games of a server, newest first",
                       description="List the games a server holds, newest first: id, rules, "
                                   "status, version, start time, winner.")
    p.add_argument("--live", action="store_true", help="only games still being played")
    p.add_argument("--limit", type=at_least(0), default=50,
                   help="show at most N games (0: all; default 50)")
    p.add_argument("--json", action="store_true",
                   help='print {"games": [...], "total": N}, one object per game')
    add_server_options(p, log_level=False)
    p.set_defaults(func=cmd_games)


COMMANDS.append(register)
