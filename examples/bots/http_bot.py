"""A hexlog bot that knows only the gateway's HTTP API (docs/protocol.md §11): the Python
standard library, no hexlog import, no Redis.

    python http_bot.py --gateway http://127.0.0.1:8080 --table t-1234 --name plainhttp

It takes a seat (or uses `--token`), reads its seat's NDJSON stream, and answers each `prompt`
line with a POST of one of the prompt's options: build what it can (city, settlement,
development card, road), otherwise the first legal option; when the prompt lists none (a
discard) it sends the prompt's `default`. The stream is the whole truth: the first line is the
seat's full view, then events and prompts; the bot reconnects with `?after=` if the stream
breaks. At the end it prints one JSON line: the seat, the moves it sent, the winner.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

PREFER = ("BuildCity", "BuildSettlement", "PlaceSettlement", "PlaceRoad", "BuyDevelopmentCard",
          "BuildRoad", "RollDice")


def call(base: str, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
    """One request; past a rate limit (429) it waits what `Retry-After` says and asks again."""
    data = None if body is None else json.dumps(body).encode()
    while True:
        req = urllib.request.Request(base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.load(resp)
        except urllib.error.HTTPError as exc:
            if exc.code != 429:
                return exc.code, json.load(exc)
            time.sleep(float(exc.headers.get("Retry-After") or 1))


def choose(prompt: dict[str, Any]) -> dict[str, Any]:
    options = prompt["options"]
    if not options:
        return dict(prompt["default"])
    for kind in PREFER:
        for option in options:
            if option["type"] == kind:
                return dict(option)
    ends = [o for o in options if o["type"] == "EndTurn"]
    return dict(ends[0] if ends else options[0])


def lines(base: str, table: str, token: str, after: int | None) -> Any:
    """The seat's stream, one decoded line at a time (None for a keep-alive)."""
    query = "" if after is None else f"?after={after}"
    req = urllib.request.Request(f"{base}/v1/tables/{table}/stream{query}")
    req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=60) as resp:
        for raw in resp:
            text = raw.strip()
            yield json.loads(text) if text else None


def play(base: str, table: str, token: str, seat: int) -> dict[str, Any]:
    sent = 0
    refused = 0
    why: list[str] = []  # the first refusals, in the result line
    version = None
    winner = None
    while winner is None:
        try:
            for line in lines(base, table, token, version):
                if line is None:
                    continue
                if line["type"] == "gameFull":
                    version = line["version"]
                elif line["type"] == "event":
                    version = line["version"]
                    if line["event"]["type"] == "GameFinished":
                        winner = line["event"]["winner"]
                        return {"seat": seat, "sent": sent, "refused": refused, "winner": winner,
                                "reason": line["event"]["reason"], "refusals": why[:5]}
                elif line["type"] == "prompt":
                    command = choose(line["prompt"])
                    body = {"command": command, "expected_version": line["version"],
                            "command_id": f"httpbot:{table}:{line['version']}:{seat}"}
                    status, answer = call(base, "POST", f"/v1/tables/{table}/commands", body,
                                          token)
                    sent += 1
                    # 202: sent, its outcome not known yet (the stream will show it)
                    if status not in (200, 202):
                        refused += 1
                        why.append(f"{status} {answer}"[:300])
                        print(f"refused: {status} {answer}", file=sys.stderr, flush=True)
        except (OSError, ValueError) as exc:  # a broken stream: reconnect where we were
            print(f"stream broke ({exc}); reconnecting after v{version}", file=sys.stderr)
            time.sleep(0.5)
    return {"seat": seat, "sent": sent, "refused": refused, "winner": winner}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gateway", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--name", default="httpbot")
    ap.add_argument("--token", default="", help="a seat token you have (else: join a seat)")
    ap.add_argument("--seat", type=int, default=None)
    args = ap.parse_args()
    base = args.gateway.rstrip("/")
    token, seat = args.token, args.seat
    if not token:
        body = {"name": args.name} | ({} if seat is None else {"seat": seat})
        status, joined = call(base, "POST", f"/v1/tables/{args.table}/join", body)
        if status not in (200, 201):
            print(f"cannot join: {joined.get('error', joined)}", file=sys.stderr)
            return 1
        token, seat = joined["token"], joined["seat"]
        print(json.dumps({"joined": seat}), flush=True)
    print(json.dumps(play(base, args.table, token, seat)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
