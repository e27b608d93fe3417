"""What a chat platform must do for `tables.ChatTables`: five calls. Matrix's is matrix.py; a
Discord or Slack adapter is one more module like it (docs/chat.md)."""

from __future__ import annotations

from typing import Protocol


class ChatPlatform(Protocol):
    async def say(self, room: str, text: str) -> None:
        """A message everyone in the room reads."""

    async def picture(self, room: str, png: bytes, name: str) -> None:
        """An image in the room."""

    async def whisper(self, user: str, text: str) -> None:
        """A message only `user` reads (a direct message)."""

    async def whisper_picture(self, user: str, png: bytes, name: str) -> None:
        """An image only `user` sees (in their direct messages)."""

    def mention(self, user: str) -> str:
        """How to name `user` in a room message so they are notified."""
