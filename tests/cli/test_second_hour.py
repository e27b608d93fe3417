"""What a new user tripped over in their second hour, each tried as they did (issue 34).

Each case runs the real `hexlog` command in a fresh folder, as a user at a terminal would.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import random
import signal
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from cli_helpers import Hexlog, one_line_error

from services.store.keys import partition

PLAIN_BOT = Path(__file__).parents[2] / "examples" / "bots" / "plain_bot.py"
_spec = importlib.util.spec_from_file_location("plain_bot", PLAIN_BOT)
assert _spec is not None
assert _spec.loader is not None
plain_bot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(plain_bot)

OIL_ABANDONED = "oil-1"  # with random,heuristic,random,heuristic: the island is abandoned


@pytest.mark.parametrize("url", ["notaurl", "http://localhost:6379", "redis://host:port"])
def test_a_redis_url_that_is_no_url_is_a_usage_error_naming_the_schemes(
        hexlog: Hexlog, url: str) -> None:
    """Item 3: was "internal error: ValueError … please report it", exit 1."""
    result = hexlog.run("play", REDIS_URL=url)
    one_line_error(result, 2, "REDIS_URL")
    if "://" not in url or url.startswith("http"):
        assert "redis+cluster://" in result.lines()[-1]
    assert not hexlog.data.exists()


def test_a_second_scenario_is_refused_naming_both(hexlog: Hexlog) -> None:
    """Item 4: `--scenario fishermen --scenario rivers` played Rivers only."""
    result = hexlog.run("play", "--scenario", "fishermen", "--scenario", "rivers")
    one_line_error(result, 2, "--scenario given twice (fishermen, then rivers)")
    assert not hexlog.data.exists()


def test_a_module_chosen_twice_is_named(hexlog: Hexlog) -> None:
    one_line_error(hexlog.run("play", "--variant", "friendly-robber", "--variant",
                              "friendly-robber"), 2,
                   "a module may be chosen only once: friendly-robber is chosen 2 times")


def test_reading_a_game_where_no_server_ran_says_where_and_starts_nothing(
        hexlog: Hexlog) -> None:
    """Item 5: `cd /tmp && hexlog replay demo-1` started a server in /tmp/.hexlog."""
    for argv in (["replay", "demo-1"], ["audit", "demo-1"], ["export", "demo-1"], ["games"]):
        result = hexlog.run(*argv)
        one_line_error(result, 2, f"no hexlog data in {hexlog.data}")
        assert "--data-dir DIR, HEXLOG_DATA_DIR=DIR or REDIS_URL=URL" in result.lines()[-1]
    assert not hexlog.data.exists()


def test_games_lists_a_servers_games_and_a_missing_one_says_where_it_looked(
        hexlog: Hexlog) -> None:
    """Items 5 and 7: `hexlog games`, newest first, live only on request; a game that is not
    there is said with the data dir looked in; an Oil Springs game ended by disaster says so
    (it once read "no winner (turn limit)")."""
    played = hexlog.run("play", "--scenario", "oil-springs", "--bots",
                        "random,heuristic,random,heuristic", "--seed", OIL_ABANDONED,
                        "--game-id", "g-oil", timeout=300)
    assert played.code == 0, played.err[-2000:]
    assert ("no winner: the island was abandoned after its disasters (Champion of the "
            "environment:") in played.out
    assert hexlog.run("play", "--game-id", "g-base", "--seed", "x", timeout=300).code == 0
    listed = hexlog.run("games")
    assert listed.code == 0, listed.err
    lines = listed.out.splitlines()
    assert lines[0] == f"2 games on the server of {hexlog.data}, newest first"
    assert [line.split()[0] for line in lines[3:]] == ["g-base", "g-oil"]
    assert "base + oil-springs" in lines[4]
    assert "finished" in lines[4]
    data = json.loads(hexlog.run("games", "--json").out)
    assert data["total"] == 2
    assert [g["game_id"] for g in data["games"]] == ["g-base", "g-oil"]
    assert data["games"][1]["winner"] is None
    assert data["games"][0]["version"] > 100
    assert "no live games" in hexlog.run("games", "--live").out
    missing = hexlog.run("replay", "demo-1")
    one_line_error(missing, 2, f"no game 'demo-1' on the server of {hexlog.data} (2 games "
                               "there: `hexlog games` lists them)")
    result = json.loads(hexlog.run("play", "--scenario", "oil-springs", "--bots",
                                   "random,heuristic,random,heuristic", "--seed", OIL_ABANDONED,
                                   "--json", timeout=300).out)
    assert result["reason"] == "abandoned"
    assert result["ended"].startswith("no winner: the island was abandoned")


def test_a_bot_whose_every_answer_is_refused_is_told_why(
        hexlog: Hexlog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 8: a bot in another language that signs wrongly (here the plain bot of
    docs/protocol.md with a broken signature) used to show up in the results like any other.
    Now the result names how many of its answers were refused and why, and the pool reads its
    own refusals from `hexlog:{p}:refused:bot:<pool>`."""
    up = hexlog.start("up")
    hexlog.wait_for_line(up, "supervising rules, projections and bots", timeout=60)
    admin = redis.Redis.from_url(admin_url(hexlog))
    stop: list[bool] = []
    signed = plain_bot.answer

    def wrong_signature(pool: str, stream: str, fields: dict[bytes, bytes],
                        rng: random.Random) -> tuple[str, dict[str, str]]:
        commands, body = signed(pool, stream, fields, rng)
        return commands, {**body, "mac": "0" * 64}

    monkeypatch.setattr(plain_bot, "answer", wrong_signature)  # undone after the test
    bot = threading.Thread(target=plain_bot.run, args=(admin_url(hexlog), "badsig", stop),
                           daemon=True)
    bot.start()
    try:
        played = hexlog.run("play", "--bots", "random,random,random,badsig", "--deadline-ms",
                            "150", "--turn-limit", "6", "--game-id", "g-badsig", "--json",
                            timeout=300)
        ranked = hexlog.run("tournament", "--bots", "random,badsig", "--seats", "2", "--games",
                            "2", "--deadline-ms", "150", "--turn-limit", "4", "--json",
                            timeout=300)
    finally:
        stop.append(True)
        bot.join(10)
    assert ranked.code == 0, ranked.err[-2000:]
    rows = {r["bot"]: r for r in json.loads(ranked.out)["standings"]}
    assert not rows["random"]["first_refusal"].startswith("service.seat")  # late at most
    assert rows["badsig"]["refused"] > 0
    assert rows["badsig"]["first_refusal"].startswith("service.seat.credential")
    assert played.code == 0, played.err[-2000:]
    seats = json.loads(played.out)["players"]
    assert seats[3]["refused"] > 0
    assert seats[3]["first_refusal"].startswith("service.seat.credential: not signed by seat 3")
    # The shipped bots' answers are signed right (one may be late: `service.stale`).
    assert not any(p["first_refusal"].startswith("service.seat") for p in seats[:3]), seats
    text = hexlog.run("replay", "g-badsig")
    assert text.code == 0
    told = admin.xrange(f"hexlog:{{{partition('g-badsig'):03d}}}:refused:bot:badsig")
    assert len(told) >= seats[3]["refused"]
    assert {f[b"rule_id"] for _, f in told} == {b"service.seat.credential"}
    assert {f[b"game"] for _, f in told} == {b"g-badsig"}


def admin_url(hexlog: Hexlog) -> str:
    return (hexlog.data / "valkey.url").read_text().strip()


def slow_bot(hexlog: Hexlog, pool: str, stop: list[bool], monkeypatch: pytest.MonkeyPatch,
             pause: float = 0.2) -> threading.Thread:
    """The plain bot of docs/protocol.md, taking `pause` s per answer: games that last."""
    signed = plain_bot.answer

    def slowly(pool: str, stream: str, fields: dict[bytes, bytes],
               rng: random.Random) -> tuple[str, dict[str, str]]:
        time.sleep(pause)
        return signed(pool, stream, fields, rng)

    monkeypatch.setattr(plain_bot, "answer", slowly)  # undone after the test

    def run() -> None:
        with contextlib.suppress(redis.RedisError, OSError):  # the server may go first
            plain_bot.run(admin_url(hexlog), pool, stop)

    bot = threading.Thread(target=run, daemon=True)
    bot.start()
    return bot


def test_ctrl_c_on_an_attached_play_says_the_game_goes_on(
        hexlog: Hexlog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 6: "interrupted", and the game went on without a word."""
    up = hexlog.start("up")
    said = hexlog.wait_for_line(up, "supervising rules, projections and bots", timeout=60)
    stop: list[bool] = []
    slow_bot(hexlog, "slow", stop, monkeypatch, pause=0.05)
    try:
        play = hexlog.start("play", "--bots", "random,random,heuristic,slow", "--game-id", "g-on")
        hexlog.wait_for_line(play, "game g-on started", timeout=60)
        os.killpg(play.pid, signal.SIGINT)
        _, err = play.communicate(timeout=30)
        assert play.returncode == 130
        assert err.strip().splitlines()[-1] == (
            f"hexlog: interrupted: game g-on goes on in the server of `hexlog up` (pid "
            f"{up.pid}); `hexlog replay g-on --follow` keeps watching it"), err
        assert said  # and the game does go on, to its end

        def finished() -> bool:
            games = json.loads(hexlog.run("games", "--json").out)["games"]
            return games[0]["status"] == "finished"

        deadline = time.monotonic() + 240
        while not finished():
            assert time.monotonic() < deadline, "the game did not go on"
            time.sleep(1)
    finally:
        stop.append(True)


def test_ctrl_c_on_up_tells_an_attached_play_what_happened(
        hexlog: Hexlog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 6: `play` died with "lost Redis … Without REDIS_URL hexlog starts its own"."""
    up = hexlog.start("up")
    hexlog.wait_for_line(up, "supervising rules, projections and bots", timeout=60)
    stop: list[bool] = []
    slow_bot(hexlog, "slow", stop, monkeypatch)
    try:
        play = hexlog.start("play", "--bots", "random,random,heuristic,slow", "--game-id", "g-up")
        hexlog.wait_for_line(play, "game g-up started", timeout=60)
        os.killpg(up.pid, signal.SIGINT)
        _, err = play.communicate(timeout=60)
        up.wait(60)
    finally:
        stop.append(True)
    last = err.strip().splitlines()[-1]
    assert play.returncode == 1, err
    assert last.startswith(f"hexlog: lost the server of `hexlog up` (pid {up.pid}):"), err
    assert ("Did it stop? Game g-up goes on when it is back; `hexlog replay g-up --follow` then "
            "keeps watching it.") in last
    assert "Without REDIS_URL" not in last


@pytest.mark.parametrize("command", [["tournament", "--bots", "random,heuristic", "--games", "4"],
                                     ["bench", "e2e", "--games", "4"]])
def test_a_concurrency_past_the_limit_is_refused_naming_it(hexlog: Hexlog,
                                                           command: list[str]) -> None:
    """Item 14: every concurrency the options accept works (tests/store/test_connections.py
    holds the pool to it); past the limit it is refused before the start."""
    one_line_error(hexlog.run(*command, "--concurrency", "5000"), 2,
                   "--concurrency: at most 1,024, not 5,000")
    assert not hexlog.data.exists()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_second_up_on_a_data_dir_is_refused_naming_the_first(hexlog: Hexlog) -> None:
    """Item 1: a second `hexlog up` started a second set of services beside the first."""
    first = hexlog.start("up")
    hexlog.wait_for_line(first, "supervising rules, projections and bots", timeout=60)
    second = hexlog.run("up", timeout=60)
    one_line_error(second, 2, f"hexlog up already runs on {hexlog.data} (pid {first.pid})")
    assert first.poll() is None  # the first goes on


def test_a_gateway_port_in_use_is_refused_before_anything_starts(hexlog: Hexlog) -> None:
    """Item 2: the gateway restarted for ever (16 s, 30 s, …) on a port in use."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = hexlog.run("up", "--gateway-port", str(port), timeout=60)
    one_line_error(result, 2, f"--gateway-port {port}: 127.0.0.1:{port} is in use")
    assert not hexlog.data.exists()


def test_up_listens_on_tcp_for_bots_in_other_languages(hexlog: Hexlog) -> None:
    """Item 9: `.hexlog/valkey.url` is a Unix socket URL that Node's `new URL` refuses;
    `hexlog up --port P` also listens on 127.0.0.1:P and writes a plain redis:// URL."""
    port = free_port()
    up = hexlog.start("up", "--port", str(port))
    said = hexlog.wait_for_line(up, f"listening on 127.0.0.1:{port} too", timeout=60)
    assert str(hexlog.data / "valkey-tcp.url") in said[-1]
    url = (hexlog.data / "valkey-tcp.url").read_text().strip()
    parts = urlsplit(url)
    assert (parts.scheme, parts.hostname, parts.port, parts.username) == (
        "redis", "127.0.0.1", port, "default")
    client = redis.Redis.from_url(url)
    assert client.ping()
    assert client.config_get("bind")["bind"] == "127.0.0.1"
    client.close()
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(host="127.0.0.1", port=port, password="wrong").ping()
