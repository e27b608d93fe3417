"""How long a bot worker may hold an answer (`serve bots --pace-ms`), and why no longer.

A bot worker claims the prompts another worker read and left unanswered for ORPHAN_IDLE_MS
(a worker that died). A prompt held for the pace is unanswered too: held longer than that, the
worker holding it would claim it from itself and answer it twice (the second a refused
duplicate). A pace of P holds a prompt up to 1.5·P (each hold is drawn between P/2 and 3P/2),
so the longest pace keeps that under the claim's idle time with most of a second to spare.
"""

ORPHAN_IDLE_MS = 3_000
MAX_PACE_MS = 1_500  # holds of at most 2,250 ms
HOLD_SPREAD = (0.5, 1.5)  # a hold is the pace times a number drawn in this range
