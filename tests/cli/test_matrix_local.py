"""`hexlog up --matrix --homeserver local`: the chat adapter tried without a homeserver of
one's own. `up` starts a throwaway Synapse, says how to log in (homeserver, user, password)
and which room to join, and when the bot is there; a Matrix client (matrix-nio) logs in as
that user with that password, joins the room, sends `!catan new` and gets the adapter's new
table. Ctrl-C stops the services and Synapse with them."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import httpx
from cli_helpers import Hexlog
from nio import AsyncClient, JoinResponse, LoginResponse, MatrixRoom, RoomMessageText

CHAT_DOC = Path(__file__).parents[2] / "docs" / "chat.md"
LOGIN = re.compile(r"homeserver (http://127\.0\.0\.1:\d+), user (@\S+), password (\S+)$")


class Lines:
    """The stderr of a running `up`, read as it comes; every line kept."""

    def __init__(self, hexlog: Hexlog, proc: subprocess.Popen[str]) -> None:
        self.hexlog, self.proc = hexlog, proc
        self.seen: list[str] = []

    def wait(self, text: str, timeout: float) -> str:
        for line in self.seen:
            if text in line:
                return line.rstrip("\n")
        self.seen += self.hexlog.wait_for_line(self.proc, text, timeout)
        return self.seen[-1].rstrip("\n")


async def new_table_from(url: str, user: str, password: str, room: str) -> str:
    """Log in, join `room`, send `!catan new`; the adapter's answer."""
    client = AsyncClient(url, user)
    answers: list[str] = []

    async def heard(room_: MatrixRoom, event: RoomMessageText) -> None:
        if event.sender != user:
            answers.append(event.body)

    try:
        assert isinstance(await client.login(password), LoginResponse)
        joined = await client.join(room)
        assert isinstance(joined, JoinResponse), joined
        await client.sync(timeout=0)  # what was said before is not an answer
        client.add_event_callback(heard, RoomMessageText)  # type: ignore[arg-type]
        await client.room_send(joined.room_id, "m.room.message",
                               {"msgtype": "m.text", "body": "!catan new"})
        until = time.monotonic() + 120
        while not any("new table" in a for a in answers):
            assert time.monotonic() < until, answers
            await client.sync(timeout=2000)
        return next(a for a in answers if "new table" in a)
    finally:
        await client.close()


def test_up_with_a_local_homeserver_plays_from_a_matrix_client(hexlog: Hexlog) -> None:
    proc = hexlog.start("up", "--matrix", "--homeserver", "local")
    lines = Lines(hexlog, proc)
    login = LOGIN.search(lines.wait("log in with a Matrix client", timeout=300))
    assert login is not None, lines.seen
    url, user, password = login.groups()
    assert user == "@player:localhost"
    room = re.search(r"room: (#\S+)", lines.wait("room: ", timeout=10))
    assert room is not None
    ready = lines.wait(f"is in {room.group(1)}", timeout=180)
    assert "send `!catan new` there" in ready
    lines.wait("gateway listening on http://127.0.0.1:", timeout=60)

    answer = asyncio.run(new_table_from(url, user, password, room.group(1)))
    assert re.match(r"🎲 new table t-[0-9a-f]{12} \(the base game, 4 seats\)", answer), answer

    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, err
    assert "stopping the Matrix homeserver" in err
    assert err.rstrip().endswith("hexlog: stopped"), err[-500:]
    try:
        httpx.get(f"{url}/health", timeout=2)
        raise AssertionError("synapse still answers after Ctrl-C")
    except httpx.HTTPError:
        pass
    said_as_documented([line.rstrip("\n") for line in lines.seen] + err.splitlines())


def said_as_documented(said: list[str]) -> None:
    """docs/chat.md's "Try it locally" quotes what `up` says: each quoted line is said (the
    password, the data dir and the ports are this run's; the gateway's line and the bot's come
    in either order, as each is ready)."""
    block = CHAT_DOC.read_text().split("## Try it locally", 1)[1].split("```")[1]
    quoted = [line for line in block.splitlines() if line.startswith("hexlog: ")]
    assert len(quoted) >= 5, block
    for line in quoted:
        pattern = re.escape(line).replace("PASSWORD", r"\S+")
        pattern = pattern.replace(re.escape(".hexlog/synapse"), r"\S+/synapse")
        pattern = re.sub(r"127\\\.0\\\.0\\\.1:\d+", lambda _: r"127\.0\.0\.1:\d+", pattern)
        assert any(re.fullmatch(pattern, text) for text in said), (line, said)


def test_serve_matrix_refuses_a_local_homeserver(hexlog: Hexlog) -> None:
    """Only `up` starts one: `serve matrix --homeserver local` says so in one line."""
    result = hexlog.run("serve", "matrix", "--homeserver", "local", "--matrix-user", "@x:y",
                        MATRIX_TOKEN="t")
    assert result.code == 2, result.err
    assert result.lines()[-1] == ("hexlog: serve matrix --homeserver local: only `hexlog up "
                                  "--matrix` starts a local homeserver (docs/chat.md, Try it "
                                  "locally)")
