"""The gateway's HTTP API as a chat adapter uses it (httpx): the lobby, commands, streams,
pictures. Nothing here knows a rule: commands and prompts are JSON objects passed through.
The lobby's answers are the gateway's as they are: each holds the table as `table`
(docs/protocol.md §11), beside `owner_token`, or `seat` and `token`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

Json = dict[str, Any]


class GatewayError(RuntimeError):
    """The gateway refused a request; the text is its one-line error."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


@dataclass
class GatewayClient:
    base: str
    public: str = ""  # the URL players' browsers reach (links); default `base`

    def __post_init__(self) -> None:
        self.base = self.base.rstrip("/")
        self.public = (self.public or self.base).rstrip("/")
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30,
                                      limits=httpx.Limits(max_connections=None))

    async def close(self) -> None:
        await self.http.aclose()

    async def call(self, method: str, path: str, body: Json | None = None, token: str = "",
                   params: dict[str, str] | None = None) -> Json:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = await self.http.request(method, path, json=body, headers=headers, params=params)
        data: Json = r.json() if r.content else {}
        # A 422 with a `status` is a command's outcome (rejected, with its rule): an answer.
        if r.status_code >= 400 and not (r.status_code == 422 and "status" in data):
            raise GatewayError(r.status_code, str(data.get("error", r.text))[:300])
        return data

    async def create(self, seats: int, modules: list[Json], deadline_ms: int) -> Json:
        return await self.call("POST", "/v1/tables", {"seats": seats, "modules": modules,
                                                      "deadline_ms": deadline_ms})

    async def join(self, table: str, name: str) -> Json:
        return await self.call("POST", f"/v1/tables/{table}/join", {"name": name})

    async def leave(self, table: str, token: str) -> Json:
        return await self.call("POST", f"/v1/tables/{table}/leave", token=token)

    async def start(self, table: str, owner: str, fill: str) -> Json:
        return await self.call("POST", f"/v1/tables/{table}/start", {"fill": fill}, owner)

    async def table(self, table: str) -> Json:
        return await self.call("GET", f"/v1/tables/{table}")

    async def command(self, table: str, token: str, command: Json, version: int,
                      command_id: str) -> Json:
        """The outcome: `status` accepted or rejected (with `rule_id`, `message`), or
        pending."""
        return await self.call("POST", f"/v1/tables/{table}/commands",
                               {"command": command, "expected_version": version,
                                "command_id": command_id}, token)

    async def board_png(self, table: str, marks: list[tuple[str, int]] | None = None) -> bytes:
        """The board as a spectator sees it; `marks`: places (`vertex`, `edge`, `hex` and an
        id) drawn with their labels (what a prompt offers)."""
        params = {"mark": ",".join(f"{k}:{i}" for k, i in marks)} if marks else None
        r = await self.http.get(f"/v1/tables/{table}/board.png", params=params)
        if r.status_code != 200:
            raise GatewayError(r.status_code, r.text[:300])
        return r.content

    def replay_url(self, table: str) -> str:
        return f"{self.public}/v1/tables/{table}/replay.html"

    async def lines(self, table: str, token: str = "", views: bool = False) -> AsyncIterator[Json]:
        """A seat's (or, without a token, a spectator's) stream, reconnecting where it broke,
        until the game's last event."""
        after: int | None = None
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        while True:
            params = {"views": "true"} if views else {}
            if after is not None:
                params["after"] = str(after)
            try:
                async with self.http.stream("GET", f"/v1/tables/{table}/stream", headers=headers,
                                            params=params, timeout=None) as resp:
                    if resp.status_code != 200:
                        raise GatewayError(resp.status_code, (await resp.aread()).decode()[:300])
                    async for text in resp.aiter_lines():
                        if not text.strip():
                            continue
                        line: Json = json.loads(text)
                        if line["type"] in ("event", "gameFull"):
                            after = int(line["version"])
                        yield line
                        if line["type"] == "event" and line["event"]["type"] == "GameFinished":
                            return
            except (httpx.TransportError, json.JSONDecodeError):
                await asyncio.sleep(1.0)
