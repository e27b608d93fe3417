"""A bot and a ladder game as Redis holds them (JSON), and as anyone may see them."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from events.events import ModuleSpec
from services.ladder.keys import BOT_NAME

BotName = Annotated[str, msgspec.Meta(pattern=BOT_NAME)]
Owner = Annotated[str, msgspec.Meta(min_length=1, max_length=64,
                                    pattern=r"^[^\x00-\x1f\x7f]+$")]


class PublicBot(msgspec.Struct, kw_only=True):
    """A bot as anyone may see it."""

    id: str
    name: str
    owner: str
    rulesets: tuple[str, ...] = ()  # the rule sets it accepts (empty: every one)
    created_at: float = 0.0
    status: Literal["active", "revoked"] = "active"
    absent: bool = False  # missed too many deadlines in a row; out until it says ready again


class BotRecord(PublicBot, kw_only=True):
    """A bot as Redis holds it: what anyone may see, and what the ladder alone knows."""

    token: str = ""  # the SHA-256 of its current token ('' : revoked)
    creator: str = ""  # the client address that registered it ('' : trusted)
    absent_since: float = 0.0

    def public(self) -> PublicBot:
        return PublicBot(**{n: getattr(self, n) for n in PublicBot.__struct_fields__})

    def plays(self, ruleset: str) -> bool:
        return not self.rulesets or ruleset in self.rulesets

    def owner_key(self) -> str:
        """Owners compared without case or surrounding spaces."""
        return self.owner.strip().lower()


GameStatus = Literal["pending", "live", "finished", "void"]


class LadderGame(msgspec.Struct, kw_only=True):
    """A pod and its game: `pending` until a gateway has created it, `live`, then `finished`
    (`void`: the rules service refused to create it)."""

    id: str
    ruleset: str  # config.RuleSet.key
    modules: tuple[ModuleSpec, ...] = ()
    bots: tuple[str, ...]  # the bot id of each seat
    names: tuple[str, ...]  # their names, the seats' names in the game
    deadline_ms: int
    turn_limit: int = 0
    status: GameStatus = "pending"
    created_at: float = 0.0
    started_at: float | None = None
    finished_at: float | None = None
    winner: int | None = None
    # A duplicate set: games formed together on one seed, no bot in two of them.
    set_id: str = ""
    set_games: tuple[str, ...] = ()

    def seat_of(self, bot_id: str) -> int | None:
        """The seat `bot_id` plays (a bot never plays two seats of one game)."""
        return self.bots.index(bot_id) if bot_id in self.bots else None


def decode_bot(raw: bytes | str) -> BotRecord:
    return msgspec.json.decode(raw, type=BotRecord)


def decode_game(raw: bytes | str) -> LadderGame:
    return msgspec.json.decode(raw, type=LadderGame)
