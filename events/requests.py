"""Requests to the rules service that are not moves in a game: creating a game.

They travel on the same partition command streams as moves (`kind=create` in the entry), so
creation is idempotent by `command_id` exactly like a move.
"""

from __future__ import annotations

import msgspec

from events.events import ModuleSpec


class CreateGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    command_id: str
    game_id: str
    seats: int = 4
    ruleset: str = "base"
    modules: tuple[ModuleSpec, ...] = ()
    names: tuple[str, ...] = ()
    # Who answers each seat's prompts: "bot:<pool>" (a bot worker pool) or "human:<name>".
    controllers: tuple[str, ...] = ()
    beginner: bool = False
    turn_limit: int = 0
    # The secret seed (hex). Normally the service draws it; a tournament organiser passes one
    # so that every seat rotation of a duplicate set replays the same dice and decks.
    seed: str | None = None
    # Decision deadline per prompt, in milliseconds (0: the service default).
    deadline_ms: int = 0
    tournament: str = ""
    tournament_index: int = -1
    # A fresh random key (64 hex digits) per request: the outcome carries the game's
    # credentials sealed with it (events/sealed.py), so only the requester can read them.
    reply_key: str = ""


class ForfeitSeat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An organiser's request: the seat's controller is gone for good (kind=forfeit)."""

    command_id: str
    game_id: str
    seat: int
    reason: str = "disconnected"
