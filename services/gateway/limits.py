"""Limits on everything a client sends: request rates (a token bucket per client and kind of
request), open streams per address, per token and in all, open connections per address, the
time a request may take to arrive, sizes and nesting of bodies, and the lobby's quotas.

A *client* is its address: an IPv4 address, or the /64 network of an IPv6 address (one host
gets a whole /64, so counting single IPv6 addresses would count nothing). Trusted networks
(`GatewayLimits.trusted`: the chat adapter, a proxy that limits on its own) are not bound by the
per-address limits; per-token and global limits bind everyone.

In-process: each gateway process limits what reaches it (a deployment with several processes
puts a proxy's limits in front, as usual); the lobby's quotas live in Redis and hold across
processes. A refused request gets 429 and `Retry-After` (whole seconds, at least 1; the
error's text says the wait to a tenth of a second, rounded up).

A seat's commands past its rate still go through when each is the seat's first at the game's
version now (`FirstAnswers`, service.Gateway.first_answer): a client that answers each prompt
once is never refused, however fast the game's other seats make it go.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from services import metrics

MAX_BODY_BYTES = 16 * 1024  # a command envelope is at most 16 KiB (docs/protocol.md §6)
MAX_LOBBY_BODY_BYTES = 8 * 1024
MAX_HEAD_BYTES = 16 * 1024  # a request line and headers; more is answered 431
MAX_JSON_DEPTH = 32  # no request of the API nests deeper than 5


@dataclass(frozen=True)
class Rate:
    per_second: float
    burst: float


@dataclass
class GatewayLimits:
    lobby: Rate = Rate(2.0, 20.0)  # create, join, leave, start, remove: per client address
    commands: Rate = Rate(20.0, 40.0)  # per seat token
    streams: Rate = Rate(50.0, 400.0)  # stream opens per client address
    reads: Rate = Rate(20.0, 60.0)  # pictures, replays, listings per client address
    streams_per_token: int = 4  # a seat's (or an owner's) streams open at once
    streams_per_address: int = 8  # streams open at once from one address
    streams_total: int = 5000
    connections_per_address: int = 64  # open connections from one address
    read_timeout_s: float = 10.0  # a request's line and headers, then its body, must arrive in this
    clients: int = 100_000  # clients the rate limiter remembers (least recently seen go first)
    table_ttl_s: float = 1800.0  # an open table not started by then is removed
    open_tables_per_address: int = 3
    trusted: tuple[str, ...] = ()  # networks not bound by the per-address limits
    trusted_networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = field(
        init=False, repr=False, default=())

    def __post_init__(self) -> None:
        self.trusted_networks = tuple(ipaddress.ip_network(n, strict=False) for n in self.trusted)

    def is_trusted(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.trusted_networks)


def client_key(host: str) -> str:
    """The client an address counts as: itself (IPv4), its /64 (IPv6)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass
class Buckets:
    """Token buckets by (kind, client), the least recently seen forgotten first once
    `limits.clients` are tracked: a flood of new addresses pushes out idle clients one at a
    time, never the ones that keep asking (a forgotten client starts again with a full
    bucket, so only the longest idle, whose buckets have mostly refilled, lose anything)."""

    limits: GatewayLimits
    level: OrderedDict[tuple[str, str], tuple[float, float]] = field(default_factory=OrderedDict)

    def take(self, kind: str, client: str) -> float:
        """0.0 when the request may go ahead, else the seconds to wait."""
        rate: Rate = getattr(self.limits, kind)
        now = time.monotonic()
        key = (kind, client)
        tokens, then = self.level.pop(key, (rate.burst, now))
        tokens = min(rate.burst, tokens + (now - then) * rate.per_second)
        wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / rate.per_second
        self.level[key] = (tokens if wait else tokens - 1.0, now)  # now the most recent
        while len(self.level) > self.limits.clients:
            self.level.popitem(last=False)
        return wait


def retry_seconds(wait: float) -> int:
    """`Retry-After`: whole seconds, rounded up, at least 1 (never 0, which means now)."""
    return max(1, math.ceil(wait))


def retry_text(wait: float) -> str:
    """The wait in an error's text: tenths of a second, rounded up, at least 0.1."""
    return f"retry in {max(1, math.ceil(wait * 10 - 1e-9)) / 10:.1f}s"


@dataclass
class FirstAnswers:
    """The newest game version each seat token sent a command at while past its rate (the
    least recently seen forgotten first once `limits.clients` are kept)."""

    limits: GatewayLimits
    newest: OrderedDict[str, int] = field(default_factory=OrderedDict)

    def first(self, token: str, version: int) -> bool:
        """Whether this is the token's first command at `version` (counted if so)."""
        if version <= self.newest.get(token, -1):
            return False
        self.newest.pop(token, None)
        self.newest[token] = version
        while len(self.newest) > self.limits.clients:
            self.newest.popitem(last=False)
        return True


@dataclass
class StreamCount:
    """Open streams by token, by client address and in all."""

    limits: GatewayLimits
    by_token: dict[str, int] = field(default_factory=dict)
    by_client: dict[str, int] = field(default_factory=dict)
    total: int = 0

    def open(self, token: str, client: str) -> str | None:
        """None when a stream may open (counted), else why not. `client` is '' for a
        trusted address."""
        if self.total >= self.limits.streams_total:
            return "the gateway serves its most streams; try again later"
        if token and self.by_token.get(token, 0) >= self.limits.streams_per_token:
            return f"a token may have {self.limits.streams_per_token} streams open at once"
        if client and self.by_client.get(client, 0) >= self.limits.streams_per_address:
            return (f"an address may have {self.limits.streams_per_address} streams open "
                    "at once")
        self.total += 1
        metrics.HTTP_OPEN_STREAMS.set(self.total)
        for counts, key in ((self.by_token, token), (self.by_client, client)):
            if key:
                counts[key] = counts.get(key, 0) + 1
        return None

    def close(self, token: str, client: str) -> None:
        self.total -= 1
        metrics.HTTP_OPEN_STREAMS.set(self.total)
        for counts, key in ((self.by_token, token), (self.by_client, client)):
            if key:
                left = counts.get(key, 1) - 1
                if left > 0:
                    counts[key] = left
                else:
                    counts.pop(key, None)


# Structure and strings only: a string is skipped whole (escapes included; an unterminated
# one runs to the end), so a bracket inside a string never counts, and the scan is linear.
_JSON_TOKENS = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)|[\[\]{}]')


def nested_deeper(body: bytes, bound: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text nests arrays and objects deeper than `bound` (before any decoder
    recurses into it)."""
    if body.count(b"[") + body.count(b"{") <= bound:
        return False
    depth = 0
    for match in _JSON_TOKENS.finditer(body):
        char = match.group()[0]
        if char in b"[{":
            depth += 1
            if depth > bound:
                return True
        elif char in b"]}":
            depth -= 1
    return False


KINDS = ("lobby", "commands", "streams", "reads")
# The limits given as one number (`--limit NAME=N`), and what they must be.
COUNTS = {f.name: str(f.type) for f in dataclasses.fields(GatewayLimits)
          if f.init and f.name not in KINDS and f.name != "trusted"}


def parse_limit(text: str) -> tuple[str, Rate | int | float]:
    """`commands=20/40`: a kind of request, its rate per second and its burst; or
    `streams_per_address=8`: one of the other limits, a number above 0."""
    kind, eq, rest = text.partition("=")
    if eq and kind in COUNTS:
        whole = COUNTS[kind] == "int"
        try:
            number: int | float = int(rest) if whole else float(rest)
        except ValueError:
            raise ValueError(f"{text!r}: {kind} is a {'whole ' if whole else ''}number") from None
        if number <= 0:
            raise ValueError(f"{text!r}: {kind} above 0")
        return kind, number
    rate, slash, burst = rest.partition("/")
    if not eq or kind not in KINDS:
        raise ValueError(f"{text!r}: KIND=RATE/BURST with KIND one of {', '.join(KINDS)}, "
                         f"or NAME=N with NAME one of {', '.join(COUNTS)}")
    try:
        value = Rate(float(rate), float(burst) if slash else max(1.0, float(rate)))
    except ValueError:
        raise ValueError(f"{text!r}: RATE and BURST are numbers") from None
    if value.per_second <= 0 or value.burst < 1:
        raise ValueError(f"{text!r}: RATE above 0, BURST at least 1")
    return kind, value


def check_network(text: str) -> str:
    """An address or a network (`127.0.0.1`, `10.0.0.0/8`, `::1`), as given."""
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise ValueError(f"{text!r}: an IP address or network (10.0.0.0/8)") from None
    return text


def limits_from(texts: list[str], trusted: list[str] | None = None) -> GatewayLimits:
    limits = GatewayLimits(trusted=tuple(check_network(t) for t in trusted or ()))
    for text in texts:
        kind, value = parse_limit(text)
        setattr(limits, kind, value)
    return limits
