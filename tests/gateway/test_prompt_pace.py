"""A seat that answers each prompt once is never rate limited, however fast the game goes; a
flood still is, with a `Retry-After` of at least a second and a wait in the text that is never
0.0 s.

The game's pace is set by all its seats: against bots that answer in milliseconds, a client
that answers each of its prompts at once sends faster than any fixed rate of commands (a bot
did, and got `429 … retry in 0.0s`). The gateway here allows one command a second (burst 1),
so the whole game is played far past that rate: every answer must still be taken.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from helpers import call, error, new_table, start

from services.gateway.limits import retry_seconds, retry_text
from services.gateway.service import COMMAND_RATE

PREFER = ("BuildCity", "BuildSettlement", "PlaceSettlement", "PlaceRoad", "BuyDevelopmentCard",
          "BuildRoad", "RollDice")


@pytest.fixture
def strict_gateway(start_gateway: Callable[..., str]) -> str:
    return start_gateway("--trust", "127.0.0.1", "--limit", "commands=1/1")


def choose(prompt: dict[str, Any]) -> dict[str, Any]:
    """Build what it can, else roll, else end the turn; a prompt with no options (a discard):
    its default."""
    options = prompt["options"]
    if not options:
        return dict(prompt["default"])
    for kind in PREFER:
        for option in options:
            if option["type"] == kind:
                return dict(option)
    ends = [o for o in options if o["type"] == "EndTurn"]
    return dict(ends[0] if ends else options[0])


async def play_seat(base: str, table: str, token: str) -> list[tuple[int, str]]:
    """Answer every prompt of the seat's stream at once until the game ends; each answer's
    status and body."""
    auth = {"Authorization": f"Bearer {token}"}
    answers: list[tuple[int, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http, http.stream(
            "GET", f"/v1/tables/{table}/stream", headers=auth, timeout=None) as stream:
        assert stream.status_code == 200
        async for text in stream.aiter_lines():
            if not text.strip():
                continue
            line = json.loads(text)
            if line["type"] == "prompt":
                r = await http.post(f"/v1/tables/{table}/commands", headers=auth,
                                    json={"command": choose(line["prompt"]),
                                          "expected_version": line["version"]})
                answers.append((r.status_code, r.text))
                if r.status_code == 429:  # refused: the game would wait out its deadlines
                    return answers
            elif line["type"] == "event" and line["event"]["type"] == "GameFinished":
                return answers
    raise AssertionError("the stream ended before the game")


async def test_a_seat_answering_every_prompt_at_once_is_never_limited(strict_gateway: str
                                                                       ) -> None:
    table, owner = new_table(strict_gateway, seats=2, deadline_ms=60_000, turn_limit=40,
                             modules=[{"name": "victory-points", "params": {"target": 6}}])
    me = call(strict_gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann", "seat": 0})
    start(strict_gateway, table, owner, fill="heuristic")
    loop = asyncio.get_running_loop()
    began = loop.time()
    answers = await asyncio.wait_for(play_seat(strict_gateway, table, me.json()["token"]), 600)
    took = loop.time() - began
    limited = [body for status, body in answers if status == 429]
    assert not limited, limited[:3]
    assert all(status == 200 for status, _ in answers), [a for a in answers if a[0] != 200][:3]
    # Far past one command a second: without the first-answer rule most would be 429.
    assert len(answers) > 20, answers
    assert len(answers) > 2 * took, (len(answers), took)


async def test_a_flood_is_still_limited_with_a_retry_after_of_a_second_or_more(
        strict_gateway: str) -> None:
    table, owner = new_table(strict_gateway, seats=2, deadline_ms=60_000)
    me = call(strict_gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann", "seat": 1})
    start(strict_gateway, table, owner, fill="heuristic")
    auth = {"Authorization": f"Bearer {me.json()['token']}"}
    version = 1
    async with httpx.AsyncClient(base_url=strict_gateway, headers=auth, timeout=60) as http:
        flood = await asyncio.gather(*(
            http.post(f"/v1/tables/{table}/commands",
                      json={"command": {"type": "EndTurn", "seat": 1},
                            "expected_version": version + (i % 3)}) for i in range(60)))
    limited = [r for r in flood if r.status_code == 429]
    assert len(limited) >= 50, [r.status_code for r in flood]
    for r in limited:
        assert int(r.headers["retry-after"]) >= 1
        said = error(r)
        assert said.startswith(f"{COMMAND_RATE}; retry in "), said
        wait = re.search(r"retry in (\d+\.\d)s$", said)
        assert wait is not None, said
        assert float(wait.group(1)) >= 0.1, said


@pytest.mark.parametrize("wait", [1e-9, 0.001, 0.04, 0.05, 0.1, 0.11, 0.5, 0.99, 1.0, 1.01, 7.3])
def test_a_wait_is_rounded_up_never_to_zero(wait: float) -> None:
    assert retry_seconds(wait) >= max(1, math.ceil(wait))
    text = retry_text(wait)
    shown = float(text.removeprefix("retry in ").removesuffix("s"))
    assert shown >= wait, text
    assert shown >= 0.1, text
    assert text != "retry in 0.0s"
