"""The gateway says where it listens, once it does: `hexlog serve gateway` prints `hexlog:
gateway listening on http://HOST:PORT (OpenAPI: /v1/openapi)` when its socket is bound, and
`hexlog up --gateway-port` the same line once the gateway it runs answers. A client that
reads the line may connect at once; a gateway that cannot bind never says it."""

from __future__ import annotations

import os
import signal
import socket

import httpx
from cli_helpers import Hexlog


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def line_for(port: int) -> str:
    return f"hexlog: gateway listening on http://127.0.0.1:{port} (OpenAPI: /v1/openapi)"


def test_serve_gateway_says_it_listens_once_bound(hexlog: Hexlog) -> None:
    port = free_port()
    proc = hexlog.start("serve", "gateway", "--port", str(port))
    seen = hexlog.wait_for_line(proc, "gateway listening on", timeout=120)
    assert seen[-1].rstrip("\n") == line_for(port)
    # At once, without a retry: the socket was bound before the line was said.
    assert httpx.get(f"http://127.0.0.1:{port}/v1/openapi/openapi.json", timeout=5
                     ).status_code == 200
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert "listening on" not in err  # said once


def test_a_gateway_that_cannot_bind_never_says_it_listens(hexlog: Hexlog) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = hexlog.run("serve", "gateway", "--port", str(port), timeout=120)
    assert result.code != 0
    assert "address already in use" in result.err
    assert "listening on" not in result.err


def test_up_says_its_gateway_listens_once_it_answers(hexlog: Hexlog) -> None:
    port = free_port()
    proc = hexlog.start("up", "--gateway-port", str(port))
    seen = hexlog.wait_for_line(proc, "gateway listening on", timeout=180)
    assert seen[-1].rstrip("\n") == line_for(port)
    assert any("supervising rules, projections, gateway" in line for line in seen)
    assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "listening on" not in err
