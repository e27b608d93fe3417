"""A whole game played from Matrix: a real Synapse, `hexlog serve matrix` as a real process on a
real gateway, two human players as Matrix clients (matrix-nio) and two bots.

Alice opens a table in a room (`!catan new`, a short game to 6 VP), Alice and Bob join, Alice
starts (the empty seats get bots). Each human answers the prompts the bot sends them by direct
message — Alice with `!move` in the room, Bob in his direct room — and Alice first tries an
illegal move, then contests its ruling from the room. The test checks what each client saw:
hands only in direct messages, board pictures in the room, a clear refusal of the illegal move
with its rule, the contest's verdict (upheld), the winner announced with the replay link; and
`hexlog audit` passes on the game's record (the contest included).
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from gateway_fixtures import free_port
from nio import (
    AsyncClient,
    InviteMemberEvent,
    MatrixRoom,
    RoomCreateResponse,
    RoomMessageImage,
    RoomMessageText,
)
from redis.asyncio import Redis

from services.audit.audit import audit
from services.chat.local_synapse import Synapse, start_synapse
from services.rules.record import load_record
from services.store import EventStore

pytestmark = pytest.mark.slow

PREFER = ("city", "settle", "road", "roll", "buy")
GAME_TIMEOUT_S = 900


@pytest.fixture(scope="module")
def synapse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synapse]:
    server = start_synapse(tmp_path_factory.mktemp("synapse") / "hs", free_port())
    yield server
    server.stop()


@dataclass
class Human:
    """A Matrix test client that plays its seat from the bot's direct messages."""

    client: AsyncClient
    bot: str
    game_room: str = ""
    in_room: bool = True  # answer with `!move` in the room, or in the direct room
    seen: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    dm_rooms: set[str] = field(default_factory=set)
    first_move: str = ""  # sent instead of the first real answer (an illegal move)
    moves: int = 0
    by_label: int = 0  # moves that named their place by its label
    task: asyncio.Task[None] | None = None

    async def on_invite(self, room: MatrixRoom, event: InviteMemberEvent) -> None:
        if event.state_key == self.client.user_id and event.membership == "invite":
            await self.client.join(room.room_id)
            if event.sender == self.bot:
                self.dm_rooms.add(room.room_id)

    async def on_message(self, room: MatrixRoom, event: RoomMessageText | RoomMessageImage
                         ) -> None:
        kind = "image" if isinstance(event, RoomMessageImage) else "text"
        self.seen.setdefault(room.room_id, []).append((event.sender, kind, event.body))
        if (event.sender == self.bot and kind == "text" and room.room_id in self.dm_rooms
                and event.body.startswith("🎯 Your move")):
            await self.answer(event.body)

    async def answer(self, prompt: str) -> None:
        if self.first_move:
            move, self.first_move = self.first_move, ""
            await self.say(self.game_room, f"!{move}")
        move = choose(prompt)
        self.moves += 1
        self.by_label += not move.startswith(("#", "default"))
        if self.in_room:
            await self.say(self.game_room, f"!{move}")
        else:
            await self.say(sorted(self.dm_rooms)[0], move)

    async def say(self, room: str, text: str) -> None:
        await self.client.room_send(room, "m.room.message", {"msgtype": "m.text", "body": text})

    def texts(self, room: str, sender: str = "") -> list[str]:
        return [b for s, k, b in self.seen.get(room, []) if k == "text" and s == (sender or s)]

    def start(self) -> None:
        self.client.add_event_callback(self.on_invite, InviteMemberEvent)  # type: ignore[arg-type]
        self.client.add_event_callback(self.on_message,  # type: ignore[arg-type]
                                       (RoomMessageText, RoomMessageImage))
        self.task = asyncio.create_task(self.client.sync_forever(timeout=3000))


def choose(prompt: str) -> str:
    """A move from the prompt's list, as a person types it: build when it can (naming the
    place by the label the prompt's picture marks: `settle F4`), else roll, else end the
    turn."""
    if "discard" in prompt.split("\n", 1)[0]:
        return "default"
    options = re.findall(r"^\s+#(\d+) (.+?)(?: — .+)?$", prompt, re.M)
    for word in PREFER:
        for number, text in options:
            if text.startswith(word):
                return text if re.fullmatch(r"(settle|city|road) [A-Z]+\d(-\d|-[A-Z]+\d)?",
                                            text) else f"#{number}"
    for number, text in options:
        if text == "end":
            return f"#{number}"
    return "#1" if options else "default"


async def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    until = time.monotonic() + timeout
    while not check():
        if time.monotonic() > until:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


@pytest.fixture
def adapter(synapse: Synapse, gateway: str, tmp_path: Path) -> Iterator[str]:
    """`hexlog serve matrix` as a real process; the bot's user id."""
    bot = synapse.register(f"catan{free_port()}", "bot-password")
    health = free_port()
    log = tmp_path / "matrix.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli.main", "serve", "matrix", "--gateway", gateway,
         "--homeserver", synapse.url, "--matrix-user", bot["user_id"], "--deadline-s", "120",
         "--warn-s", "10", "--health-port", str(health), "--fill", "heuristic"],
        env={"PATH": "/usr/bin:/bin", "MATRIX_TOKEN": bot["access_token"],
             "HEXLOG_LOG_LEVEL": "info", "HOME": str(tmp_path)},
        stdout=log.open("wb"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        start_new_session=True)
    until = time.monotonic() + 60
    while True:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(f"http://127.0.0.1:{health}/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < until, log.read_text()[-3000:]
        time.sleep(0.1)
    yield str(bot["user_id"])
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


async def human(synapse: Synapse, name: str, bot: str) -> Human:
    user = synapse.register(f"{name}{free_port()}", f"{name}-password")
    client = AsyncClient(synapse.url, user["user_id"])
    client.access_token = user["access_token"]
    client.user_id = user["user_id"]
    await client.sync(timeout=0)
    return Human(client, bot)


async def test_a_whole_game_from_a_matrix_room(synapse: Synapse, adapter: str,
                                               redis_client: Redis) -> None:
    alice = await human(synapse, "alice", adapter)
    bob = await human(synapse, "bob", adapter)
    try:
        made = await alice.client.room_create(name="catan", invite=[adapter, bob.client.user_id])
        assert isinstance(made, RoomCreateResponse)
        room = made.room_id
        await bob.client.join(room)
        alice.game_room = bob.game_room = room
        alice.first_move = "city A1"  # not legal in the setup: the bot must say why
        bob.in_room = False
        alice.start()
        bob.start()
        await wait_until(lambda: adapter in alice.client.rooms.get(room, MatrixRoom(room, "")
                                                                  ).users, 30, "the bot to join")

        await alice.say(room, "!catan new --variant victory-points:target=6 --seats 4")
        await wait_until(lambda: any("new table" in t for t in alice.texts(room, adapter)), 60,
                         "the table")
        table = re.search(r"new table (t-[0-9a-f]+)",
                          "\n".join(alice.texts(room, adapter)))
        assert table is not None
        await alice.say(room, "!catan join")
        await wait_until(lambda: any("sits at seat 0" in t for t in alice.texts(room)), 60,
                         "alice's seat")
        await bob.say(room, "!catan join")
        await wait_until(lambda: any("sits at seat 1" in t for t in alice.texts(room)), 60,
                         "bob's seat")
        await alice.say(room, "!catan start")
        await wait_until(lambda: any("`city A1` refused:" in t for t in alice.texts(room)), 120,
                         "the refusal of the illegal move")
        refused = next(t for t in alice.texts(room) if "`city A1` refused:" in t)
        contested = re.search(r"!catan contest (mx-[0-9a-f]+)", refused)
        assert contested is not None
        await alice.say(room, f"!catan contest {contested.group(1)} a city may go anywhere")
        await wait_until(lambda: any(f"the ruling on {contested.group(1)} is upheld" in t
                                     for t in alice.texts(room, adapter)), 120,
                         "the contest's verdict")
        await wait_until(lambda: any(t.startswith(("🏆", "🏁")) or " wins with " in t
                                     for t in alice.texts(room, adapter)),
                         GAME_TIMEOUT_S, "the end of the game")
        await alice.say(room, "!catan replay")
        await wait_until(lambda: any(t.startswith("📼") for t in alice.texts(room, adapter)),
                         60, "the replay link")
    finally:
        for h in (alice, bob):
            if h.task is not None:
                h.task.cancel()
            await h.client.close()

    room_texts = alice.texts(room, adapter)
    # Hands only by direct message: never in the room, always in each player's own room.
    assert not any("Your hand" in t or "Your move" in t for t in room_texts)
    for h in (alice, bob):
        direct = [t for r in h.dm_rooms for t in h.texts(r, adapter)]
        assert any(t.startswith("✋ Your hand") for t in direct)
        assert any(t.startswith("🎯 Your move") for t in direct)
        assert h.moves > 5
        # Moves by label: the options name places as the pictures do, never by number, and
        # each prompt that offers places comes with its picture, privately.
        offered = [t for t in direct if t.startswith("🎯 Your move") and " settle " in t]
        assert offered
        assert not any(re.search(r"#\d+ (settle|city|road) \d", t) for t in offered)
        assert re.search(r"#\d+ settle [A-Z]+\d — the .+ corner", offered[0])
        pictures = [b for r in h.dm_rooms for s, k, b in h.seen.get(r, [])
                    if k == "image" and s == adapter]
        assert len(pictures) >= 2
        assert h.by_label >= 2
    # The room names places in words, never by number.
    assert any("built a settlement on the " in t for t in room_texts)
    assert not any(re.search(r"(built a \w+ on|robber to) (hex )?\d", t) for t in room_texts)
    # Board pictures in the room.
    images = [b for s, k, b in alice.seen[room] if k == "image" and s == adapter]
    assert len(images) >= 3
    # The illegal move got a clear answer naming the rule, with how to contest it.
    refusals = [t for t in room_texts if "`city A1` refused:" in t]
    assert refusals, room_texts[:20]
    assert re.search(r"\[[a-z_]+(\.[a-z_]+)+\]", refusals[0])
    assert "!catan contest mx-" in refusals[0]
    # The winner announced with the replay link; the replay page is served.
    end = next(t for t in room_texts if " wins with " in t or t.startswith("🏁"))
    assert " wins with " in end, end
    link = re.search(r"https?://\S+/replay\.html", end)
    assert link is not None
    assert httpx.get(link.group(0), timeout=60).status_code == 200
    # The game audits clean.
    report = audit(await load_record(EventStore(redis_client), table.group(1)))
    assert report.exit_code == 0, report.to_dict()
