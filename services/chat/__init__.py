"""Chat adapters: play hexlog from a chat room. Each is a client of the HTTP gateway like any
bot (no rules here); the platform-neutral part is `tables.py` (what a message does) and
`moves.py` (short text moves), a platform supplies `platform.ChatPlatform` (docs/chat.md).
`local_synapse.py` and `try_out.py` give `hexlog up --matrix --homeserver local` a throwaway
Matrix homeserver to try it on."""
