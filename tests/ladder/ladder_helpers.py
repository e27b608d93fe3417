"""A real ladder for the tests: `hexlog up --ladder --gateway-port P` in a folder of its own
(its own embedded Valkey, the rules service, the projections, the gateway and the matchmaker as
the processes `up` supervises), bots as processes of their own that play over HTTP
(`python -m services.ladder.player`, or node), and a hand-driven bot (`Hand`) for the tests that
must do what no well-behaved bot does.

The gateway trusts 127.0.0.1 (the suite's own bots: no per-address quota); an outsider's calls
come from another loopback address."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "cli"))

from cli_helpers import Hexlog  # noqa: E402

OUTSIDER = "127.0.3.7"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Ladder:
    """`hexlog up --ladder` and the bots playing on it; `stop()` ends them all."""

    def __init__(self, tmp: Path, *options: str) -> None:
        self.hexlog = Hexlog(tmp)
        self.tmp = tmp
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.up = self.hexlog.start("up", "--ladder", "--gateway-port", str(self.port),
                                    "--trust", "127.0.0.1", *options)
        self.hexlog.wait_for_line(self.up, "gateway listening on", timeout=300)
        self.bots: list[subprocess.Popen[str]] = []
        until = time.monotonic() + 120
        while self.call("GET", "/v1/ladder").status_code != 200:  # the matchmaker leads
            assert time.monotonic() < until, "no matchmaker wrote the ladder's settings"
            time.sleep(0.5)

    # -- HTTP -------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, token: str = "",
             source: str = "", params: dict[str, Any] | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        transport = httpx.HTTPTransport(local_address=source) if source else None
        with httpx.Client(transport=transport, timeout=60) as client:
            return client.request(method, self.base + path, json=body, headers=headers,
                                  params=params)

    def register(self, name: str, owner: str, rulesets: list[str] | None = None
                 ) -> tuple[str, str]:
        r = self.call("POST", "/v1/ladder/bots", {"name": name, "owner": owner,
                                                  "rulesets": rulesets or []})
        assert r.status_code == 201, r.text
        return r.json()["bot"]["id"], r.json()["token"]

    def overview(self) -> dict[str, Any]:
        r = self.call("GET", "/v1/ladder")
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def board(self, name: str = "overall") -> dict[str, Any]:
        board: dict[str, Any] = self.overview()["boards"].get(name, {"games": 0, "rows": []})
        return board

    def wait_rated(self, games: int, timeout: float, board: str = "overall") -> dict[str, Any]:
        """The board once it holds at least `games` games (the bots' processes must live)."""
        until = time.monotonic() + timeout
        while True:
            found = self.board(board)
            if found["games"] >= games:
                return found
            for proc in self.bots:
                assert proc.poll() is None, f"a bot exited: {self.output(proc)}"
            assert self.up.poll() is None, "hexlog up exited"
            assert time.monotonic() < until, \
                f"{found['games']} of {games} games rated in {timeout}s: {self.logs_tail()}"
            time.sleep(1.0)

    def wait_all_finished(self, timeout: float) -> dict[str, Any]:
        """The overview once every game the ladder made is over and rated (no game pending
        or running)."""
        until = time.monotonic() + timeout
        while True:
            data = self.overview()
            made, rated = data["ladder"]["games"], data["boards"].get("overall", {}).get("games", 0)
            if not data["live"] and made == rated:
                return data
            assert self.up.poll() is None, "hexlog up exited"
            assert time.monotonic() < until, \
                f"{rated} of {made} games over and rated in {timeout}s: {self.logs_tail()}"
            time.sleep(1.0)

    # -- bots -------------------------------------------------------------------------------

    def player(self, bot: str, name: str, owner: str, *options: str) -> dict[str, Any]:
        """A Python ladder bot in a process of its own; what it printed on registering."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "services.ladder.player", "--gateway", self.base,
             "--bot", bot, "--name", name, "--owner", owner, *options],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=open(self.tmp / f"{name}.err", "w"),  # noqa: SIM115
            text=True, start_new_session=True)
        self.bots.append(proc)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, f"{name} did not register: {(self.tmp / f'{name}.err').read_text()}"
        said: dict[str, Any] = json.loads(line)
        return said

    def node(self, name: str, owner: str, *options: str) -> dict[str, Any]:
        """The JavaScript example bot under node; what it printed on registering."""
        err = open(self.tmp / f"{name}.err", "w")  # noqa: SIM115
        proc = subprocess.Popen(
            ["node", str(ROOT / "examples" / "bots" / "ladder_bot.js"), "--gateway", self.base,
             "--name", name, "--owner", owner, *options],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True)
        self.bots.append(proc)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, f"{name} did not register: {(self.tmp / f'{name}.err').read_text()}"
        said: dict[str, Any] = json.loads(line)
        return said

    def output(self, proc: subprocess.Popen[str]) -> str:
        for path in self.tmp.glob("*.err"):
            text = path.read_text()
            if text:
                return text[-3000:]
        return ""

    def logs_tail(self) -> str:
        logs = self.hexlog.data / "logs"
        out = []
        for name in ("serve-ladder.log", "serve-gateway.log"):
            path = logs / name
            if path.exists():
                out.append(f"--- {name}\n" + path.read_text()[-1500:])
        return "\n".join(out)

    def service(self, name: str) -> psutil.Process:
        """The process `up` supervises as `hexlog serve NAME`."""
        for child in psutil.Process(self.up.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                cmd = child.cmdline()
                if "serve" in cmd and cmd[cmd.index("serve") + 1] == name:
                    return child
        raise AssertionError(f"no `serve {name}` under hexlog up")

    def stop(self) -> None:
        for proc in self.bots:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        self.hexlog.stop_all()


class Hand:
    """A bot driven by the test: its stream read on a thread, line by line."""

    def __init__(self, ladder: Ladder, name: str, owner: str) -> None:
        self.ladder = ladder
        self.id, self.token = ladder.register(name, owner)
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.reader: threading.Thread | None = None
        self.conn: http.client.HTTPConnection | None = None
        self.ended = threading.Event()

    def ready(self) -> httpx.Response:
        return self.ladder.call("POST", f"/v1/ladder/bots/{self.id}/ready", token=self.token)

    def open(self) -> None:
        """Open the stream (its lines queue up in `lines`)."""
        self.close()
        self.ended = threading.Event()
        conn = self.conn = http.client.HTTPConnection("127.0.0.1", self.ladder.port, timeout=60)
        conn.request("GET", f"/v1/ladder/bots/{self.id}/stream",
                     headers={"Authorization": f"Bearer {self.token}"})
        resp = conn.getresponse()
        assert resp.status == 200, resp.read()

        def read() -> None:
            try:
                while True:
                    raw = resp.readline()
                    if not raw:
                        return
                    if raw.strip():
                        self.lines.put(json.loads(raw))
            except Exception:  # noqa: BLE001  (the connection dropped by close(): the end)
                pass
            finally:
                self.ended.set()

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()

    def close(self) -> None:
        """Drop the stream, as a bot that loses its connection does."""
        if self.conn is not None:
            with contextlib.suppress(OSError):
                if self.conn.sock is not None:
                    self.conn.sock.shutdown(socket.SHUT_RDWR)
            self.conn.close()
            self.conn = None
        if self.reader is not None:
            self.reader.join(10)
            self.reader = None

    def next(self, kind: str, timeout: float = 120, **match: Any) -> dict[str, Any]:
        """The next line of this type (and these fields), skipping the others."""
        until = time.monotonic() + timeout
        while True:
            left = until - time.monotonic()
            assert left > 0, f"no {kind} line {match} within {timeout}s"
            try:
                line = self.lines.get(timeout=min(left, 1.0))
            except queue.Empty:
                continue
            if line["type"] == kind and all(line.get(k) == v for k, v in match.items()):
                return line

    def drain(self) -> list[dict[str, Any]]:
        out = []
        with contextlib.suppress(queue.Empty):
            while True:
                out.append(self.lines.get_nowait())
        return out

    def answer(self, prompt_line: dict[str, Any], command: dict[str, Any] | None = None,
               token: str | None = None, game: str | None = None) -> httpx.Response:
        """Send `command` (the prompt's default when None) for the prompt's game and version."""
        body = {"command": command if command is not None else prompt_line["prompt"]["default"],
                "expected_version": prompt_line["version"]}
        return self.ladder.call("POST", f"/v1/ladder/games/{game or prompt_line['game']}/commands",
                                body, token if token is not None else self.token)


@contextlib.contextmanager
def ladder_up(tmp: Path, *options: str) -> Iterator[Ladder]:
    ladder = Ladder(tmp, *options)
    try:
        yield ladder
    finally:
        ladder.stop()
