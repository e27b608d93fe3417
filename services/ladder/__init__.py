"""The bot ladder: bots from anywhere register over HTTP, say they are ready, and play rated
games around the clock against whoever else is ready (docs/ladder.md).

Who does what: the matchmaker (`hexlog serve ladder`, matchmaker.py) forms pods of ready bots
by rating and writes them down; the gateway (services/gateway/ladder_*.py) registers bots,
creates the pods' games through the rules service, streams each bot its games' prompts and
signs its answers; the projector keeps the ratings (projection.py) from finished games in the
log. The matchmaker holds no game credential and writes no command stream: see keys.py.

keys.py (the ladder's Redis keys), records.py (bots and games as stored), config.py (the
ladder's settings and rule sets), registry.py (bots: registration, tokens, readiness),
games.py (pods and their games in Redis), matchmaking.py (who plays whom: pure), absence.py
(missed deadlines, from the feeds), matchmaker.py (the process), ratings.py (openskill
boards), projection.py (the ratings as a projection), public.py (what the public pages show),
pages.py and live_page.py (the HTML), player.py (hexlog's bots as ladder bots over HTTP).
"""
