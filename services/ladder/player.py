"""hexlog's bots (random, heuristic, search, or one by import path) as ladder bots over HTTP:
what `hexlog bench ladder` runs, each in a process of its own, and what a Python author can
start from. Only the ladder's HTTP API (docs/ladder.md) and the standard library's HTTP client:

    python -m services.ladder.player --gateway http://127.0.0.1:8080 --bot heuristic \\
        --name my-heuristic --owner ann

It registers (or uses `--id` and `--token`), prints `{"id", "name", "token"}` as one JSON line
on stdout, says it is ready, and plays every game of its stream: each `prompt` line is decoded
into the SDK's `Prompt` and `View`, answered with `bot.choose(view, prompt)`, and POSTed; a
refused answer is followed by the prompt's default. A broken stream is opened again (after a
pause that grows to 5 s), and the bot says ready again: it keeps its seats in the games that
ran on meanwhile. A line per finished game goes to stderr.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from bots.registry import make_bot, parse_bot_spec
from bots.sdk import Bot, reseed
from events.codec import codec
from services.runtime.die_with_parent import die_with_parent

STREAM_TIMEOUT_S = 30.0  # keep-alives come every 7 s: this much silence is a dead stream


class Revoked(Exception):
    """The bot's token no longer acts (revoked or rotated)."""


class Ladder:
    """The ladder's HTTP API, one keep-alive connection for requests."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base.rstrip("/"))
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.conn: http.client.HTTPConnection | None = None

    def connection(self, timeout: float = 30.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> \
            tuple[int, Any]:
        """One request; past a rate limit it waits what `Retry-After` says and asks again."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        for attempt in range(3):
            try:
                if self.conn is None:
                    self.conn = self.connection()
                self.conn.request(method, path, data, headers)
                resp = self.conn.getresponse()
                text = resp.read()
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt == 2:
                    raise
                time.sleep(0.5)
                continue
            if resp.status == 429:
                time.sleep(float(resp.getheader("Retry-After") or 1))
                continue
            return resp.status, json.loads(text) if text else None
        return 429, {"error": "rate: still limited"}

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def lines(self, bot_id: str, token: str, views: bool) -> Iterator[dict[str, Any] | None]:
        """The bot's stream, a decoded line at a time (None: a keep-alive)."""
        conn = self.connection(STREAM_TIMEOUT_S)
        try:
            conn.request("GET", f"/v1/ladder/bots/{bot_id}/stream?views={str(views).lower()}",
                         headers={"Authorization": f"Bearer {token}"})
            resp = conn.getresponse()
            if resp.status == 401:
                raise Revoked(resp.read().decode(errors="replace"))
            if resp.status != 200:
                raise OSError(f"stream: {resp.status} {resp.read()[:200]!r}")
            while True:
                raw = resp.readline()
                if not raw:
                    return
                text = raw.strip()
                yield json.loads(text) if text else None
        finally:
            conn.close()


class Player:
    def __init__(self, ladder: Ladder, bot: Bot, bot_id: str, token: str) -> None:
        self.ladder = ladder
        self.bot = bot
        self.bot_id = bot_id
        self.token = token
        self.finished = 0
        self.sent = 0
        self.refused = 0

    def play(self, games: int = 0) -> None:
        """Play until `games` games are over (0: until stopped)."""
        pause = 0.5
        while not games or self.finished < games:
            try:
                status, answer = self.ladder.call("POST", f"/v1/ladder/bots/{self.bot_id}/ready",
                                                  token=self.token)
                if status == 401:
                    raise Revoked(str(answer))
                for line in self.ladder.lines(self.bot_id, self.token, self.bot.needs_view):
                    pause = 0.5
                    if line is not None and self.handle(line) and games and \
                            self.finished >= games:
                        return
            except (OSError, http.client.HTTPException, ValueError) as exc:
                say(f"stream broke ({exc}); again in {pause:.1f}s")
                time.sleep(pause)
                pause = min(5.0, pause * 2)

    def handle(self, line: dict[str, Any]) -> bool:
        """Act on one line; True when a game ended."""
        kind = line["type"]
        if kind == "prompt":
            self.answer(line)
        elif kind == "gameFinish":
            self.finished += 1
            won = line["winner"] == line["seat"]
            say(f"{line['game']}: {'won' if won else 'lost'} (seat {line['seat']}, scores "
                f"{line['scores']}); {self.finished} games")
            return True
        elif kind == "absent":
            self.ladder.call("POST", f"/v1/ladder/bots/{self.bot_id}/ready", token=self.token)
        elif kind == "revoked":
            raise Revoked(line.get("reason", ""))
        return False

    def answer(self, line: dict[str, Any]) -> None:
        game, version, seat = line["game"], line["version"], line["seat"]
        prompt = codec().decode_prompt(json.dumps(line["prompt"]).encode())
        seen = codec().decode_view(json.dumps(line["view"]).encode()) if "view" in line else None
        reseed(self.bot, game, seat, version)
        try:
            command = self.bot.choose(seen, prompt)
        except Exception as exc:  # a bot's bug: the default is always legal
            say(f"{game} v{version}: the bot failed ({exc}); sending the default")
            command = prompt.default
        for attempt, chosen in enumerate((command, prompt.default)):
            body = {"command": json.loads(codec().encode(chosen)), "expected_version": version,
                    "command_id": f"{game}:{version}:{attempt}"}
            status, answer = self.ladder.call("POST", f"/v1/ladder/games/{game}/commands",
                                              body, self.token)
            self.sent += 1
            if status == 401:
                raise Revoked(str(answer))
            if status != 422:
                return
            self.refused += 1
            say(f"{game} v{version}: refused ({answer.get('rule_id')}: {answer.get('message')})")
            if chosen == prompt.default:
                return


def say(text: str) -> None:
    print(f"ladder bot: {text}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    die_with_parent()  # started by `hexlog bench ladder`: it stops when the benchmark dies
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gateway", required=True, help="the gateway's base URL")
    ap.add_argument("--bot", default="heuristic",
                    help="random, heuristic, search, or name=package.module:Factory")
    ap.add_argument("--name", help="the bot's name on the ladder (registering)")
    ap.add_argument("--owner", default="", help="who answers for it (registering)")
    ap.add_argument("--rulesets", default="", help="the rule sets it plays, comma-separated "
                                                   "(default: every one)")
    ap.add_argument("--id", default="", help="a registered bot's id (with --token)")
    ap.add_argument("--token", default="", help="its token")
    ap.add_argument("--games", type=int, default=0, help="stop after this many games")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    ladder = Ladder(args.gateway)
    try:
        bot = make_bot(args.bot, args.seed)
    except ValueError as exc:
        ap.error(str(exc))
    bot_id, token = args.id, args.token
    if not token:
        if not args.name or not args.owner:
            ap.error("registering needs --name and --owner (or give --id and --token)")
        body = {"name": args.name, "owner": args.owner,
                "rulesets": [r for r in args.rulesets.split(",") if r]}
        status, answer = ladder.call("POST", "/v1/ladder/bots", body)
        if status != 201:
            print(f"ladder bot: cannot register: {answer.get('error', answer)}", file=sys.stderr)
            return 1
        bot_id, token = answer["bot"]["id"], answer["token"]
    print(json.dumps({"id": bot_id, "name": args.name or "", "token": token,
                      "bot": parse_bot_spec(args.bot)[0]}), flush=True)
    try:
        Player(ladder, bot, bot_id, token).play(args.games)
    except Revoked as exc:
        say(f"the token no longer acts ({exc}); stopping")
        return 3
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
