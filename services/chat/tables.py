"""What a chat message does, whatever the platform: the `!catan` lobby commands, moves as
short text, and a game's news back to the room (a few lines and a board picture per turn) and
to each player privately (their hand and their prompts, deadline warnings).

One `ChatGame` per room: a table of the gateway, its owner token, the players' seat tokens.
The room follows the spectator's stream; each player's seat stream feeds their private
messages. Everything a player may do goes through the gateway with their seat token, so the
adapter can act only for the seats its players took; the rules service judges every move.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import structlog

from services.chat.gateway_client import GatewayClient, GatewayError
from services.chat.moves import (
    NOTHING_WAITS,
    MoveError,
    describe,
    help_text,
    parse,
    targets,
    words_of,
)
from services.chat.platform import ChatPlatform
from services.chat.words import hand_text, places_of, said
from services.render.phases import phase_words
from services.render.places import Places

log = structlog.get_logger("hexlog.chat")

Json = dict[str, Any]
PREFIX = "!catan"
MAX_OPTIONS_SHOWN = 15
MAX_TEXT = 500  # longer messages are not commands
STALE = "service.stale"  # the rule of a command sent for a version the game has left

LOBBY_HELP = f"""{PREFIX} new [--variant NAME[:k=v]] [--seats N] [--deadline SECONDS]: a new table here
{PREFIX} join · {PREFIX} start [--bots POOL] (the creator or a player; empty seats get bots) · {PREFIX} leave
{PREFIX} hand (by direct message) · {PREFIX} board · {PREFIX} replay
{PREFIX} contest COMMAND_ID WHY: ask the rules service to judge a ruling again
Moves: `!roll`, `!road F2-3`, … in the room, or without `!` in your direct messages."""


@dataclass
class Player:
    user: str
    seat: int
    token: str
    prompt: Json | None = None
    prompt_version: int = -1
    prompt_deadline: int | None = None  # ms since the epoch
    version: int = 0
    view: Json | None = None
    hand_said: str = ""


@dataclass
class ChatGame:
    room: str
    table: str
    owner: str  # the table's owner token
    seats: int
    creator: str = ""  # the chat user who made the table (with the seated players, may start it)
    players: dict[str, Player] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    started: bool = False
    finished: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    turn_lines: list[str] = field(default_factory=list)
    last_picture: float = 0.0
    picture_task: asyncio.Task[None] | None = None
    places: Places | None = None  # the board's places, once a view has shown the board


@dataclass
class Settings:
    fill: str = "heuristic"  # the bot pool of empty seats
    deadline_ms: int = 120_000
    warn_s: float = 15.0  # warn this long before a deadline plays the default
    picture_every_s: float = 2.0  # at most one board picture this often per room


class ChatTables:
    def __init__(self, chat: ChatPlatform, gateway: GatewayClient,
                 settings: Settings | None = None) -> None:
        self.chat = chat
        self.gateway = gateway
        self.settings = settings or Settings()
        self.games: dict[str, ChatGame] = {}

    async def close(self) -> None:
        for game in self.games.values():
            for task in game.tasks:
                task.cancel()

    # -- messages --------------------------------------------------------------------------

    async def on_message(self, room: str, user: str, text: str, direct: bool) -> None:
        """A message from `user` in `room` (`direct`: in their private room with us)."""
        text = text.strip()
        if not text or len(text) > MAX_TEXT:
            return
        try:
            if text.split()[0].lower() == PREFIX:
                await self.lobby(room, user, text.split()[1:], direct)
            elif direct:
                game = self.game_of(user)
                if game is None:
                    await self.chat.whisper(user, "You sit at no game now: `!catan join` in a "
                                                  "room with a table takes a seat.")
                else:
                    await self.move(game, user, text, None)
            elif text.startswith("!") and room in self.games and user in self.games[room].players:
                await self.move(self.games[room], user, text[1:], room)
        except GatewayError as exc:
            await self.reply(room, user, direct, f"✗ {refusal_text(exc)}")

    async def reply(self, room: str, user: str, direct: bool, text: str) -> None:
        if direct:
            await self.chat.whisper(user, text)
        else:
            await self.chat.say(room, f"{self.chat.mention(user)}: {text}")

    def game_of(self, user: str) -> ChatGame | None:
        for game in reversed(list(self.games.values())):
            if user in game.players and not game.finished:
                return game
        return None

    async def lobby(self, room: str, user: str, words: list[str], direct: bool) -> None:
        verb = words[0].lower() if words else "help"
        game = self.games.get(room)
        if verb == "help" or (direct and verb not in ("hand",)):
            await self.reply(room, user, direct, LOBBY_HELP + "\n" + help_text())
            return
        if verb == "new":
            await self.new(room, user, words[1:])
            return
        if verb == "hand":  # always by direct message, whichever room asked
            mine = self.game_of(user)
            player = mine.players.get(user) if mine is not None else None
            if player is None or player.view is None:
                await self.chat.whisper(user, "You have no hand yet: it comes once a game you "
                                              "sit at starts.")
            else:
                await self.chat.whisper(user, hand_text(player.view, player.seat))
            return
        if game is None:
            await self.reply(room, user, direct, f"There is no table in this room: "
                                                 f"`{PREFIX} new` makes one.")
            return
        if verb == "join":
            await self.join(game, user)
        elif verb == "start":
            await self.start(game, user, words[1:])
        elif verb == "leave":
            player = game.players.get(user)
            if player is None:
                await self.reply(room, user, direct, "You hold no seat at this table, so "
                                                     "there is none to leave.")
                return
            await self.gateway.leave(game.table, player.token)
            del game.players[user]
            await self.chat.say(room, f"{self.chat.mention(user)} left seat {player.seat}")
        elif verb == "board":
            await self.post_picture(game, force=True)
        elif verb == "replay":
            await self.chat.say(room, f"📼 replay of {game.table}: "
                                      f"{self.gateway.replay_url(game.table)}")
        elif verb == "contest":
            await self.contest(game, user, words[1:])
        else:
            await self.reply(room, user, direct, f"`{PREFIX} {verb}` is not a command; "
                                                 f"`{PREFIX} help` lists them.")

    # -- the lobby -------------------------------------------------------------------------

    async def new(self, room: str, user: str, args: list[str]) -> None:
        running = self.games.get(room)
        if running is not None and not running.finished and not await self.expired(running):
            await self.reply(room, user, False, f"A game is on in this room "
                                                 f"({running.table}): a new table can be made "
                                                 "once it ends.")
            return
        modules: list[Json] = []
        seats, deadline_ms = 4, self.settings.deadline_ms
        try:
            it = iter(args)
            for flag in it:
                value = next(it, "")
                if flag == "--variant":
                    modules.append(variant(value))
                elif flag == "--seats" and value.isdigit():
                    seats = int(value)
                elif flag == "--deadline" and value.isdigit():
                    deadline_ms = int(value) * 1000
                else:
                    raise ValueError(f"`{' '.join(filter(None, (flag, value)))}` is not an "
                                     f"option of `{PREFIX} new`: it takes --variant NAME[:k=v], "
                                     "--seats N and --deadline SECONDS.")
        except ValueError as exc:
            await self.reply(room, user, False, f"✗ {exc}")
            return
        made = await self.gateway.create(seats, modules, deadline_ms)
        table = made["table"]["id"]
        self.games[room] = ChatGame(room=room, table=table, owner=made["owner_token"],
                                    seats=seats, creator=user)
        names = ", ".join(m["name"] for m in modules) or "the base game"
        await self.chat.say(room, f"🎲 new table {table} ({names}, {seats} seats): "
                                  f"`{PREFIX} join` to sit, `{PREFIX} start` to play "
                                  "(empty seats get bots)")
        log.info("chat table", room=room, table=table, by=user)

    async def join(self, game: ChatGame, user: str) -> None:
        if user in game.players:
            await self.reply(game.room, user, False, f"You sit at this table already "
                                                      f"(seat {game.players[user].seat}).")
            return
        name = user.lstrip("@").split(":", 1)[0][:40] or "player"
        joined = await self.gateway.join(game.table, name)
        player = Player(user=user, seat=int(joined["seat"]), token=str(joined["token"]))
        game.players[user] = player
        await self.chat.say(game.room, f"{self.chat.mention(user)} sits at seat {player.seat}")
        await self.chat.whisper(user, f"You sit at seat {player.seat} of {game.table}. Your "
                                      "hand and your moves come here, to you alone.")

    async def expired(self, game: ChatGame) -> bool:
        """Whether an unstarted table is gone from the gateway (open tables expire there)."""
        if game.started:
            return False
        try:
            await self.gateway.table(game.table)
        except GatewayError as exc:
            return exc.status == 404
        return False

    async def start(self, game: ChatGame, user: str, args: list[str]) -> None:
        if game.started:
            await self.reply(game.room, user, False, "The game has started already.")
            return
        if user != game.creator and user not in game.players:
            await self.reply(game.room, user, False, "Only the table's creator or a seated "
                                                     f"player starts it (`{PREFIX} join` first).")
            return
        fill = args[1] if len(args) == 2 and args[0] == "--bots" else self.settings.fill
        table = (await self.gateway.start(game.table, game.owner, fill))["table"]
        game.started = True
        game.names = [str(s["name"]) for s in table["seats"]]
        seats = ", ".join(f"{i}: {n}{' (bot)' if s['kind'] == 'bot' else ''}"
                          for i, (n, s) in enumerate(zip(game.names, table["seats"],
                                                         strict=True)))
        await self.chat.say(game.room, f"▶️ the game starts · {seats}")
        game.tasks.append(asyncio.create_task(self.follow_room(game)))
        for player in game.players.values():
            game.tasks.append(asyncio.create_task(self.follow_seat(game, player)))

    # -- moves -----------------------------------------------------------------------------

    async def move(self, game: ChatGame, user: str, text: str, room: str | None) -> None:
        player = game.players[user]
        direct = room is None
        if text.strip().lower() in ("help", "?"):
            await self.reply(game.room, user, direct, help_text())
            return
        if not game.started or game.finished:
            await self.reply(game.room, user, direct,
                             f"The game is over: `{PREFIX} new` makes another table."
                             if game.finished else
                             f"The game has not started yet: `{PREFIX} start` starts it.")
            return
        try:
            command = parse(text, player.prompt, player.seat, game.places)
        except MoveError as exc:
            await self.reply(game.room, user, direct, f"✗ {exc}")
            return
        version = player.prompt_version if player.prompt is not None else player.version
        await self.send(game, player, command, version, direct)

    async def send(self, game: ChatGame, player: Player, command: Json, version: int,
                   direct: bool, retries: int = 0) -> None:
        """Send a command; `retries`: how often to send it again for the game's new version
        when the game moved on meanwhile (a contest is not tied to a turn; a move is)."""
        command_id = f"mx-{uuid.uuid4().hex[:10]}"
        outcome = await self.gateway.command(game.table, player.token, command, version,
                                             command_id)
        while (outcome.get("status") == "rejected" and outcome.get("rule_id") == STALE
               and retries > 0):
            retries -= 1
            command_id = f"mx-{uuid.uuid4().hex[:10]}"
            outcome = await self.gateway.command(game.table, player.token, command,
                                                 int(outcome.get("version") or version),
                                                 command_id)
        if outcome.get("status") == "accepted":
            await self.post_picture(game)
        elif outcome.get("status") == "rejected" and outcome.get("rule_id") == STALE:
            await self.overtaken(game, player, command, version, direct)
        elif outcome.get("status") == "rejected":
            await self.reply(game.room, player.user, direct,
                             f"✗ `{describe(command, game.places)}` refused: "
                             f"{readable(str(outcome.get('message')), game.places)} "
                             f"[{outcome.get('rule_id')}] · to contest: "
                             f"`{PREFIX} contest {command_id} WHY`")
        elif "error" in outcome:
            await self.reply(game.room, player.user, direct,
                             f"✗ `{describe(command, game.places)}` was refused: "
                             f"{outcome['error']}.")
        else:
            await self.reply(game.room, player.user, direct,
                             f"… `{describe(command, game.places)}` is sent; the rules "
                             "service has not "
                             "answered yet (the game's news will show what it did).")

    async def overtaken(self, game: ChatGame, player: Player, command: Json, version: int,
                        direct: bool) -> None:
        """A move sent for a version the game has left: the prompt it answered was answered
        already (a second message, a default move at the deadline) or another seat moved
        first. Contesting that would only be upheld: what helps is the prompt now."""
        await self.reply(game.room, player.user, direct,
                         f"✗ `{describe(command, game.places)}` came too late: that prompt "
                         "was already "
                         "answered or overtaken by the game, so nothing was played.")
        if player.prompt is not None and player.prompt_version > version:
            await self.chat.whisper(player.user, prompt_text(
                {"version": player.prompt_version, "deadline": player.prompt_deadline,
                 "prompt": player.prompt}, game.places))
        else:
            await self.chat.whisper(player.user, NOTHING_WAITS)

    async def contest(self, game: ChatGame, user: str, args: list[str]) -> None:
        player = game.players.get(user)
        if player is None:
            await self.reply(game.room, user, False,
                             "Only a player at this table may contest one of its rulings.")
            return
        if len(args) < 2:
            await self.reply(game.room, user, False,
                             f"Usage: `{PREFIX} contest COMMAND_ID WHY` (the command id is in "
                             "the refusal).")
            return
        command = {"type": "ContestRuling", "seat": player.seat, "command_id": args[0],
                   "claim": " ".join(args[1:])[:280]}
        # Not tied to a turn: sent again at the version judged while bots move the game on.
        await self.send(game, player, command, player.version, False, retries=20)

    # -- what the game says ----------------------------------------------------------------

    async def follow_room(self, game: ChatGame) -> None:
        """The spectator's stream: a line per turn and a picture, the winner at the end."""
        try:
            async for line in self.gateway.lines(game.table):
                if line["type"] == "gameFull" and game.places is None:
                    game.places = places_of(line["view"])
                if line["type"] != "event":
                    continue
                event = line["event"]
                text = said(event, game.names, game.places)
                if text and event["type"] != "GameFinished":
                    game.turn_lines.append(text)
                if event["type"] == "TurnEnded":
                    await self.flush_turn(game)
                elif event["type"] == "GameFinished":
                    await self.flush_turn(game)
                    game.finished = True
                    await self.post_picture(game, force=True)
                    await self.chat.say(game.room, f"{text} · replay: "
                                                   f"{self.gateway.replay_url(game.table)}")
        except Exception:
            log.exception("room stream failed", table=game.table)
            raise

    async def flush_turn(self, game: ChatGame) -> None:
        if game.turn_lines:
            await self.chat.say(game.room, " · ".join(game.turn_lines[-12:]))
            game.turn_lines.clear()
        await self.post_picture(game)

    async def post_picture(self, game: ChatGame, force: bool = False) -> None:
        """The board now; at most one per `picture_every_s` (a later one is sent when the
        pause is over, showing the board then)."""
        wait = game.last_picture + self.settings.picture_every_s - time.monotonic()
        if wait > 0 and not force:
            if game.picture_task is None or game.picture_task.done():
                game.picture_task = asyncio.create_task(self.picture_later(game, wait))
            return
        game.last_picture = time.monotonic()
        png = await self.gateway.board_png(game.table)
        await self.chat.picture(game.room, png, f"{game.table}.png")

    async def picture_later(self, game: ChatGame, wait: float) -> None:
        await asyncio.sleep(wait)
        await self.post_picture(game, force=True)

    async def follow_seat(self, game: ChatGame, player: Player) -> None:
        """A player's stream: their hand when it changes, their prompts, deadline warnings."""
        async for line in self.gateway.lines(game.table, player.token, views=True):
            kind = line["type"]
            if kind in ("gameFull", "view"):
                player.view = line["view"]
                if game.places is None:
                    game.places = places_of(line["view"])
                player.version = int(line["version"])
                text = hand_text(line["view"], player.seat)
                if text != player.hand_said:
                    player.hand_said = text
                    await self.chat.whisper(player.user, text)
            elif kind == "event":
                player.version = int(line["version"])
                if player.prompt is not None and player.version > player.prompt_version:
                    player.prompt = None
            elif kind == "prompt":
                player.prompt = line["prompt"]
                player.prompt_version = int(line["version"])
                player.prompt_deadline = line.get("deadline")
                await self.prompt_picture(game, player, line["prompt"])
                await self.chat.whisper(player.user, prompt_text(line, game.places))
                deadline = line.get("deadline")
                if deadline:
                    game.tasks.append(asyncio.create_task(
                        self.warn(game, player, player.prompt_version, int(deadline))))

    async def prompt_picture(self, game: ChatGame, player: Player, prompt: Json) -> None:
        """The board with every place the prompt offers marked by the label its option uses
        (only to the player; none when the prompt names no place)."""
        marks = sorted({t for o in prompt.get("options", []) for t in targets(o)})
        if not marks:
            return
        try:
            png = await self.gateway.board_png(game.table, marks)
        except GatewayError as exc:
            log.warning("no prompt picture", table=game.table, error=str(exc)[:200])
            return
        await self.chat.whisper_picture(player.user, png, f"{game.table}-your-move.png")

    async def warn(self, game: ChatGame, player: Player, version: int, deadline: int) -> None:
        delay = deadline / 1000 - time.time() - self.settings.warn_s
        if delay <= 0:
            return
        await asyncio.sleep(delay)
        if player.prompt is None or player.prompt_version != version or game.finished:
            return
        default = describe(player.prompt["default"], game.places)
        text = (f"⏰ {self.chat.mention(player.user)}: {self.settings.warn_s:.0f} s left, then "
                f"the default move (`{default}`)")
        with contextlib.suppress(Exception):
            await self.chat.say(game.room, text)


def prompt_text(line: Json, places: Places | None = None) -> str:
    prompt = line["prompt"]
    left = ""
    if line.get("deadline"):
        left = f"; {max(0, int(line['deadline'] / 1000 - time.time()))} s left"
    head = f"🎯 Your move ({phase_words(prompt['stage'])}, v{line['version']}{left}):"
    options = prompt["options"]
    if not options and prompt.get("discard"):
        hand = ", ".join(f"{n} {r}" for r, n in (prompt.get("hand") or {}).items() if n)
        return (f"{head} discard {prompt['discard']} cards of {hand}: `discard brick=1 …`, "
                f"or `default` ({describe(prompt['default'], places)})")
    shown = []
    for i, o in enumerate(options[:MAX_OPTIONS_SHOWN], 1):
        where = words_of(o, places)
        shown.append(f"  #{i} {describe(o, places)}" + (f" — {where}" if where else ""))
    more = len(options) - MAX_OPTIONS_SHOWN
    if more > 0:
        shown.append(f"  … {more} more (`#N`, or the move with a label from the picture)")
    marked = any(targets(o) for o in options) and places is not None
    example = next((describe(o, places) for o in options if targets(o)), "road F2-3")
    return "\n".join([head, *shown, ("The picture marks each place with its label. " if marked
                                      else "")
                      + f"Reply here with a move (`{example}`, `#2`, `default`, `help`), or "
                        "`!move` in the room."])


def readable(text: str, places: Places | None) -> str:
    """A message from the rules with its places as people name them."""
    return places.readable(text) if places is not None else text


def variant(text: str) -> Json:
    """`victory-points:target=6` as a module spec."""
    name, _, rest = text.partition(":")
    if not name:
        raise ValueError("`--variant` needs a module's name, e.g. "
                         "`--variant victory-points:target=6` (`hexlog rulesets` lists them).")
    params: Json = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"`{item}` is not key=value in `--variant {text}`.")
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    return {"name": name, "params": params}


def refusal_text(exc: GatewayError) -> str:
    """The gateway's one-line refusal (`field: why`) as a sentence for a chat room."""
    field, _, why = str(exc).rstrip(".").partition(": ")
    if exc.status == 404 and field == "table":
        return (f"This room's table is gone (a table not started in time expires): "
                f"`{PREFIX} new` makes another.")
    if exc.status == 429:
        return f"Not so fast: {why}."
    if exc.status >= 500:
        return f"The game service did not answer ({why}); try again in a moment."
    if field.startswith("modules") and why:
        return f"That variant cannot be played: {why}."
    if field in ("table", "seat", "fill") and why:
        return f"{why[0].upper()}{why[1:]}." if not why.startswith("t-") else f"Table {why}."
    return f"The gateway refused that: {exc}."
