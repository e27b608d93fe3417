"""A bot that stops answering: its deadlines are played with defaults (a `missed` line each),
after `--absent-after` misses in a row it is marked absent (an `absent` line) and gets no new
game, although the others go on being matched; a bot that reconnects mid-game gets its seat
back; it is matched again once it says ready. On a real ladder (`hexlog up --ladder`, Catan
for Two to 5 points, so the three other bots keep playing among themselves), the silent bot
driven by the test."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from ladder_helpers import Hand, Ladder, ladder_up

ABSENT_AFTER = 3
# Catan for Two to 5 points, not 10: what is tested is the seat's absence, not the game, and
# the hand bot plays its whole game through HTTP (and its next one waits for a free opponent).
SHORT_GAMES = "catan-for-two+victory-points:target=5"


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ladder]:
    with ladder_up(tmp_path_factory.mktemp("ladder"), "--rulesets", SHORT_GAMES,
                   "--deadline-ms", "1500", "--absent-after", str(ABSENT_AFTER),
                   "--games-per-bot", "1") as ladder:
        for name in ("rand-b", "rand-c", "rand-d"):
            ladder.player("random", name, f"owner-{name}")
        yield ladder


def play_out(hand: Hand, game: str, timeout: float = 600) -> list[dict[str, Any]]:
    """Answer the hand bot's prompts of `game` with their defaults until it is over; every
    line read meanwhile."""
    seen = []
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        try:
            line = hand.lines.get(timeout=1.0)
        except Exception:  # noqa: BLE001  (queue.Empty)
            continue
        seen.append(line)
        if line["type"] == "prompt":
            hand.answer(line)
        if line["type"] == "gameFinish" and line["game"] == game:
            return seen
    raise AssertionError(f"{game} did not finish in {timeout}s")


def test_a_silent_bot_is_taken_out_then_let_back_in(ladder: Ladder) -> None:
    hand = Hand(ladder, "quiet-a", "ann")
    assert hand.ready().status_code == 200
    hand.open()
    start = hand.next("gameStart", timeout=300)
    game = start["game"]
    # Silent: every prompt of its seat is played by the default at its deadline.
    missed = []
    while True:
        line = hand.next("missed", timeout=60) if len(missed) < ABSENT_AFTER else \
            hand.next("absent", timeout=60)
        if line["type"] == "absent":
            break
        assert line["game"] == game
        assert line["seat"] == start["seat"]
        missed.append(line["version"])
    assert line["misses"] >= ABSENT_AFTER
    assert len(missed) == ABSENT_AFTER
    assert missed == sorted(missed)
    shown = ladder.call("GET", f"/v1/ladder/bots/{hand.id}").json()["bot"]
    assert shown["absent"] is True
    assert shown["status"] == "absent"

    # It reconnects mid-game: the running game comes again, and its answers are taken.
    hand.close()
    hand.drain()
    hand.open()
    welcome = hand.next("welcome")
    assert welcome["absent"] is True
    assert welcome["games"] == [game]
    again = hand.next("gameStart", game=game)
    assert again["seat"] == start["seat"]
    accepted = 0
    for _ in range(20):
        prompt = hand.next("prompt", game=game)
        r = hand.answer(prompt)
        if r.status_code == 200:
            accepted += 1
            break
    assert accepted, "no answer of the reconnected bot was taken"
    play_out(hand, game)

    # Absent: no new game for it, while the other bots are matched on.
    made = ladder.overview()["ladder"]["games"]
    until = time.monotonic() + 300
    while ladder.overview()["ladder"]["games"] < made + 1:
        assert time.monotonic() < until, "the other bots were not matched any more"
        time.sleep(1.0)
    games = [g["id"] for g in ladder.call("GET", f"/v1/ladder/bots/{hand.id}").json()["games"]]
    assert games == [game]
    assert not [line for line in hand.drain() if line["type"] == "gameStart"]

    # Ready again: back in matchmaking.
    r = hand.ready()
    assert r.status_code == 200
    assert r.json()["bot"]["absent"] is False
    back = hand.next("gameStart", timeout=300)
    assert back["game"] != game
    hand.close()
