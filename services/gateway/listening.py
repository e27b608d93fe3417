"""The line that tells a user the gateway serves: said by `hexlog serve gateway` once its socket
is bound (not before: a client that reads it may connect at once), and by `hexlog up` once the
gateway it supervises answers."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable

OPENAPI = "/v1/openapi"


def listening_line(host: str, port: int) -> str:
    """`gateway listening on http://HOST:PORT (OpenAPI: /v1/openapi)`, after `hexlog: `."""
    shown = f"[{host}]" if ":" in host else host  # an IPv6 address in a URL
    return f"gateway listening on http://{shown}:{port} (OpenAPI: {OPENAPI})"


def wait_listening(host: str, port: int, timeout: float,
                   alive: Callable[[], bool] | None = None) -> bool:
    """Whether a gateway at HOST:PORT answers `GET /health` within `timeout` seconds (asked
    every 0.2 s while `alive()`, if given, is true). The standard library only: `hexlog up`
    asks it, and the gateway's extra has no HTTP client."""
    if host in ("0.0.0.0", "::", ""):  # listening everywhere: ask on the loopback
        host = "127.0.0.1"
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/health"
    until = time.monotonic() + timeout
    while time.monotonic() < until and (alive is None or alive()):
        try:
            with urllib.request.urlopen(url, timeout=1.0) as answer:
                if answer.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    return False


def announce_when_listening(host: str, port: int, say: Callable[[str], None],
                            timeout: float = 600.0) -> threading.Thread:
    """For `hexlog up`, which runs the gateway as a child: say `listening_line` once that child
    answers (from a thread: `up` goes on supervising meanwhile)."""
    def wait() -> None:
        if wait_listening(host, port, timeout):
            say(listening_line(host, port))

    thread = threading.Thread(target=wait, name="gateway-listening", daemon=True)
    thread.start()
    return thread
