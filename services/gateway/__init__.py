"""The HTTP gateway: a lobby of tables, seats' commands by POST, and each seat's (or a
spectator's) game as a stream of NDJSON lines or Server-Sent Events (docs/chat.md,
docs/protocol.md §11). It is a client of the rules service like any bot: it reads logs through
the store and sends signed commands on the organisers' stream; it never decides a move."""
