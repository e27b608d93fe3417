"""Several ladder and gateway processes at once, on one server: `hexlog up --ladder` and, beside
it, a second matchmaker (`hexlog serve ladder`) and a second gateway (`hexlog serve gateway`).
Bots join through either gateway. One matchmaker leads at a time (no pod is formed twice);
both gateways make the pods games and stream each bot its games wherever they were made;
every game finishes and is rated."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from ladder_helpers import free_port, ladder_up

GAMES = 8


def test_two_matchmakers_and_two_gateways_share_one_ladder(tmp_path: Path) -> None:
    options = ("--deadline-ms", "5000", "--stop-after", str(GAMES))
    with ladder_up(tmp_path, *options) as ladder:
        port = free_port()
        extra = []
        logs = {"ladder": tmp_path / "ladder-2.log", "gateway": tmp_path / "gateway-2.log"}
        for name, args in (("ladder", ("serve", "ladder", *options, "--log-level", "info")),
                           ("gateway", ("serve", "gateway", "--port", str(port),
                                        "--trust", "127.0.0.1", "--log-level", "info"))):
            with logs[name].open("w") as out:
                extra.append(subprocess.Popen(ladder.hexlog.command(*args), cwd=tmp_path,
                                              env=ladder.hexlog.env, stdout=out, stderr=out,
                                              stdin=subprocess.DEVNULL,
                                              start_new_session=True))
        try:
            second = f"http://127.0.0.1:{port}"
            until = time.monotonic() + 300
            while "listening on" not in logs["gateway"].read_text():
                assert time.monotonic() < until, logs["gateway"].read_text()[-2000:]
                time.sleep(0.5)
            first = ladder.base
            for i, (bot, name) in enumerate((("heuristic", "strong-1"), ("random", "weak-1"),
                                             ("heuristic", "strong-2"), ("random", "weak-2"))):
                ladder.base = first if i % 2 == 0 else second  # half join the second gateway
                ladder.player(bot, name, f"owner-of-{name}")
            ladder.base = first
            ladder.wait_rated(GAMES, timeout=900)
            data = ladder.wait_all_finished(timeout=300)
            assert data["ladder"]["games"] == GAMES
            assert all(row["games"] == GAMES for row in data["boards"]["overall"]["rows"])
        finally:
            for proc in extra:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(60)
        gateway_logs = [ladder.hexlog.data / "logs" / "serve-gateway.log", logs["gateway"]]
        started = [sum("ladder game started" in line for line in path.read_text().splitlines())
                   for path in gateway_logs]
        assert sum(started) == GAMES, started
        assert all(started), f"one gateway made every game: {started}"
        formed: list[str] = []
        for path in (ladder.hexlog.data / "logs" / "serve-ladder.log", logs["ladder"]):
            for line in path.read_text().splitlines():
                if "pod formed" in line:
                    formed.append(json.loads(line[line.index("{"):])["game_id"])
        assert sorted(formed) == sorted(set(formed))
        assert len(formed) == GAMES
