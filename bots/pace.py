"""How long a bot worker may hold an answer (`serve bots --pace-ms`), and why no longer.

A bot worker claims the prompts another worker read and left unanswered for ORPHAN_IDLE_MS
(a worker that died). A prompt held for the pace is unanswered too: held longer than that, the
worker holding it would claim it from itself and answer it twice (the second a refused
duplicate). So the pace stays a second below the claim.
"""

ORPHAN_IDLE_MS = 3_000
MAX_PACE_MS = ORPHAN_IDLE_MS - 1_000
