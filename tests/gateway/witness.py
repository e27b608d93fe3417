"""What an attack on the gateway must not disturb, watched while it runs: a person playing a
game through the gateway (their seat's stream, their moves by POST, from the trusted
127.0.0.1, a move every `pace` seconds against the heuristic bot; a new table when a game
ends), and `/health` asked ten times a second. `moved()` waits for the player's next accepted
move; `assert_healthy()` checks every health answer was a 200, none slower than FAST_S."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx

PREFER = ("BuildCity", "BuildSettlement", "PlaceSettlement", "PlaceRoad", "BuyDevelopmentCard",
          "BuildRoad", "RollDice")
# The slowest /health answer allowed while an attack runs: a liveness bound, not a speed goal
# (the attack's own blocking calls share this event loop on a shared 2-core box; the gateway's
# speed is measured by `hexlog bench`, not here).
FAST_S = 5.0


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


@dataclass
class Witness:
    base: str
    pace: float = 0.2
    moves: list[float] = field(default_factory=list)  # when each accepted move was answered
    refused: list[str] = field(default_factory=list)
    health: list[tuple[float, int]] = field(default_factory=list)  # (seconds, status)
    tables: list[str] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def play(self) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as http:
            while True:
                await self.one_game(http)

    async def one_game(self, http: httpx.AsyncClient) -> None:
        made = (await http.post("/v1/tables", json={"seats": 2, "deadline_ms": 120_000})).json()
        table, owner = made["table"]["id"], made["owner_token"]
        self.tables.append(table)
        joined = (await http.post(f"/v1/tables/{table}/join", json={"name": "witness"})).json()
        seat_token = {"Authorization": f"Bearer {joined['token']}"}
        r = await http.post(f"/v1/tables/{table}/start", json={"fill": "heuristic"},
                            headers={"Authorization": f"Bearer {owner}"})
        assert r.status_code == 200, r.text
        async with http.stream("GET", f"/v1/tables/{table}/stream", headers=seat_token,
                               timeout=None) as resp:
            assert resp.status_code == 200
            async for text in resp.aiter_lines():
                if not text.strip():
                    continue
                line = json.loads(text)
                if line["type"] == "event" and line["event"]["type"] == "GameFinished":
                    return
                if line["type"] != "prompt":
                    continue
                await asyncio.sleep(self.pace)
                body = {"command": choose(line["prompt"]), "expected_version": line["version"]}
                r = await http.post(f"/v1/tables/{table}/commands", json=body,
                                    headers=seat_token)
                if r.status_code == 200:
                    self.moves.append(time.monotonic())
                else:
                    self.refused.append(f"{r.status_code} {r.text[:200]}")

    async def probe(self) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=FAST_S * 3) as http:
            while True:
                began = time.monotonic()
                try:
                    status = (await http.get("/health")).status_code
                except httpx.HTTPError:
                    status = 0
                self.health.append((time.monotonic() - began, status))
                await asyncio.sleep(0.1)

    async def moved(self, timeout: float = 60.0) -> None:
        """Until the player's next move is accepted (an AssertionError after `timeout`)."""
        since = time.monotonic()
        until = since + timeout
        while not (self.moves and self.moves[-1] > since):
            for task in self.tasks:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    raise AssertionError("the witness stopped") from task.exception()
            assert time.monotonic() < until, f"no move accepted in {timeout}s: {self.refused}"
            await asyncio.sleep(0.05)

    def assert_healthy(self) -> None:
        assert len(self.health) >= 5, self.health
        statuses = {status for _, status in self.health}
        assert statuses == {200}, statuses
        seconds = [s for s, _ in self.health]
        assert max(seconds) < FAST_S, max(seconds)


@contextlib.asynccontextmanager
async def witnessed(base: str) -> AsyncIterator[Witness]:
    """A witness playing and probing from before the body of the `with` to its end; the
    game must be moving before the attack starts."""
    witness = Witness(base)
    witness.tasks = [asyncio.create_task(witness.play()), asyncio.create_task(witness.probe())]
    try:
        await witness.moved()
        yield witness
        await witness.moved()  # and after the attack
    finally:
        for task in witness.tasks:
            task.cancel()
        await asyncio.gather(*witness.tasks, return_exceptions=True)
