"""Commands cooperate on one data dir (issue 11, items 1, 3, 4, 8, 9): with `hexlog up` running,
`play`, `replay --follow`, `tournament`, `projections rebuild` and `bench e2e` attach to its
server (and say so) instead of failing; two `play` at once share a server; Ctrl-C stops `up`
in order, with no traceback; an unreachable Redis makes `up` wait, not restart its services;
the credentials `play` keeps open a live game's private views.

This is the README's quick path, command for command.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx
import psutil
import pytest
import redis
from cli_helpers import Hexlog, one_line_error

from services.cli.main import build_parser


@pytest.fixture
def up(hexlog: Hexlog) -> subprocess.Popen[str]:
    """`hexlog up` on the test's data dir, its services heartbeating (stopped by `hexlog`)."""
    proc = hexlog.start("up")
    hexlog.wait_for_line(proc, "supervising rules, projections and bots")
    time.sleep(1.0)  # the services' first heartbeats
    return proc


def ctrl_c(proc: subprocess.Popen[str]) -> tuple[int, str]:
    """What a terminal does on Ctrl-C: SIGINT to the whole foreground process group."""
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


def game_of(stderr: str) -> str:
    line = next(x for x in stderr.splitlines() if x.startswith("hexlog: game "))
    return line.split()[2]


def test_the_readme_path_up_play_watch_and_ctrl_c(hexlog: Hexlog, up: subprocess.Popen[str]) -> None:
    watch = hexlog.start("replay", "demo-1", "--follow")  # the README's terminal 2
    hexlog.wait_for_line(watch, "waiting for game demo-1 to start")
    played = hexlog.run("play", "--game-id", "demo-1", "--turn-limit", "60")  # terminal 3
    assert played.code == 0, played.err
    assert f"attached to the running server at {hexlog.data} (started by hexlog up" in played.err
    assert "watch it with `hexlog replay demo-1 --follow`" in played.err
    assert "winner" in played.out or "no winner" in played.out
    out, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    assert "-- following; Ctrl-C stops --" in out
    assert "Game over" in out.splitlines()[-1]
    rebuilt = hexlog.run("projections", "rebuild")
    assert rebuilt.code == 0, rebuilt.err
    assert "rebuilt the projections of 1 games" in rebuilt.out
    toured = hexlog.run("tournament", "--bots", "random,heuristic", "--games", "4",
                        "--turn-limit", "40", "--json")
    assert toured.code == 0, toured.err
    assert "attached to the running server" in toured.err
    bench = hexlog.run("bench", "e2e", "--ceiling-s", "1",
                       "--games", "2", "--concurrency", "2", "--json", timeout=180)
    assert bench.code == 0, bench.err
    assert json.loads(bench.out)["games"] == 2
    code, err = ctrl_c(up)
    assert code == 0, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == "hexlog: stopped"
    assert not [p for p in psutil.process_iter(["cmdline"])
                if str(hexlog.data) in " ".join(p.info["cmdline"] or [])], "a process outlived up"
    assert (hexlog.data / "logs" / "serve-rules.log").exists()


def quick_path() -> list[str]:
    """The commands of the README's quick path, in order."""
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    section = readme.split("## Quick path", 1)[1]
    block = section.split("```", 2)[1]
    return [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]


def test_the_readme_quick_path_is_what_this_test_runs() -> None:
    """The test above runs the README's quick path: if the README changes, so must the test."""
    assert quick_path() == ["make", "source .venv/bin/activate", "hexlog up",
                            "hexlog replay demo-1 --follow", "hexlog play --game-id demo-1"]
    parser = build_parser()
    for line in quick_path()[2:]:
        parser.parse_args(line.split()[1:])


def test_a_seat_sees_its_hand_in_a_live_game_with_the_credentials_play_kept(
        hexlog: Hexlog, up: subprocess.Popen[str]) -> None:
    """A pool registered by a worker that never answers (docs/protocol.md §3) keeps the game
    live; `play` kept the credentials, so its creator sees seat 1's hand and the referee's
    view, and nobody without them does."""
    admin = redis.Redis.from_url((hexlog.data / "valkey.url").read_text().strip())
    admin.hset("hexlog:pool:bot:idle", "needs_view", 0)
    admin.close()
    play = hexlog.start("play", "--bots", "idle,idle,idle,idle", "--deadline-ms", "60000")
    game = game_of("".join(hexlog.wait_for_line(play, "hexlog: game ")))
    mine = hexlog.run("replay", game, "--as", "1")
    assert mine.code == 0, mine.err
    assert "as seat 1" in mine.out
    assert hexlog.run("replay", game, "--as", "referee").code == 0
    one_line_error(hexlog.run("replay", game, "--as", "1", HEXLOG_CREDENTIAL="not-it"), 2,
                   "needs seat 1's credential")
    one_line_error(hexlog.run("replay", game, "--as", "2", HEXLOG_DATA_DIR=str(hexlog.cwd / "other"),
                              REDIS_URL=url_of(hexlog)), 2, "needs seat 2's credential")
    code, err = ctrl_c(play)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == (
        f"hexlog: interrupted: game {game} goes on in the server of `hexlog up` (pid {up.pid}); "
        f"`hexlog replay {game} --follow` keeps watching it")


def url_of(hexlog: Hexlog) -> str:
    return (hexlog.data / "valkey.url").read_text().strip()


def test_play_refuses_a_bot_nobody_serves(hexlog: Hexlog) -> None:
    one_line_error(hexlog.run("play", "--bots", "random,telepath"), 2,
                   "unknown bot 'telepath': not shipped")


def test_two_plays_at_once_share_one_server(hexlog: Hexlog) -> None:
    first = hexlog.start("play", "--turn-limit", "80", "--json")
    said = hexlog.wait_for_line(first, "hexlog: game ")
    # Attached as a third command would be, so the first, if its game ends before the second
    # has started, waits for us before it stops the server (its game takes about a second).
    with (hexlog.data / "attached.lock").open("ab") as hold:
        fcntl.flock(hold.fileno(), fcntl.LOCK_SH)
        second = hexlog.run("play", "--turn-limit", "40", "--json")
    assert second.code == 0, second.err
    assert "attached to the running server" in second.err
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    # the first owns the server, and says it runs with jemalloc (runtime/allocator.py)
    assert "started the embedded Valkey (malloc: jemalloc)" in "".join(said)
    assert json.loads(out)["game_id"] != json.loads(second.out)["game_id"]
    assert "Traceback" not in err + second.err


def test_up_waits_for_an_unreachable_redis_instead_of_restarting(hexlog: Hexlog) -> None:
    proc = hexlog.start("up", REDIS_URL="redis://127.0.0.1:9/0")
    hexlog.wait_for_line(proc, "waiting for Redis")
    time.sleep(4)
    assert proc.poll() is None
    code, err = ctrl_c(proc)
    assert code == 0
    assert "Traceback" not in err
    assert "exited" not in err  # no service was started only to fail
    assert "trying again in 2s" in err


def test_up_runs_the_gateway_when_asked(hexlog: Hexlog) -> None:
    """`hexlog up --gateway-port`: the gateway is one more supervised service, on its own
    Redis user; it answers /ready once the rules service runs, and plays a table of bots."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = hexlog.start("up", "--gateway-port", str(port))
    hexlog.wait_for_line(proc, "supervising rules, projections, gateway and bots")
    base = f"http://127.0.0.1:{port}"
    until = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/ready", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < until, "the gateway of hexlog up never became ready"
        time.sleep(0.2)
    made = httpx.post(f"{base}/v1/tables", json={"seats": 2, "turn_limit": 5}).json()
    table = made["table"]["id"]
    started = httpx.post(f"{base}/v1/tables/{table}/start", json={"fill": "random"},
                         headers={"Authorization": f"Bearer {made['owner_token']}"}, timeout=30)
    assert started.status_code == 200, started.text
    with httpx.stream("GET", f"{base}/v1/tables/{table}/stream", timeout=60) as resp:
        first = json.loads(next(line for line in resp.iter_lines() if line))
    assert first["type"] == "gameFull"
    assert first["seat"] is None
    code, err = ctrl_c(proc)
    assert code == 0
    assert "Traceback" not in err
