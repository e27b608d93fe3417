"""What the gateway does for the ladder's routes: bots registered and checked by their token,
their streams opened and kept, their answers signed for their seat, the pods made games.

One `LadderDesk` per gateway process. Its background tasks: the pod starter
(ladder_starter.py), a reader of the ladder's news (a game started: its bots' open streams
follow it; a bot absent or revoked: its streams are told), and a keeper that, every SEEN_EVERY_S,
says which bots' streams are open (the matchmaker matches only those), ends the streams of a
token revoked or rotated meanwhile, and makes each open stream follow its bot's running games
(whose news it may have missed).
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import RedisError

from events.codec import CodecError, codec
from events.envelope import CommandEnvelope
from services.client import ServiceError
from services.gateway.errors import Problem
from services.gateway.ladder_starter import PodStarter, credentials
from services.gateway.ladder_streams import BotStream, SeatLines
from services.gateway.limits import retry_text
from services.gateway.messages import CommandRequest, CommandResult
from services.gateway.service import COMMAND_RATE, COMMAND_WAIT_S, Gateway, Lease
from services.gateway.streams import KEEPALIVE_S, Line
from services.gateway.tables import Secrets
from services.ladder.absence import ladder_command_id
from services.ladder.config import LadderConfig, decode
from services.ladder.games import Games
from services.ladder.keys import CONFIG, NEWS, READY, is_bot_id, is_ladder_game, token_hash
from services.ladder.public import Public
from services.ladder.records import BotRecord, LadderGame
from services.ladder.registry import LadderError, Registry
from services.protocol import is_alive
from services.store.keys import check_id, game_keys, seat_scope

log = structlog.get_logger("hexlog.gateway")

SEEN_EVERY_S = 5.0
FOLLOW_CHECKED = 16  # a bot's newest games the keeper makes sure its open streams follow
SEATINGS_KEPT = 10_000
CONFIG_EVERY_S = 5.0
LISTING_CACHE_S = 1.0
REPLAYS_KEPT = 32
STOP_WAIT_S = 6.0  # the longest a loop takes to see the stop flag (a 5 s block or sleep)


@dataclass(frozen=True)
class Seating:
    """A live ladder game and the credentials its seats' answers are signed with."""

    game: LadderGame
    secrets: Secrets


def ladder_problem(exc: LadderError) -> Problem:
    return Problem(exc.status, str(exc), exc.retry_after)


class LadderDesk:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.redis: Redis = gateway.redis
        self.registry = Registry(self.redis)
        self.games = Games(self.redis)
        name = f"gw-{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:4]}"
        self.starter = PodStarter(self.redis, gateway.client, name)
        self.open: dict[str, set[tuple[BotStream, str]]] = {}  # bot id -> (stream, token hash)
        self.seatings: OrderedDict[str, Seating] = OrderedDict()
        self.tasks: list[asyncio.Task[None]] = []
        self.stopping = False
        self.config_at: tuple[float, LadderConfig | None] = (0.0, None)
        self.public = Public(self.redis)
        self.listing: tuple[float, dict[str, Any]] = (0.0, {})
        self.replays: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def start(self) -> None:
        self.tasks = [asyncio.create_task(t) for t in
                      (self.starter.run(), self.read_news(), self.keep())]

    async def stop(self) -> None:
        # The flag as well as the cancel: redis-py can turn a cancel that lands in a blocking
        # read into a connection error, which the loops retry; the flag ends them at their
        # next turn (a blocking read lasts 5 s at most). Seen: a gateway whose port was taken
        # never exited.
        self.starter.stopping = self.stopping = True
        for task in self.tasks:
            task.cancel()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=STOP_WAIT_S)

    # -- settings and bots -----------------------------------------------------------------

    async def config(self) -> LadderConfig:
        """The running ladder's settings (503 when no matchmaker has ever run here)."""
        at, known = self.config_at
        if known is None or time.monotonic() - at > CONFIG_EVERY_S:
            raw = await self.redis.get(CONFIG)
            known = None if raw is None else decode(raw)
            self.config_at = (time.monotonic(), known)
        if known is None:
            raise Problem(503, "ladder: no ladder runs on this server (`hexlog serve ladder`)",
                          5.0)
        return known

    async def caller(self, token: str, bot_id: str | None = None) -> BotRecord:
        """The bot `token` acts for (401: unknown, rotated or revoked); with `bot_id`, it
        must be that bot's (403)."""
        if bot_id is not None and not is_bot_id(bot_id):
            raise Problem(404, "bot: no such bot")
        bot = await self.registry.of_token(token)
        if bot is None:
            raise Problem(401, "authorization: unknown, rotated or revoked bot token")
        if bot_id is not None and bot.id != bot_id:
            raise Problem(403, "authorization: this token is for another bot")
        return bot

    async def register(self, name: str, owner: str, rulesets: list[str],
                       client: str) -> tuple[BotRecord, str]:
        config = await self.config()
        known = [r.key for r in config.rulesets]
        for i, key in enumerate(rulesets):
            if key not in known:
                raise Problem(422, f"rulesets[{i}]: the ladder plays {', '.join(known)}, "
                                   f"not {key[:60]!r}")
        try:
            bot, token = await self.registry.register(name, owner, tuple(dict.fromkeys(rulesets)),
                                                      client)
        except LadderError as exc:
            raise ladder_problem(exc) from None
        log.info("ladder bot registered", bot=bot.id, name=name, client=client)
        return bot, token

    async def ready(self, bot: BotRecord, ready: bool) -> BotRecord:
        try:
            return await self.registry.ready(bot.id, ready)
        except LadderError as exc:
            raise ladder_problem(exc) from None

    async def rotate(self, bot: BotRecord, token: str) -> tuple[BotRecord, str]:
        try:
            record, fresh = await self.registry.rotate(bot.id, token)
        except LadderError as exc:
            raise ladder_problem(exc) from None
        log.info("ladder bot token rotated", bot=bot.id)
        return record, fresh

    async def revoke(self, bot: BotRecord, token: str) -> BotRecord:
        record = await self.registry.revoke(bot.id, token)
        log.info("ladder bot revoked", bot=bot.id)
        return record

    async def is_ready(self, bot_id: str) -> bool:
        return await self.redis.zscore(READY, bot_id) is not None

    # -- games -----------------------------------------------------------------------------

    async def game(self, game_id: str) -> LadderGame:
        if not is_ladder_game(game_id):
            raise Problem(404, "game: no such ladder game")
        found = await self.games.get(game_id)
        if found is None or found.status == "void":
            raise Problem(404, "game: no such ladder game")
        return found

    async def seating(self, game_id: str) -> Seating:
        known = self.seatings.get(game_id)
        if known is not None:
            return known
        game = await self.game(game_id)
        if game.status == "pending":
            raise Problem(409, "game: not started yet")
        found = await credentials(self.redis, game_id)
        if found is None:
            raise Problem(503, "game: its credentials are missing")
        seating = self.seatings[game_id] = Seating(game, found)
        while len(self.seatings) > SEATINGS_KEPT:
            self.seatings.popitem(last=False)
        return seating

    async def command(self, game_id: str, token: str, data: CommandRequest,
                      wait: bool) -> CommandResult:
        """A bot's answer, signed for its seat of `game_id` and sent to the rules service;
        its outcome (as a table seat's command: docs/protocol.md §11)."""
        gw = self.gateway
        bot = await self.caller(token)
        later = gw.buckets.take("commands", token)
        seating = await self.seating(game_id)
        seat = seating.game.seat_of(bot.id)
        if seat is None:
            raise Problem(403, f"authorization: {bot.name} does not play {game_id}")
        if later and not await gw.first_answer(f"{token}|{game_id}", game_id,
                                               data.expected_version):
            raise Problem(429, f"{COMMAND_RATE}; {retry_text(later)}", later)
        try:
            command = codec().decode_command(msgspec.json.encode(data.command))
        except CodecError as exc:
            raise Problem(400, f"command: {exc}") from None
        if command.seat != seat:
            raise Problem(403, f"command.seat: {bot.name} plays seat {seat} of this game, "
                               f"not {command.seat}")
        given = data.command_id or f"lb-{uuid.uuid4().hex}"
        command_id = ladder_command_id(seat, given)
        try:
            check_id("command id", command_id)
        except ValueError:
            raise Problem(400, "command_id: printable, no spaces, at most 190 characters") \
                from None
        env = CommandEnvelope(command_id=command_id, game_id=game_id,
                              expected_version=data.expected_version, command=command)
        await gw.client.send(env, seating.secrets.seats[seat])
        if not wait:
            return CommandResult(status="pending", command_id=given)
        try:
            outcome = await gw.client.outcome(command_id, game_id, COMMAND_WAIT_S,
                                              scope=seat_scope(seat))
        except ServiceError:
            return CommandResult(status="pending", command_id=given)
        if outcome.get("status") == "accepted":
            return CommandResult(status="accepted", command_id=given,
                                 version=int(outcome.get("to", 0)))
        return CommandResult(status="rejected", command_id=given,
                             version=int(outcome.get("version") or 0),
                             rule_id=str(outcome.get("rule_id", "")),
                             message=str(outcome.get("message", "")))

    async def refusals(self, game_id: str, bot: BotRecord, count: int) -> list[dict[str, Any]]:
        """The newest refusals of the bot's answers in `game_id` (its seat's rulings: the rule
        and why, never another seat's)."""
        seating = await self.seating(game_id)
        seat = seating.game.seat_of(bot.id)
        if seat is None:
            raise Problem(403, f"authorization: {bot.name} does not play {game_id}")
        found = cast(list[Any], await self.redis.xrevrange(game_keys(game_id).rulings, "+", "-",
                                                           count=500))
        prefix = f"s{seat}:"
        out: list[dict[str, Any]] = []
        for _, fields in found:
            text = {k.decode(): v.decode(errors="replace") for k, v in fields.items()}
            command_id = text.get("command_id", "")
            if text.get("seat") != str(seat) or not command_id.startswith(prefix):
                continue
            out.append({"command_id": command_id[len(prefix):],
                        "version": int(text.get("version") or 0),
                        "rule_id": text.get("rule_id", ""), "message": text.get("message", "")})
            if len(out) >= count:
                break
        return out

    # -- what anyone sees ------------------------------------------------------------------

    async def overview(self) -> dict[str, Any]:
        """`GET /v1/ladder` (made at most once a second per process, however many ask)."""
        at, known = self.listing
        if not known or time.monotonic() - at > LISTING_CACHE_S:
            known = await self.public.overview(await self.config(),
                                               await is_alive(self.redis, "ladder"))
            self.listing = (time.monotonic(), known)
        return known

    async def check_shown(self, game: LadderGame) -> None:
        """409 for a game of a duplicate set some game of which still runs: they share their
        dice, so a spectator of one would see another's future."""
        if not game.set_id:
            return
        others = await self.games.many([g for g in game.set_games if g != game.id])
        if any(g.status in ("pending", "live") for g in others):
            raise Problem(409, "game: it shares its board and dice with games still running "
                               "(a duplicate set); watch it once they are over", 30.0)

    def spectate(self, game: LadderGame, lease: Lease,
                 after: int | None) -> AsyncIterator[list[Line]]:
        async def lines() -> AsyncIterator[list[Line]]:
            try:
                async for batch in SeatLines(self.redis, self.gateway.watches, game, None,
                                             after, prompt_views=False).lines():
                    yield batch
            finally:
                lease.release()

        return lines()

    async def replay(self, game: LadderGame) -> bytes:
        """The spectator's replay page of the game so far (kept per version)."""
        from services.render.page import replay_page
        from services.render.replay import Viewer
        from services.rules.record import load_record

        version = await self.gateway.client.store.version(game.id)
        cached = self.replays.get((game.id, version))
        if cached is not None:
            return cached
        record = await load_record(self.gateway.client.store, game.id)
        body = (await asyncio.to_thread(replay_page, record, Viewer())).encode()
        self.replays[(game.id, version)] = body
        while len(self.replays) > REPLAYS_KEPT:
            self.replays.popitem(last=False)
        return body

    # -- streams ---------------------------------------------------------------------------

    async def bot_stream(self, bot: BotRecord, token: str, lease: Lease, *, views: bool,
                         events: bool) -> AsyncIterator[list[Line]]:
        """The bot's one stream (ladder_streams.py); the lease is released when it ends."""
        stream = BotStream(self.redis, self.gateway.watches, bot, views=views, events=events)
        entry = (stream, token_hash(token))
        self.open.setdefault(bot.id, set()).add(entry)
        try:
            await self.registry.seen([bot.id])
            live = [g for g in await self.games.of_bot(bot.id, 50) if g.status == "live"]
            for game in live:
                stream.follow(game)
            first = {"type": "welcome", "bot": msgspec.to_builtins(bot.public()),
                     "ready": await self.is_ready(bot.id), "absent": bot.absent,
                     "games": [g.id for g in live], "keepalive_s": KEEPALIVE_S}
            log.info("ladder stream opened", bot=bot.id, games=len(live))
            async for batch in stream.lines(first):
                yield batch
        finally:
            held = self.open.get(bot.id, set())
            held.discard(entry)
            if not held:
                self.open.pop(bot.id, None)
            await stream.close()
            lease.release()

    async def read_news(self) -> None:
        last = ""  # the stream's last entry when this reader starts (not "$": an entry added
        while not self.stopping:  # between two blocking reads that timed out would be missed)
            try:
                if not last:
                    top = cast(list[Any], await self.redis.xrevrange(NEWS, "+", "-", count=1))
                    last = top[0][0].decode() if top else "0-0"
                found = cast(list[Any], await self.redis.xread({NEWS: last}, count=100,
                                                               block=5000))
                for _, entries in found or []:
                    for entry_id, fields in entries:
                        last = entry_id.decode()
                        await self.tell({k.decode(): v.decode() for k, v in fields.items()})
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError):
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("ladder news: an entry could not be read")

    async def tell(self, news: dict[str, str]) -> None:
        kind = news.get("kind")
        if kind == "start":
            game = await self.games.get(news.get("game", ""))
            if game is not None:
                for bot in game.bots:
                    for stream, _ in self.open.get(bot, set()):
                        stream.follow(game)
        elif kind == "absent":
            for stream, _ in self.open.get(news.get("bot", ""), set()):
                stream.say({"type": "absent", "misses": int(news.get("misses") or 0),
                            "next": "say ready again: POST /v1/ladder/bots/{id}/ready"})
        elif kind == "revoked":
            for stream, _ in list(self.open.get(news.get("bot", ""), set())):
                stream.end({"type": "revoked", "reason": "the bot's token was revoked"})

    async def keep(self) -> None:
        while not self.stopping:
            await asyncio.sleep(SEEN_EVERY_S)
            try:
                bots = list(self.open)
                await self.registry.seen(bots)
                records = await self.registry.bots(bots)
                for bot_id in bots:
                    record = records.get(bot_id)
                    # The news of a start can be missed (this gateway busy or restarting, Redis
                    # gone a moment): each open stream follows its bot's running games anyway.
                    live = [g for g in await self.games.of_bot(bot_id, FOLLOW_CHECKED)
                            if g.status == "live"]
                    for stream, held in list(self.open.get(bot_id, set())):
                        if record is None or record.status != "active":
                            stream.end({"type": "revoked", "reason": "the bot was revoked"})
                        elif record.token != held:
                            stream.end({"type": "revoked", "reason": "the token was rotated"})
                        else:
                            for game in live:
                                stream.follow(game)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("ladder keeper: Redis did not answer", exc_info=True)
