"""What an operator may tune in the rules service, in one place (`hexlog serve rules` flags and
`$HEXLOG_*` variables map onto it)."""

from __future__ import annotations

from dataclasses import dataclass

# The batched reader (`hexlog serve rules --read-lanes`) runs this many loops, each over its
# own share of the partitions. One loop judges a read, then waits for the round trip that
# appends it (a Valkey cycle and its fsync under `appendfsync always`) with nothing to do; with
# two, one judges while the other waits. At 32 games at full speed: 1.05-1.15x the commands/s of
# one loop, at 3-9% more rules CPU per command; at a player's pace, where reads are small,
# about 20% more (benchmarks/cost.md, "Sixth pass").
READ_LANES = 2


@dataclass(frozen=True)
class ServiceConfig:
    # A seat that does not answer a prompt within this gets its default move.
    deadline_ms: int = 30_000
    # A snapshot of the folded state every this many versions (a cache: loading a game folds
    # the snapshot and the events after it).
    snapshot_every: int = 100
    # Live games a rules service keeps folded in memory (some 100 KB each:
    # benchmarks/cost.md); beyond, the games used least recently are dropped and folded
    # again from their snapshot when a command comes. 0: no bound.
    games_in_memory: int = 4096
    # The turn limit of a game that asks for none, and the most a game may ask for: a game
    # whose seats have all forfeited still ends.
    max_turns: int = 1000
    # Default moves of forfeited seats played in one go before the game yields to the others
    # (the rest is scheduled through the deadline set, so no game can starve the service).
    forfeit_burst: int = 16
    # Pending entries idle this long belong to a dead consumer and are claimed.
    claim_idle_ms: int = 30_000
    # A command delivered more often than this is set aside (dead-lettered).
    max_deliveries: int = 5
    # Retention: handled entries older than this are trimmed from their streams (never one a
    # consumer group has not read and acknowledged).
    command_retention_ms: int = 60_000
    prompt_retention_ms: int = 600_000
    feed_retention_ms: int = 3_600_000
    # A finished game's secrets (its seed is public in GameFinished by then) are kept this long
    # for late contests and audits by the referee, then dropped.
    finished_secret_ttl_s: int = 24 * 3600
    # Dead letters keep at most this many bytes of each field of the bad entry.
    dead_letter_field_bytes: int = 2048
