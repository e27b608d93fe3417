"""The ladder routes' request and response bodies (msgspec Structs; requests refuse unknown
fields). The public pages' JSON (`GET /v1/ladder`, a bot's, a game's) is made in
services/ladder/public.py and documented in docs/ladder.md."""

from __future__ import annotations

from typing import Annotated

import msgspec

from services.ladder.records import BotName, Owner, PublicBot

RuleSetKey = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class RegisterBot(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: BotName  # 3 to 32 letters, digits, `_`, `.`, `-`; taken for good
    owner: Owner  # who answers for the bot (shown on the ladder); one owner's bots never meet
    rulesets: Annotated[list[RuleSetKey], msgspec.Meta(max_length=32)] = []  # [] : every one


class Registered(msgspec.Struct, kw_only=True):
    """`POST /v1/ladder/bots`: the bot and its token (shown this once; stored hashed)."""

    bot: PublicBot
    token: str


class BotReady(msgspec.Struct, kw_only=True):
    """`POST` / `DELETE /v1/ladder/bots/{id}/ready`: the bot, and whether it is matched now."""

    bot: PublicBot
    ready: bool


class TokenRotated(msgspec.Struct, kw_only=True):
    """`POST /v1/ladder/bots/{id}/token`: the new token; the old one acts no more."""

    bot: PublicBot
    token: str


class BotRevoked(msgspec.Struct, kw_only=True):
    """`DELETE /v1/ladder/bots/{id}/token`: the bot, retired."""

    bot: PublicBot


class Refusal(msgspec.Struct, kw_only=True):
    command_id: str
    version: int
    rule_id: str
    message: str


class Refusals(msgspec.Struct, kw_only=True):
    """`GET /v1/ladder/games/{id}/refusals`: the bot's refused answers in that game, newest
    first."""

    refusals: list[Refusal]
