"""`hexlog serve matrix`: the chat adapter on Matrix (matrix-nio), a client of the gateway.

The Matrix part is only this: log in, join the rooms the bot is invited to, hand each text
message to `ChatTables.on_message`, and do the four things `ChatPlatform` asks — a message in a
room, an image in a room (uploaded, `m.image`), a direct message (a private room made with
`is_direct`, one per player), a mention. Rooms are unencrypted (end-to-end encryption would need
libolm). A 429 from the homeserver is waited out and retried.

The bot's credentials come from the environment: `MATRIX_TOKEN` (an access token), or
`MATRIX_PASSWORD` to log in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import Any

import structlog
from nio import (
    AsyncClient,
    InviteMemberEvent,
    MatrixRoom,
    RoomCreateResponse,
    RoomMessageText,
    RoomSendResponse,
    UploadResponse,
)

from services.chat.gateway_client import GatewayClient
from services.chat.health import serve_health
from services.chat.tables import ChatTables, Settings

log = structlog.get_logger("hexlog.matrix")

SEND_TRIES = 8


class MatrixChat:
    """`ChatPlatform` on a logged-in nio client."""

    def __init__(self, client: AsyncClient) -> None:
        self.client = client
        self.dms: dict[str, str] = {}  # user -> their private room with the bot
        self.dm_rooms: set[str] = set()
        self.dm_lock = asyncio.Lock()

    async def send(self, room: str, content: dict[str, Any]) -> None:
        for _ in range(SEND_TRIES):
            resp = await self.client.room_send(room, "m.room.message", content,
                                               ignore_unverified_devices=True)
            if isinstance(resp, RoomSendResponse):
                return
            wait_ms = getattr(resp, "retry_after_ms", None)
            log.warning("send failed", room=room, error=str(resp)[:200])
            await asyncio.sleep((wait_ms or 500) / 1000)
        log.error("message dropped", room=room)

    async def say(self, room: str, text: str) -> None:
        await self.send(room, {"msgtype": "m.text", "body": text})

    async def picture(self, room: str, png: bytes, name: str) -> None:
        up, _ = await self.client.upload(lambda *_: png, content_type="image/png",
                                         filename=name, filesize=len(png))
        if not isinstance(up, UploadResponse):
            log.warning("upload failed", error=str(up)[:200])
            return
        await self.send(room, {"msgtype": "m.image", "body": name, "url": up.content_uri,
                               "info": {"mimetype": "image/png", "size": len(png)}})

    async def whisper(self, user: str, text: str) -> None:
        await self.say(await self.dm(user), text)

    async def whisper_picture(self, user: str, png: bytes, name: str) -> None:
        await self.picture(await self.dm(user), png, name)

    def mention(self, user: str) -> str:
        return user

    async def dm(self, user: str) -> str:
        async with self.dm_lock:
            room = self.dms.get(user)
            if room is None:
                resp = await self.client.room_create(is_direct=True, invite=[user])
                if not isinstance(resp, RoomCreateResponse):
                    raise RuntimeError(f"cannot open a direct room with {user}: {resp}")
                room = self.dms[user] = resp.room_id
                self.dm_rooms.add(room)
            return room


class MatrixAdapter:
    def __init__(self, client: AsyncClient, gateway: GatewayClient,
                 settings: Settings | None = None) -> None:
        self.client = client
        self.chat = MatrixChat(client)
        self.tables = ChatTables(self.chat, gateway, settings)
        self.handling: set[asyncio.Task[None]] = set()

    async def on_invite(self, room: MatrixRoom, event: InviteMemberEvent) -> None:
        if event.state_key != self.client.user_id:
            return
        await self.client.join(room.room_id)
        if event.content.get("is_direct"):
            self.chat.dms.setdefault(event.sender, room.room_id)
            self.chat.dm_rooms.add(room.room_id)
        log.info("joined", room=room.room_id, by=event.sender)

    async def on_text(self, room: MatrixRoom, event: RoomMessageText) -> None:
        if event.sender == self.client.user_id:
            return
        direct = room.room_id in self.chat.dm_rooms
        # Each message in a task of its own: a slow move must not hold up the sync loop.
        task = asyncio.create_task(self.tables.on_message(room.room_id, event.sender,
                                                          event.body, direct))
        self.handling.add(task)
        task.add_done_callback(self.handling.discard)

    async def run(self, stop: asyncio.Event) -> None:
        # One sync first, without callbacks: messages sent before we started are not commands.
        await self.client.sync(timeout=0, full_state=True)
        self.client.add_event_callback(self.on_invite, InviteMemberEvent)  # type: ignore[arg-type]
        self.client.add_event_callback(self.on_text, RoomMessageText)  # type: ignore[arg-type]
        for room_id, room in self.client.invited_rooms.items():
            await self.client.join(room_id)
            log.info("joined", room=room.room_id)
        syncing = asyncio.create_task(self.client.sync_forever(timeout=10_000))
        log.info("matrix adapter running", user=self.client.user_id)
        await stop.wait()
        syncing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await syncing
        await self.tables.close()


async def main(gateway_url: str, homeserver: str, user: str, settings: Settings,
               health_port: int = 0) -> None:
    from services.protocol import stop_on_sigterm

    stop = stop_on_sigterm()
    client = AsyncClient(homeserver, user)
    token = os.environ.get("MATRIX_TOKEN", "")
    if token:
        client.access_token = token
        client.user_id = user
    else:
        resp = await client.login(os.environ.get("MATRIX_PASSWORD", ""))
        if not getattr(resp, "access_token", None):
            raise SystemExit(f"hexlog: cannot log in to {homeserver} as {user}: {resp}")
    gateway = GatewayClient(gateway_url, os.environ.get("HEXLOG_GATEWAY_PUBLIC_URL", ""))
    health = await serve_health(health_port) if health_port else None
    try:
        await MatrixAdapter(client, gateway, settings).run(stop)
    finally:
        if health is not None:
            health.close()
        await gateway.close()
        await client.close()


def run(gateway_url: str, homeserver: str, user: str, settings: Settings | None = None,
        health_port: int = 0) -> None:
    homeserver = homeserver or os.environ.get("MATRIX_HOMESERVER", "")
    user = user or os.environ.get("MATRIX_USER", "")
    if not homeserver or not user:
        raise SystemExit("hexlog: serve matrix needs --homeserver and --matrix-user "
                         "(or MATRIX_HOMESERVER, MATRIX_USER) and MATRIX_TOKEN or "
                         "MATRIX_PASSWORD")
    for chatty in ("httpx", "httpcore", "nio"):  # a line per request or sync is noise here
        logging.getLogger(chatty).setLevel(max(logging.WARNING, logging.root.level))
    asyncio.run(main(gateway_url, homeserver, user, settings or Settings(), health_port))
