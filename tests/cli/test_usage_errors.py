"""Bad usage and an unreachable Redis: one line on stderr, the exit code the README states, and
nothing started (issue 11, items 3–5).

Options are checked before anything starts: a refused command leaves no data dir behind, so
no server and no service ran. A REDIS_URL nobody answers on is said in one line (exit 1) by
every command that needs Redis, with no traceback.
"""

from __future__ import annotations

import pytest
from cli_helpers import CORPUS, Hexlog, one_line_error

CLOSED = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there

USAGE = [
    (["tournament", "--bots", "random,heuristic", "--games", "0"], "--games: must be at least 1, not 0"),
    (["tournament", "--bots", "random,heuristic", "--games", "-1"], "--games: must be at least 1, not -1"),
    (["tournament", "--bots", "random,heuristic", "--games", "4", "--concurrency", "0"],
     "--concurrency: must be at least 1, not 0"),
    (["tournament", "--bots", "random", "--games", "4"], "needs at least 2, not 1"),
    (["tournament", "--bots", "random,random", "--games", "4"], "names each bot once"),
    (["tournament", "--pod", "search,heuristic", "--seats", "4", "--games", "4"],
     "--pod names a bot for each of the 4 seats, not 2"),
    (["tournament", "--pod", "search,heuristic,heuristic,heuristic", "--bots", "random,heuristic",
      "--games", "4"], "give --bots (pods drawn from them) or --pod (one lineup), not both"),
    (["tournament", "--pod", "heuristic,heuristic", "--games", "4"], "needs at least 2, not 1"),
    (["bench", "engine", "--games", "0"], "--games: must be at least 1, not 0"),
    (["bench", "engine", "--games", "-1"], "--games: must be at least 1, not -1"),
    (["bench", "e2e", "--concurrency", "0"], "--concurrency: must be at least 1, not 0"),
    (["play", "--variant", "victory-points:target=abc"], "target must be a whole number"),
    (["play", "--variant", "victory-points:target=99"], "target must be between 3 and 30"),
    (["play", "--variant", "undo:policy=maybe"], "policy cannot be 'maybe'"),
    (["play", "--variant", "harbormaster:x=1"], "harbormaster takes no parameters"),
    (["play", "--variant", "no-such-variant"], "unknown rule module 'no-such-variant'"),
    (["play", "--bots", "random"], "2 to 4 seats, not 1"),
    (["play", "--bots", "random,tele path"], "'tele path' cannot be a bot's name"),
    (["tournament", "--bots", "random,heuristic", "--games", "4", "--variant",
      "victory-points:target=abc"], "target must be a whole number"),
    (["play", "--deadline-ms", "soon"], "--deadline-ms: expected a whole number, not 'soon'"),
    (["serve", "bots", "--bots", "telepath"], "unknown bot 'telepath'"),
    (["serve", "rules", "--read-lanes", "0"], "--read-lanes: must be at least 1, not 0"),
    (["serve", "rules", "--read-lanes", "17"], "--read-lanes: at most 16 (one per partition), not 17"),
    (["acl", "--pools", "bad name"], "bad pool name(s) bad name"),
    (["serve", "gateway", "--limit", "streams=fast"], "--limit: 'streams=fast': RATE and BURST"),
    (["serve", "gateway", "--limit", "everything=1/1"], "KIND=RATE/BURST with KIND one of"),
    (["serve", "matrix"], "serve matrix needs --homeserver and --matrix-user"),
    (["up", "--matrix"], "--matrix needs --homeserver and --matrix-user"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
]


@pytest.mark.parametrize(("argv", "message"), USAGE, ids=[" ".join(a) for a, _ in USAGE])
def test_bad_usage_is_one_line_and_exit_2_before_anything_starts(
        hexlog: Hexlog, argv: list[str], message: str) -> None:
    result = hexlog.run(*argv)
    one_line_error(result, 2, message)
    assert not hexlog.data.exists(), "a refused command started a server"


SETTINGS = [
    ({"HEXLOG_VALKEY_MALLOC": "tcmalloc"}, "HEXLOG_VALKEY_MALLOC must be auto, jemalloc or libc"),
    ({"HEXLOG_DURABILITY": "bogus"}, "HEXLOG_DURABILITY must be local, replica or auto"),
]


@pytest.mark.parametrize(("env", "message"), SETTINGS, ids=[next(iter(e)) for e, _ in SETTINGS])
def test_a_bad_setting_in_the_environment_is_one_line_and_exit_2(
        hexlog: Hexlog, env: dict[str, str], message: str) -> None:
    result = hexlog.run("play", "--turn-limit", "5", **env)
    one_line_error(result, 2, message)
    assert not (hexlog.data / "valkey.url").exists(), "a server was left running"


def test_replay_of_a_seat_the_game_does_not_have(hexlog: Hexlog) -> None:
    one_line_error(hexlog.run("replay", str(CORPUS / "base-4.jsonl"), "--as", "7"), 2,
                   "--as 7: game corpus-base-4 has seats 0 to 3")
    one_line_error(hexlog.run("replay", str(CORPUS / "base-4.jsonl"), "--as", "nobody"), 2,
                   "--as takes a seat number")
    one_line_error(hexlog.run("replay", str(CORPUS / "base-4.jsonl"), "--at", "9999"), 2,
                   "--at: version 9999 is not in the log")


UNREACHABLE = [
    ["play"],
    ["replay", "g-1"],
    ["audit", "g-1"],
    ["export", "g-1"],
    ["import", str(CORPUS / "base-4.jsonl")],
    ["bench", "e2e", "--games", "1"],
    ["tournament", "--bots", "random,heuristic", "--games", "4"],
    ["projections", "rebuild"],
]


@pytest.mark.parametrize("argv", UNREACHABLE, ids=[a[0] + (" " + a[1] if a[0] == "bench" else "")
                                                   for a in UNREACHABLE])
def test_a_redis_url_nobody_answers_is_one_line_and_exit_1(hexlog: Hexlog, argv: list[str]) -> None:
    result = hexlog.run(*argv, REDIS_URL=CLOSED, timeout=60)
    one_line_error(result, 1, "cannot reach Redis")
    assert "127.0.0.1:9" in result.lines()[-1]


def test_debug_adds_the_traceback(hexlog: Hexlog) -> None:
    result = hexlog.run("--debug", "replay", "g-1", REDIS_URL=CLOSED)
    assert result.code == 1
    assert "Traceback" in result.err
    assert result.lines()[-1].startswith("hexlog: cannot reach Redis")
    one_line_error(hexlog.run("audit", str(CORPUS / "base-4.jsonl"), "--seed", "zz"), 2,
                   "--seed is the seed in hex")
