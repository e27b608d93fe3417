"""Limits on everything a client sends: request rates (a token bucket per client and kind of
request), open streams per credential and in all, and sizes (bodies, names, ids).

In-process: each gateway process limits what reaches it (a deployment with several processes
puts a proxy's limits in front, as usual). A refused request gets 429 and `Retry-After`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

MAX_BODY_BYTES = 16 * 1024  # a command envelope is at most 16 KiB (docs/protocol.md §6)
MAX_LOBBY_BODY_BYTES = 8 * 1024
MAX_BUCKETS = 100_000  # forget idle clients beyond this many (a flood of addresses)


@dataclass(frozen=True)
class Rate:
    per_second: float
    burst: float


@dataclass
class GatewayLimits:
    lobby: Rate = Rate(2.0, 20.0)  # create, join, leave, start: per client address
    commands: Rate = Rate(20.0, 40.0)  # per seat token
    streams: Rate = Rate(50.0, 400.0)  # stream opens per client address
    reads: Rate = Rate(20.0, 60.0)  # pictures, replays, listings per client address
    streams_per_seat: int = 4
    streams_total: int = 5000


@dataclass
class Buckets:
    """Token buckets by (kind, client)."""

    limits: GatewayLimits
    level: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)

    def take(self, kind: str, client: str) -> float:
        """0.0 when the request may go ahead, else the seconds to wait."""
        rate: Rate = getattr(self.limits, kind)
        now = time.monotonic()
        tokens, then = self.level.get((kind, client), (rate.burst, now))
        tokens = min(rate.burst, tokens + (now - then) * rate.per_second)
        if tokens < 1.0:
            self.level[(kind, client)] = (tokens, now)
            return (1.0 - tokens) / rate.per_second
        if len(self.level) >= MAX_BUCKETS:
            self.level.clear()
        self.level[(kind, client)] = (tokens - 1.0, now)
        return 0.0


@dataclass
class StreamCount:
    """Open streams, by seat token and in all."""

    limits: GatewayLimits
    by_token: dict[str, int] = field(default_factory=dict)
    total: int = 0

    def open(self, token: str) -> str | None:
        """None when a stream may open (counted), else why not."""
        if self.total >= self.limits.streams_total:
            return "the gateway serves its most streams; try again later"
        if token and self.by_token.get(token, 0) >= self.limits.streams_per_seat:
            return f"a seat may have {self.limits.streams_per_seat} streams open at once"
        self.total += 1
        if token:
            self.by_token[token] = self.by_token.get(token, 0) + 1
        return None

    def close(self, token: str) -> None:
        self.total -= 1
        if token:
            left = self.by_token.get(token, 1) - 1
            if left:
                self.by_token[token] = left
            else:
                self.by_token.pop(token, None)


KINDS = ("lobby", "commands", "streams", "reads")


def parse_limit(text: str) -> tuple[str, Rate]:
    """`commands=20/40`: a kind of request, its rate per second and its burst."""
    kind, eq, rest = text.partition("=")
    rate, slash, burst = rest.partition("/")
    if not eq or kind not in KINDS:
        raise ValueError(f"{text!r}: KIND=RATE/BURST with KIND one of {', '.join(KINDS)}")
    try:
        value = Rate(float(rate), float(burst) if slash else max(1.0, float(rate)))
    except ValueError:
        raise ValueError(f"{text!r}: RATE and BURST are numbers") from None
    if value.per_second <= 0 or value.burst < 1:
        raise ValueError(f"{text!r}: RATE above 0, BURST at least 1")
    return kind, value


def limits_from(texts: list[str]) -> GatewayLimits:
    limits = GatewayLimits()
    for text in texts:
        kind, rate = parse_limit(text)
        setattr(limits, kind, rate)
    return limits
