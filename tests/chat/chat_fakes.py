"""A chat platform and a gateway without a network, for the room logic's tests: the platform
keeps what was said where; the gateway answers in its one shape (the table under `table`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from services.chat.gateway_client import GatewayClient

Json = dict[str, Any]


class FakeChat:
    def __init__(self) -> None:
        self.room: list[tuple[str, str]] = []
        self.private: list[tuple[str, str]] = []
        self.pictures: list[str] = []
        self.private_pictures: list[tuple[str, str]] = []
        self.private_pngs: list[bytes] = []

    async def say(self, room: str, text: str) -> None:
        self.room.append((room, text))

    async def picture(self, room: str, png: bytes, name: str) -> None:
        self.pictures.append(room)

    async def whisper(self, user: str, text: str) -> None:
        self.private.append((user, text))

    async def whisper_picture(self, user: str, png: bytes, name: str) -> None:
        self.private_pictures.append((user, name))
        self.private_pngs.append(png)

    def mention(self, user: str) -> str:
        return f"<{user}>"


TABLE = {"id": "t-1", "status": "open", "seats": [{"kind": "open", "name": "", "pool": ""}] * 2}
REFUSED = {"status": "rejected", "rule_id": "base.build.city", "message": "no settlement"}


class FakeGateway(GatewayClient):
    """The gateway's answers, in its one shape (the table under `table`), without a network."""

    def __init__(self, lines: list[Json], outcome: Json | None = None) -> None:
        super().__init__("http://gateway.invalid")
        self.script = lines
        self.sent: list[Json] = []
        self.outcome = outcome or REFUSED
        self.marked: list[list[tuple[str, int]]] = []  # the places of each board asked for

    async def create(self, seats: int, modules: list[Json], deadline_ms: int) -> Json:
        return {"table": TABLE, "owner_token": "owner"}

    async def join(self, table: str, name: str) -> Json:
        return {"table": TABLE, "seat": 0, "token": "seat-0"}

    async def table(self, table: str) -> Json:
        return {"table": TABLE}

    async def start(self, table: str, owner: str, fill: str) -> Json:
        seats = [{"kind": "human", "name": "ann", "pool": ""},
                 {"kind": "bot", "name": f"{fill}1", "pool": fill}]
        return {"table": {**TABLE, "status": "live", "seats": seats}}

    async def lines(self, table: str, token: str = "", views: bool = False
                    ) -> AsyncIterator[Json]:
        for line in self.script:
            yield line

    async def board_png(self, table: str, marks: list[tuple[str, int]] | None = None) -> bytes:
        self.marked.append(list(marks or []))
        return b"\x89PNG"

    async def command(self, table: str, token: str, command: Json, version: int,
                      command_id: str) -> Json:
        self.sent.append(command)
        return {"command_id": command_id, **self.outcome}
