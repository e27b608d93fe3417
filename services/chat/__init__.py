"""Chat adapters: play hexlog from a chat room. Each is a client of the HTTP gateway like any
bot (no rules here); the platform-neutral part is `tables.py` (what a message does) and
`moves.py` (short text moves), a platform supplies `platform.ChatPlatform` (docs/chat.md)."""
