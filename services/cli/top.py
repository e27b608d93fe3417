"""`hexlog top`: the running server's numbers, live on the terminal.

It reads the same metrics Prometheus scrapes (services/metrics.py), from the services `hexlog
up --metrics-port` runs (their ports are in `<data dir>/metrics.json`) or from the endpoints
given with `--endpoint`, once a second, and shows rates from one reading to the next: commands
settled per second by outcome, judge time p50/p99, commands waiting and pending per partition,
live games, default moves, each bot pool's decision time and refused answers, the gateway's
requests, streams and refusals, and how far the projections are behind.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from services.cli.errors import UsageError
from services.cli.options import add_server_options, at_least, data_dir
from services.cli.registry import COMMANDS

METRICS_FILE = "metrics.json"

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]  # (name, labels) -> value


def scrape(url: str) -> Samples:
    """Every sample one endpoint serves, or {} when it does not answer."""
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    try:
        text = httpx.get(url, timeout=2).text
    except httpx.HTTPError:
        return {}
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = float(s.value)
    return out


def total(samples: Samples, name: str, **match: str) -> float:
    return sum(v for (n, labels), v in samples.items()
               if n == name and all((k, w) in labels for k, w in match.items()))


def by_label(samples: Samples, name: str, label: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for (n, labels), v in samples.items():
        if n == name:
            key = dict(labels).get(label, "")
            out[key] = out.get(key, 0.0) + v
    return out


def quantile(before: Samples, now: Samples, name: str, q: float, **match: str) -> float | None:
    """The q-quantile of what a histogram observed between two readings (linear within the
    bucket, as PromQL's histogram_quantile); None without observations."""
    def buckets(samples: Samples) -> dict[float, float]:
        out: dict[float, float] = {}
        for (n, labels), v in samples.items():
            d = dict(labels)
            if n == f"{name}_bucket" and all(d.get(k) == w for k, w in match.items()):
                le = float(d["le"])
                out[le] = out.get(le, 0.0) + v
        return out

    then, latest = buckets(before), buckets(now)
    counts = sorted((le, latest[le] - then.get(le, 0.0)) for le in latest)
    if not counts or counts[-1][1] <= 0:
        return None
    rank = q * counts[-1][1]
    lower, below = 0.0, 0.0
    for le, count in counts:
        if count >= rank:
            if le == float("inf"):
                return lower
            return lower + (le - lower) * ((rank - below) / (count - below) if count > below else 1)
        lower, below = le, count
    return lower


@dataclass
class Reading:
    at: float
    samples: Samples = field(default_factory=dict)


def rows(before: Reading, now: Reading) -> list[tuple[str, str]]:
    """The lines of the view: (what, value), from two readings `seconds` apart."""
    b, n = before.samples, now.samples
    seconds = max(now.at - before.at, 1e-9)

    def rate(name: str, **match: str) -> float:
        return max(0.0, total(n, name, **match) - total(b, name, **match)) / seconds

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value * 1000:.1f} ms"

    out = [(f"commands {o}/s", f"{rate('hexlog_commands_total', outcome=o):.1f}")
           for o in ("accepted", "rejected", "dead_lettered", "duplicate")]
    out += [("judge p50 / p99", f"{ms(quantile(b, n, 'hexlog_judge_seconds', 0.5))} / "
                                f"{ms(quantile(b, n, 'hexlog_judge_seconds', 0.99))}"),
            ("commands waiting (lag)", f"{total(n, 'hexlog_consumer_lag'):.0f}"),
            ("commands pending", f"{total(n, 'hexlog_pending_entries'):.0f}"),
            ("live games", f"{total(n, 'hexlog_games_live'):.0f}"),
            ("games finished/min", f"{rate('hexlog_games_finished_total') * 60:.1f}"),
            ("default moves/min", f"{rate('hexlog_default_moves_total') * 60:.1f}")]
    for pool in sorted(by_label(n, "hexlog_bot_answers_total", "pool")):
        p99 = quantile(b, n, "hexlog_bot_decision_seconds", 0.99, pool=pool)
        out.append((f"bot {pool}: answers/s, p99",
                    f"{rate('hexlog_bot_answers_total', pool=pool):.1f}, {ms(p99)}"))
    for pool, value in sorted(by_label(n, "hexlog_refused_answers_total", "pool").items()):
        out.append((f"refused answers {pool or '(requesters)'}", f"{value:.0f}"))
    if any(name == "hexlog_http_requests_total" for name, _ in n):
        out += [("gateway requests/s", f"{rate('hexlog_http_requests_total'):.1f}"),
                ("gateway open streams", f"{total(n, 'hexlog_http_open_streams'):.0f}"),
                ("gateway refusals/min", f"{rate('hexlog_http_limited_total') * 60:.1f}")]
    out.append(("projections behind", f"{total(n, 'hexlog_projection_lag'):.0f}"))
    return out


def endpoints(args: argparse.Namespace) -> list[str]:
    if args.endpoint:
        return list(args.endpoint)
    path = data_dir(args) / METRICS_FILE
    try:
        ports = json.loads(path.read_text())
    except (OSError, ValueError):
        raise UsageError(f"no metrics in {path}: start the server with `hexlog up "
                         "--metrics-port PORT`, or give --endpoint URL") from None
    return [f"http://{ports['host']}:{port}/metrics" for port in ports["services"].values()]


def read(urls: Iterable[str]) -> Reading:
    samples: Samples = {}
    for url in urls:
        for key, value in scrape(url).items():
            samples[key] = samples.get(key, 0.0) + value
    return Reading(time.monotonic(), samples)


def cmd_top(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.live import Live
    from rich.table import Table

    urls = endpoints(args)

    def table(before: Reading, now: Reading) -> Table:
        view = Table(title=f"hexlog top: {len(urls)} endpoint(s), every {args.every:g} s "
                           "(Ctrl-C stops)")
        view.add_column("what")
        view.add_column("now", justify="right")
        for what, value in rows(before, now):
            view.add_row(what, value)
        return view

    before = read(urls)
    if not before.samples:
        raise UsageError(f"no metrics answered at {', '.join(urls)}: is the server up?")
    count = 0
    console = Console()
    with Live(table(before, before), console=console, auto_refresh=False) as live:
        try:
            while not args.times or count < args.times:
                time.sleep(args.every)
                now = read(urls)
                live.update(table(before, now), refresh=True)
                before, count = now, count + 1
        except KeyboardInterrupt:
            pass
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("top", help="the running server's numbers, live (its metrics)",
                       description="Show what the services of a running server count, live: "
                                   "commands per second, judge time, lag, games, bots, the "
                                   "gateway (the metrics of `hexlog up --metrics-port`).")
    p.add_argument("--endpoint", action="append", default=[], metavar="URL",
                   help="a metrics URL to read (repeatable; default: those `hexlog up "
                        "--metrics-port` wrote to DATA_DIR/metrics.json)")
    p.add_argument("--every", type=float, default=1.0, help="seconds between readings")
    p.add_argument("--times", type=at_least(0), default=0,
                   help="stop after N readings (0: until Ctrl-C)")
    add_server_options(p, log_level=False)
    p.set_defaults(func=cmd_top)


COMMANDS.append(register)
