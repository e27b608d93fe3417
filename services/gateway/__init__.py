"""The HTTP gateway: a lobby of tables, seats' commands by POST, and each seat's (or a
spectator's) game as a stream of NDJSON lines or Server-Sent Events (docs/chat.md,
docs/protocol.md §11). It is a client of the rules service like any bot: it reads logs through
the store and sends signed commands through services.client; it never decides a move.

app.py (the app and its server), routes.py (the routes), service.py (what they do),
messages.py (bodies), examples.py (the lobby answers' examples in the OpenAPI document),
errors.py (one-line errors), tables.py (the lobby in Redis), streams.py (a viewer's lines),
limits.py (rates, quotas, sizes), transport.py (the connection's limits), listening.py (the
line that says it serves)."""
