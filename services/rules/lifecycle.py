"""A game's beginning and a seat's end: creating games, forfeiting seats.

Both are organisers' requests: they arrive only on the organisers' command stream, which no bot
pool may write. A create request may carry a seed (a tournament that wants reproducible games);
otherwise the service draws one from the OS. The seed and the seats' credentials go to the
game's secret hash, which only the rules service's Redis user can read; meta keeps only their
commitment and hashes. The creator gets the credentials sealed with the request's reply key. A forfeit must also be signed with the referee's credential.
"""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime
from typing import cast

import structlog
from redis.asyncio import Redis

from events.codec import Codec
from events.envelope import EventEnvelope, schema_of
from events.events import SeatForfeited
from events.requests import CreateGame, ForfeitSeat
from events.sealed import check_reply_key, seal
from services.rules.config import ServiceConfig
from services.rules.engine import RULES_VERSION, RulesetError, new_game
from services.rules.moves import MovePipeline
from services.rules.prompting import FORFEIT, Prompter
from services.rules.repository import GameRepository, credential_hash
from services.store import EventStore
from services.store.keys import CONTROLLERS, ORGANISER, REFEREE_SCOPE, check_pool, game_keys
from services.store.results import GameExistsError

log = structlog.get_logger("hexlog.rules")

MIN_SEED_BYTES = 1  # an organiser who gives a seed chooses its strength
MAX_SEED_BYTES = 64
MIN_DEADLINE_MS = 100
MAX_DEADLINE_MS = 24 * 3600 * 1000


class CreateRefused(ValueError):
    """A create request the service will not carry out; the text says why."""


class Lifecycle:
    def __init__(self, redis: Redis, store: EventStore, repo: GameRepository, prompter: Prompter,
                 pipeline: MovePipeline, codec: Codec, config: ServiceConfig) -> None:
        self.redis = redis
        self.store = store
        self.repo = repo
        self.prompter = prompter
        self.pipeline = pipeline
        self.codec = codec
        self.config = config

    async def create(self, req: CreateGame) -> list[str]:
        """Create the game; returns the bot pools it seats (their command streams must be
        read). A refusal is the request's outcome (`service.create.invalid` / `.exists`)."""
        stood = await self.store.get_outcome(req.command_id, req.game_id, scope=ORGANISER)
        if stood is not None:
            # A redelivered request: its outcome stands. A replica killed after creating the
            # game and before its first prompt leaves a game nobody is asked to play: prompt
            # it again (a prompt answered twice is one command, by its id).
            if stood.get("status") == "created":
                await self.prompt_new(req.game_id)
            return []
        try:
            seed, controllers, turn_limit = self.checked(req)
            created = new_game(req.game_id, req.seats, seed, modules=req.modules, names=req.names,
                               ruleset=req.ruleset, beginner=req.beginner, turn_limit=turn_limit)
        except (CreateRefused, RulesetError, ValueError) as exc:
            await self.refuse(req, "service.create.invalid", str(exc))
            return []
        creds = [secrets.token_urlsafe(32) for _ in range(req.seats)]
        referee = secrets.token_urlsafe(32)  # the referee's commands and full views
        envelope = EventEnvelope(game_id=req.game_id, version=1, at=datetime.now(UTC).isoformat(),
                                 command_id=req.command_id, event=created, schema=schema_of(created),
                                 rules_version=RULES_VERSION)
        pools = sorted({c for c in controllers if c.startswith("bot:")})
        meta = {
            "ruleset": req.ruleset,
            "modules": self.codec.encode(req.modules).decode(),
            "seats": req.seats,
            "status": "live",
            "seed_sha256": created.seed_sha256,
            "cred_hashes": json.dumps([credential_hash(c) for c in creds]),
            "referee_hash": credential_hash(referee),
            "controllers": json.dumps(controllers),
            "deadline_ms": req.deadline_ms or self.config.deadline_ms,
            "tournament": req.tournament,
            "tournament_index": req.tournament_index,
        }
        secret = {"seed": seed.hex(), "credentials": json.dumps(creds), "referee": referee}
        if pools:  # before the game exists: its first prompt may be answered at once
            await self.redis.sadd(CONTROLLERS, *pools)
        # The creator gets the credentials in the outcome, sealed with the key only it and
        # this service have seen (events/sealed.py): other roles read outcomes too. Written by
        # the same script as the game: a replica killed in between would leave a game whose
        # redelivered request is refused as "exists".
        sealed = seal(req.reply_key, req.game_id, req.command_id,
                      {"credentials": creds, "referee": referee})
        try:
            await self.store.create_game(
                req.game_id, self.codec.encode(envelope),
                cast(dict[str, str | bytes | int | float], meta), secret=secret,
                command_id=req.command_id, outcome={"sealed": sealed, "version": 1})
        except GameExistsError as exc:
            await self.refuse(req, "service.create.exists", str(exc))
            return []
        await self.prompt_new(req.game_id)
        log.info("game created", game_id=req.game_id, seats=req.seats, ruleset=req.ruleset)
        return pools

    async def prompt_new(self, game_id: str) -> None:
        """The first prompt of a game still at version 1 (nothing played yet)."""
        slot = await self.repo.slot(game_id)
        if slot is None:
            return
        async with slot.lock:
            if slot.version == 1:
                await self.prompter.send(slot)

    def checked(self, req: CreateGame) -> tuple[bytes, list[str], int]:
        """The request's seed, controllers and turn limit, or CreateRefused saying which field
        is wrong."""
        if req.seed:
            try:
                seed = bytes.fromhex(req.seed)
            except ValueError:
                raise CreateRefused("seed: hex digits expected") from None
            if not MIN_SEED_BYTES <= len(seed) <= MAX_SEED_BYTES:
                raise CreateRefused(f"seed: {MIN_SEED_BYTES} to {MAX_SEED_BYTES} bytes "
                                    f"({2 * MIN_SEED_BYTES} to {2 * MAX_SEED_BYTES} hex digits)")
        else:
            seed = secrets.token_bytes(32)
        controllers = list(req.controllers) or ["human"] * req.seats
        if len(controllers) != req.seats:
            raise CreateRefused(f"controllers: {len(controllers)} for {req.seats} seats")
        for c in controllers:
            if c.startswith("bot:"):
                check_pool(c)
            elif c != "human" and not c.startswith("human:"):
                raise CreateRefused(f"controllers: {c!r} is neither bot:<pool> nor human[:<name>]")
        limit = req.turn_limit or self.config.max_turns
        if not 1 <= limit <= self.config.max_turns:
            raise CreateRefused(f"turn_limit: 1 to {self.config.max_turns} (0: the service's "
                                f"{self.config.max_turns})")
        if req.deadline_ms and not MIN_DEADLINE_MS <= req.deadline_ms <= MAX_DEADLINE_MS:
            raise CreateRefused(f"deadline_ms: {MIN_DEADLINE_MS} to {MAX_DEADLINE_MS} "
                                "(0: the service default)")
        try:
            check_reply_key(req.reply_key)
        except ValueError as exc:
            raise CreateRefused(str(exc)) from None
        return seed, controllers, limit

    async def refuse(self, req: CreateGame, rule_id: str, message: str) -> None:
        await self.pipeline.record_rejection(req.game_id, req.command_id, ORGANISER, 0, None,
                                             rule_id, message)

    async def forfeit(self, req: ForfeitSeat) -> None:
        """The organiser says a seat's controller is gone: record it, then play its defaults.
        The caller has checked the referee's signature."""
        slot = await self.repo.slot(req.game_id)
        if slot is None:
            return
        async with slot.lock:
            scope = REFEREE_SCOPE
            if await self.store.get_outcome(req.command_id, req.game_id, scope=scope) is not None:
                return
            if not 0 <= req.seat < slot.state.n or slot.state.finished:
                await self.pipeline.record_rejection(req.game_id, req.command_id, scope,
                                                     slot.version, req.seat,
                                                     "service.forfeit.invalid",
                                                     "no such seat, or the game is over")
                return
            # `controllers` says who plays each seat from now on; `seated` keeps who was
            # seated at creation (for game summaries and tournament results).
            meta = game_keys(req.game_id).meta
            await self.redis.hsetnx(meta, "seated", json.dumps(slot.controllers))
            slot.controllers[req.seat] = FORFEIT
            await self.redis.hset(meta, "controllers", json.dumps(slot.controllers))
            event = SeatForfeited(seat=req.seat, reason=req.reason)
            if await self.pipeline.commit(slot, req.command_id, scope, [event], 0.0):
                await self.pipeline.play_forfeited(slot)
