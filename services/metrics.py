"""What the services count, for Prometheus: every metric hexlog exposes, named in one place.

Each service process serves its own registry on `--metrics-port` (`hexlog serve X
--metrics-port P`; `hexlog up --metrics-port P` gives its services P, P+1, …: docs/operations.md
"Metrics"). Labels are bounded on purpose: an outcome, a rule set (the modules of a game, a few
dozen combinations at most), a partition (16), a bot pool, an HTTP route template and status —
never a game id, a command id or a client address, which would grow without end.

Histogram buckets sit around what was measured: a command is judged in 1–20 ms on 2 cores
(benchmarks/README.md), a bot decides in microseconds (random) to ~50 ms (search).
"""

from __future__ import annotations

import os
import threading
from typing import Any, Protocol, cast

import prometheus_client
from prometheus_client import start_http_server

# HEXLOG_METRICS=0: count nothing (what `hexlog bench e2e --metrics-cost` compares against).
ENABLED = os.environ.get("HEXLOG_METRICS", "1") != "0"


class Metric(Protocol):
    """What the services call on a metric (prometheus_client's, or one that counts nothing)."""

    def labels(self, *values: str) -> Metric: ...

    def inc(self, amount: float = 1) -> None: ...

    def set(self, value: float) -> None: ...

    def observe(self, value: float) -> None: ...


class _Nothing:
    """A metric that counts nothing: every call answers itself or nothing."""

    def labels(self, *values: str) -> _Nothing:
        return self

    def inc(self, amount: float = 1) -> None:
        pass

    def set(self, value: float) -> None:
        pass

    def observe(self, value: float) -> None:
        pass


class _Children:
    """A labelled metric whose children are kept once looked up: prometheus_client's `labels`
    checks and converts the values and takes a lock on every call, and the rules service
    counts with labels on every command. The labels are bounded (module docstring), so this
    stays small; two threads that miss at once get the same child from prometheus_client."""

    def __init__(self, metric: Any) -> None:
        self.metric = metric
        self.children: dict[tuple[str, ...], Metric] = {}

    def labels(self, *values: str) -> Metric:
        child = self.children.get(values)
        if child is None:
            child = self.children[values] = cast(Metric, self.metric.labels(*values))
        return child

    def inc(self, amount: float = 1) -> None:
        self.metric.inc(amount)

    def set(self, value: float) -> None:
        self.metric.set(value)

    def observe(self, value: float) -> None:
        self.metric.observe(value)


def _metric(kind: Any, name: str, doc: str, labels: list[str] | None = None,
            **options: Any) -> Metric:
    if not ENABLED:
        return _Nothing()
    # (prometheus_client's classes have these methods, each only where it makes sense)
    metric = kind(name, doc, labels or [], **options)
    return _Children(metric) if labels else cast(Metric, metric)


def Counter(name: str, doc: str, labels: list[str] | None = None) -> Metric:  # noqa: N802
    return _metric(prometheus_client.Counter, name, doc, labels)


def Gauge(name: str, doc: str, labels: list[str] | None = None) -> Metric:  # noqa: N802
    return _metric(prometheus_client.Gauge, name, doc, labels)


def Histogram(name: str, doc: str, labels: list[str] | None = None, *,  # noqa: N802
              buckets: tuple[float, ...]) -> Metric:
    return _metric(prometheus_client.Histogram, name, doc, labels, buckets=buckets)

JUDGE_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0, 5.0)
DECISION_BUCKETS = (0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)

# --- the rules service ------------------------------------------------------------------------
COMMANDS = Counter(
    "hexlog_commands_total",
    "Commands the rules service settled, by outcome (accepted, rejected, dead_lettered, "
    "duplicate) and the game's rule set",
    ["outcome", "rules"])
JUDGE_SECONDS = Histogram(
    "hexlog_judge_seconds",
    "From reading an authenticated command to its settled outcome (decide, append, prompt)",
    buckets=JUDGE_BUCKETS)
BATCH_SIZE = Histogram(
    "hexlog_batch_size", "Entries one read of the command streams delivered",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256))
PENDING = Gauge(
    "hexlog_pending_entries",
    "Command entries delivered to the rules group and not yet acknowledged, per partition",
    ["partition"])
LAG = Gauge(
    "hexlog_consumer_lag",
    "Command entries not yet delivered to the rules group, per partition", ["partition"])
DEFAULT_MOVES = Counter(
    "hexlog_default_moves_total",
    "Moves the service played for a seat: its deadline passed, or it forfeited", ["reason"])
GAMES_LIVE = Gauge("hexlog_games_live", "Live games this rules service holds in memory")
GAMES_FINISHED = Counter("hexlog_games_finished_total", "Games that ended, by rule set",
                         ["rules"])

# --- the store --------------------------------------------------------------------------------
APPEND_SECONDS = Histogram(
    "hexlog_store_append_seconds", "One append script's round trip (events, outcome, prompt)",
    buckets=JUDGE_BUCKETS)
SCRIPT_ERRORS = Counter(
    "hexlog_store_script_errors_total", "Store scripts that answered with an error", ["script"])

# --- bot workers ------------------------------------------------------------------------------
BOT_DECISION_SECONDS = Histogram(
    "hexlog_bot_decision_seconds", "A bot's time to choose a command, per pool", ["pool"],
    buckets=DECISION_BUCKETS)
BOT_ANSWERS = Counter("hexlog_bot_answers_total", "Prompts a worker answered, per pool", ["pool"])
BOT_FAILURES = Counter(
    "hexlog_bot_failures_total",
    "Prompts a worker could not answer (an unreadable prompt, a bot that raised), per pool",
    ["pool"])
REFUSED = Counter(
    "hexlog_refused_answers_total",
    "Answers the rules service refused (a rejected move, or not taken as the seat's), per "
    "bot pool ('' for a requester's stream)", ["pool"])

# --- the gateway ------------------------------------------------------------------------------
HTTP_REQUESTS = Counter(
    "hexlog_http_requests_total", "Gateway requests by route template and status",
    ["route", "status"])
HTTP_OPEN_STREAMS = Gauge("hexlog_http_open_streams", "Open NDJSON and SSE streams")
HTTP_LIMITED = Counter(
    "hexlog_http_limited_total",
    "Requests refused by a gateway limit, by status: 408 (too slow), 413 (too large), 429 (a "
    "rate or a quota), 431 (headers too large); connection-level refusals included",
    ["status"])

# --- projections and tournaments --------------------------------------------------------------
PROJECTION_LAG = Gauge(
    "hexlog_projection_lag", "Feed entries not yet delivered to the projections, per partition",
    ["partition"])
PROJECTED = Counter("hexlog_projected_batches_total", "Feed entries the projector applied")
TOURNAMENT_GAMES = Counter("hexlog_tournament_games_total",
                           "Tournament games finished by this runner")
TOURNAMENT_QUEUE = Gauge("hexlog_tournament_queue",
                         "Tournament games scheduled and not yet started by this runner")

_served: set[int] = set()
_lock = threading.Lock()


def serve(port: int, host: str = "127.0.0.1") -> None:
    """Serve this process's metrics on http://host:port/metrics (a daemon thread); once per
    port. Port 0 serves nothing."""
    if not port:
        return
    with _lock:
        if port in _served:
            return
        start_http_server(port, addr=host)
        _served.add(port)
