"""`hexlog tournament`: a fair bot tournament through the real service, with ratings."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from services.cli.errors import INTERRUPTED, CliError, UsageError
from services.cli.options import (
    MAX_CONCURRENCY,
    add_rules_options,
    add_server_options,
    at_least,
    check_modules,
    modules_from,
    positive_seconds,
    seat_count,
)
from services.cli.registry import COMMANDS

if TYPE_CHECKING:
    from services.cli.progress import CountProgress
    from services.runtime.shared import Server
    from services.tournament.runner import Away

# The service stack (asyncio, redis, …) is imported where it is used: `hexlog` imports this
# module to register the command whatever command runs (`hexlog bench engine` too).


def check_bots(text: str) -> list[tuple[str, str]]:
    """(pool name, reference) of each bot of `--bots`; UsageError before anything starts."""
    from bots.registry import parse_bot_spec

    try:
        specs = [parse_bot_spec(b) for b in text.split(",") if b.strip()]
    except ValueError as exc:
        raise UsageError(f"--bots: {exc}") from None
    names = [name for name, _ in specs]
    if len(set(names)) != len(names):
        raise UsageError("--bots names each bot once (seats are shared out by the schedule)")
    if len(names) < 2:
        raise UsageError(f"--bots: a tournament ranks bots against each other, so it needs at "
                         f"least 2, not {len(names)} (`hexlog play` plays one game)")
    return specs


def check_pod(text: str, seats: int) -> tuple[list[str], list[tuple[str, str]]]:
    """`--pod search,heuristic,heuristic,heuristic`: (the lineup, the distinct bots' specs)."""
    lineup = [b.strip() for b in text.split(",") if b.strip()]
    if seats and len(lineup) != seats:
        raise UsageError(f"--pod names a bot for each of the {seats} seats, not {len(lineup)}")
    distinct = ",".join(dict.fromkeys(lineup))
    specs = check_bots(distinct)
    return [name for name, _ in (parse(b) for b in lineup)], specs


def parse(spec: str) -> tuple[str, str]:
    from bots.registry import parse_bot_spec

    try:
        return parse_bot_spec(spec)
    except ValueError as exc:
        raise UsageError(f"--pod: {exc}") from None


def cmd_tournament(args: argparse.Namespace) -> int:
    import asyncio

    from bots.registry import SHIPPED, parse_bot_spec
    from services.cli.server import server_for, services_running
    from services.rules.engine.modules import MODULES
    from services.runtime.logging import configure
    from services.tournament.runner import Spec

    configure(args.log_level)
    if args.metrics_port:
        from services import metrics

        metrics.serve(args.metrics_port)
    if bool(args.bots) == bool(args.pod):
        raise UsageError("give --bots (pods drawn from them) or --pod (one lineup), not both")
    modules = modules_from(args)
    pod: list[str] = []
    if args.pod:
        pod, specs = check_pod(args.pod, args.seats)
        seats = len(pod)
    else:
        specs = check_bots(args.bots)
        seats = args.seats or min([4, *(max(MODULES[m.name].seats) for m in modules if m.name in MODULES)])
    bots = [name for name, _ in specs]
    check_modules(modules, seats)
    spec = Spec(bots=bots, games=args.games, seats=seats, ruleset=args.ruleset,
                modules=[{"name": m.name, "params": dict(m.params)} for m in modules],
                seed=args.seed, deadline_ms=args.deadline_ms, turn_limit=args.turn_limit,
                forfeit_after_s=args.forfeit_after, pod=pod)
    # Shipped bots, and bots given as name=package.module:Factory, get a worker of this command
    # unless one is running; any other name must have registered its own worker on Redis.
    served = sorted(f"{name}={ref}" if ref != name else name for name, ref in specs
                    if ref in SHIPPED or ":" in ref)
    ours = [parse_bot_spec(s)[0] for s in served]
    try:
        with server_for(args, "tournament") as server, \
                services_running(server, served, projections=True) as started:
            hints = {service: restart_hint(service, server, started)
                     for service in ("rules", "projections")}
            result, games = asyncio.run(run(server.url, spec, bots, ours, args, hints))
            # Printed now: a server this command started may yet wait for attached commands.
            report(result, games, args)
            if args.out:
                asyncio.run(write_html(server.url, Path(args.out), result, games))
    except KeyboardInterrupt:
        raise CliError("interrupted; the same command with --resume continues this tournament "
                       "(finished games are kept)", code=INTERRUPTED) from None
    return 0


def report(result: dict[str, Any], games: list[dict[str, Any]], args: argparse.Namespace) -> None:
    from services.tournament.report import json_result, table, write_out

    if args.out:
        for path in write_out(Path(args.out), result, games):
            print(f"wrote {path}", file=sys.stderr)
    print(json.dumps(json_result(result)) if args.json else table(result) + "\n\n" + game_list(games),
          flush=True)


async def write_html(url: str, out: Path, result: dict[str, Any],
                     games: list[dict[str, Any]]) -> None:
    """report.html (standings, ratings chart, every game) and a replay page per game in
    games/ (the games are over: everything is public; pages show the spectator's view)."""
    from services.cli.progress import CountProgress
    from services.render.page import replay_page
    from services.render.replay import Viewer
    from services.render.tournament_page import tournament_page
    from services.rules.record import load_record
    from services.runtime.users import role_url
    from services.store import EventStore
    from services.store.connect import connect
    from services.tournament.report import ratings_svg

    (out / "games").mkdir(parents=True, exist_ok=True)
    redis = connect(role_url(url, "organiser"))
    pages: dict[str, str] = {}
    try:
        store = EventStore(redis)
        with CountProgress(len(games), "replay pages", lines=not sys.stderr.isatty()) as shown:
            for done, g in enumerate(games, 1):
                record = await load_record(store, g["game_id"])
                path = out / "games" / f"{g['game_id']}.html"
                path.write_text(replay_page(record, Viewer()), encoding="utf-8")
                pages[g["game_id"]] = f"games/{path.name}"
                shown.update(done)
    finally:
        await redis.aclose()
    chart = ratings_svg(result["standings"], result["games"])
    page = out / "report.html"
    page.write_text(tournament_page(result, games, chart, pages), encoding="utf-8")
    print(f"wrote {page} and {len(pages)} replay pages in {out / 'games'}", file=sys.stderr)


SHOWN_GAMES = 16


def game_list(games: list[dict[str, Any]]) -> str:
    """The games, for `hexlog replay ID` / `hexlog audit ID` (all of them with --out or --json)."""
    lines = ["games (`hexlog replay ID` shows one, `hexlog audit ID` checks it):"]
    for g in games[:SHOWN_GAMES]:
        winner = "no winner" if g["winner"] is None else f"won by {g['bots'][g['winner']]} (seat {g['winner']})"
        lines.append(f"  {g['game_id']}  {' '.join(g['bots'])}  {winner}")
    if len(games) > SHOWN_GAMES:
        lines.append(f"  … and {len(games) - SHOWN_GAMES} more (--out DIR writes games.csv, "
                     "--json lists every id)")
    return "\n".join(lines)


def restart_hint(service: str, server: Server, started: list[str]) -> str:
    """Who brings back `service` when it dies, for the line that says the run waits for it."""
    if service in started:
        return (f"this command started it and does not restart it: `hexlog serve {service}` "
                "in another terminal starts one")
    if server.how == "attached" and server.owner == "up":
        return "`hexlog up` restarts it"
    return "waiting for one to start"


def away_line(away: Away, hints: dict[str, str]) -> str:
    """`waiting for the rules service (gone 3 s; `hexlog up` restarts it) …`, or that it is
    back."""
    if away.back:
        return f"the {away.service} service is back after {away.gone_s:.0f} s; going on"
    return (f"waiting for the {away.service} service (gone {away.gone_s:.0f} s; "
            f"{hints.get(away.service, 'waiting for one to start')}) …")


def tell(shown: CountProgress, text: str) -> None:
    """A line on stderr that does not tear the progress bar of a terminal."""
    from services.cli.server import say

    if shown.progress is not None:
        shown.progress.console.print(f"hexlog: {text}", markup=False, highlight=False)
    else:
        say(text)


async def run(url: str, spec: Any, bots: list[str], shipped: list[str],
              args: argparse.Namespace,
              hints: dict[str, str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from services.cli.progress import CountProgress
    from services.client import Client
    from services.projections.projector import results_key
    from services.runtime.users import role_url
    from services.store.connect import connect
    from services.tournament.runner import (
        TournamentRunner,
        bot_registered,
        wait_for_bots,
    )

    redis = connect(role_url(url, "organiser"))  # an organiser: no game's secrets
    try:
        await Client(redis).wait_for_rules()
        await wait_for_bots(redis, shipped)  # workers of this command (or already running)
        for bot in sorted(set(bots) - set(shipped)):
            if not await bot_registered(redis, bot):
                raise UsageError(
                    f"--bots: unknown bot {bot!r}: not shipped, and no worker registered it on "
                    f"this Redis (start one with `hexlog serve bots --bots {bot}=module:Factory` "
                    "or your own worker, docs/protocol.md)")
        runner = TournamentRunner(redis, spec, concurrency=args.concurrency,
                                  patience_s=args.wait_for_services)
        if not args.resume and (earlier := await runner.unfinished_run()):
            print(f"note: an earlier run of this tournament ({earlier}) did not finish; "
                  "--resume would continue it. Starting a new run.", file=sys.stderr)
        tid = await runner.start(resume=args.resume)
        print(f"tournament {tid}: {len(runner.games)} games "
              f"({len(runner.games) // spec.seats} sets x {spec.seats} seat rotations), "
              f"bots {', '.join(bots)}", file=sys.stderr)
        with CountProgress(len(runner.games), lines=not sys.stderr.isatty()) as shown:
            result = await runner.run(lambda p: shown.update(p.done, progress_extra(p)),
                                      lambda away: tell(shown, away_line(away, hints)))
        raw = await redis.hgetall(results_key(tid))
        games = sorted((json.loads(v) for v in raw.values()), key=lambda g: g["index"])
        return result, games
    finally:
        await redis.aclose()


def progress_extra(p: Any) -> str:
    """`ETA 5:10 · leader heuristic (mu 33.2)`: the ETA from the games this run played (a
    resumed run's finished games are not)."""
    eta = "--:--" if p.eta is None else f"{int(p.eta) // 60}:{int(p.eta) % 60:02d}"
    leader = f" · leader {p.leader['bot']} (mu {p.leader['mu']:.1f})" if p.leader else ""
    resumed = f" · {p.resumed} done before resuming" if p.resumed else ""
    return f"ETA {eta}{leader}{resumed}"


def register(sub: Any) -> None:
    p = sub.add_parser("tournament", help="a fair bot tournament (duplicate seeds, ratings)",
                       description="Play every pod of bots in all seat rotations on the same "
                                   "seed, through the real service, and rate them (openskill).")
    p.add_argument("--pod", default="",
                   help="one lineup, a bot per seat (search,heuristic,heuristic,heuristic): "
                        "every set plays it rotated through the seats on one seed; the table "
                        "tests each bot's win rate against its share of the seats")
    p.add_argument("--bots", default="",
                   help="comma-separated bots, at least 2: shipped (random, heuristic, search), "
                        "name=package.module:Factory (a Python bot by import path), or a name "
                        "registered on Redis by an external worker (any language: "
                        "docs/protocol.md)")
    p.add_argument("--games", type=at_least(1), required=True,
                   help="games to play (rounded up to whole sets)")
    p.add_argument("--seats", type=seat_count, default=0,
                   help="seats per game (default 4; 2 for catan-for-two)")
    p.add_argument("--seed", default="",
                   help="a tournament seed, for reproducible games (same seed, same games); "
                        "keep it secret until the games end: anyone who knows it can predict "
                        "every die. Default: a secret seed drawn from the OS, printed at the end")
    p.add_argument("--concurrency", type=at_least(1, MAX_CONCURRENCY), default=8,
                   help=f"games played at once (default 8, at most {MAX_CONCURRENCY:,})")
    p.add_argument("--resume", action="store_true",
                   help="continue the latest interrupted run of this same tournament")
    p.add_argument("--out", default="",
                   help="directory for report.html (standings, ratings chart, every game linked "
                        "to its replay page in games/), standings.json, standings.txt, games.csv "
                        "and ratings.svg (+ ratings.png with matplotlib)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--deadline-ms", type=at_least(100), default=10_000,
                   help="milliseconds a seat has for each decision (default 10000)")
    p.add_argument("--turn-limit", type=at_least(0), default=1000,
                   help="end a game undecided after N turns (0: no limit; default 1000)")
    p.add_argument("--forfeit-after", type=positive_seconds, default=30.0,
                   help="seconds without a live worker before a bot forfeits its games")
    p.add_argument("--wait-for-services", type=positive_seconds, default=600.0,  # SERVICE_PATIENCE_S
                   metavar="SECONDS",
                   help="how long the tournament waits for a rules or projections service "
                        "that is gone (killed, restarting) before it stops, resumable with "
                        "--resume (default 600); it says on stderr while it waits")
    p.add_argument("--metrics-port", type=at_least(0), default=0, metavar="PORT",
                   help="serve the run's Prometheus metrics (games finished, queue) on "
                        "http://127.0.0.1:PORT/metrics while it plays (0: none)")
    add_server_options(p)
    add_rules_options(p)
    p.set_defaults(func=cmd_tournament)


COMMANDS.append(register)
