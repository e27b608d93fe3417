"""A bot token acts for its bot, in the seats it plays, until it is rotated or revoked; never
for another bot, another seat or another game. On a real ladder (`hexlog up --ladder`, Catan
for Two: two seats, so four bots play two games at once), with a bot the test drives by hand
beside three Python ladder bots."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from ladder_helpers import OUTSIDER, Hand, ladder_up


@pytest.fixture(scope="module")
def seated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The hand bot in a game with its prompt, the other game, the other bots' tokens."""
    with ladder_up(tmp_path_factory.mktemp("ladder"), "--rulesets", "catan-for-two",
                   "--deadline-ms", "8000", "--absent-after", "1000",
                   "--games-per-bot", "1") as ladder:
        others = {name: ladder.player("random", name, f"owner-{name}")
                  for name in ("rand-b", "rand-c", "rand-d")}
        hand = Hand(ladder, "hand-a", "ann")
        assert hand.ready().status_code == 200
        hand.open()
        welcome = hand.next("welcome")
        prompt = hand.next("prompt", timeout=300)
        game = ladder.call("GET", f"/v1/ladder/games/{prompt['game']}").json()
        mine = next(s for s in game["seats"] if s["id"] == hand.id)
        theirs = next(s for s in game["seats"] if s["id"] != hand.id)
        opponent = next(o for o in others.values() if o["id"] == theirs["id"])
        other_game = ""
        for _ in range(120):
            live = [g["id"] for g in ladder.overview()["live"] if g["id"] != prompt["game"]]
            if live:
                other_game = live[0]
                break
            time.sleep(0.5)
        assert other_game, "the other two bots got no game"
        yield {"ladder": ladder, "hand": hand, "welcome": welcome, "prompt": prompt,
               "seat": mine["seat"], "opponent": opponent, "opponent_seat": theirs["seat"],
               "other_game": other_game, "others": others}
        hand.close()


def as_seat(command: dict[str, Any], seat: int) -> dict[str, Any]:
    return {**command, "seat": seat}


def test_the_stream_opens_with_the_bot_and_its_games(seated: dict[str, Any]) -> None:
    welcome, hand = seated["welcome"], seated["hand"]
    assert welcome["bot"]["id"] == hand.id
    assert welcome["bot"]["name"] == "hand-a"
    assert hand.token not in str(welcome)
    assert "token" not in welcome["bot"]
    assert seated["prompt"]["seat"] == seated["seat"]


def test_a_token_cannot_act_for_another_seat_of_its_game(seated: dict[str, Any]) -> None:
    ladder, hand, prompt = seated["ladder"], seated["hand"], seated["prompt"]
    mine = prompt["prompt"]["default"]
    # The opponent's token, answering the hand bot's prompt in the hand bot's seat.
    r = hand.answer(prompt, mine, token=seated["opponent"]["token"])
    assert r.status_code == 403, r.text
    assert "plays seat" in r.json()["error"]
    # The hand bot's token, in the opponent's seat.
    r = hand.answer(prompt, as_seat(mine, seated["opponent_seat"]))
    assert r.status_code == 403, r.text
    assert r.json()["error"].startswith("command.seat: hand-a plays seat")
    # Its own seat: the one thing the token does in this game (judged by the rules service).
    assert hand.answer(prompt).status_code in (200, 422), "its own seat is not refused by 403"
    del ladder


def test_a_token_cannot_act_in_a_game_its_bot_does_not_play(seated: dict[str, Any]) -> None:
    hand, prompt = seated["hand"], seated["prompt"]
    r = hand.answer(prompt, game=seated["other_game"])
    assert r.status_code == 403, r.text
    assert "does not play" in r.json()["error"]
    r = seated["ladder"].call("GET", f"/v1/ladder/games/{seated['other_game']}/refusals",
                              token=hand.token)
    assert r.status_code == 403, r.text


def test_a_token_cannot_act_for_another_bot(seated: dict[str, Any]) -> None:
    ladder, hand = seated["ladder"], seated["hand"]
    other = seated["others"]["rand-c"]
    for method, path in (("POST", "ready"), ("DELETE", "ready"), ("POST", "token"),
                         ("DELETE", "token"), ("GET", "stream")):
        r = ladder.call(method, f"/v1/ladder/bots/{other['id']}/{path}", token=hand.token)
        assert r.status_code == 403, (method, path, r.text)
        assert r.json()["error"] == "authorization: this token is for another bot"
    r = ladder.call("GET", f"/v1/ladder/bots/{other['id']}/events",
                    params={"token": hand.token})
    assert r.status_code == 403, r.text
    # The other bot is untouched: still active, its token still acts.
    assert ladder.call("GET", f"/v1/ladder/bots/{other['id']}").json()["bot"]["status"] != \
        "revoked"
    assert ladder.call("POST", f"/v1/ladder/bots/{other['id']}/ready",
                       token=other["token"]).status_code == 200


def test_no_token_or_an_unknown_one_acts_at_all(seated: dict[str, Any]) -> None:
    ladder, hand, prompt = seated["ladder"], seated["hand"], seated["prompt"]
    for token in ("", "hxb_not-a-token", hand.token + "x"):
        r = ladder.call("POST", f"/v1/ladder/bots/{hand.id}/ready", token=token,
                        source=OUTSIDER)
        assert r.status_code == 401, (token, r.text)
        r = hand.answer(prompt, token=token)
        assert r.status_code == 401, (token, r.text)
    r = ladder.call("GET", "/v1/ladder/bots/not-an-id/stream", token=hand.token)
    assert r.status_code == 404


def test_registration_refuses_a_bad_or_taken_name(seated: dict[str, Any]) -> None:
    ladder = seated["ladder"]
    r = ladder.call("POST", "/v1/ladder/bots", {"name": "x", "owner": "ann"})
    assert r.status_code == 400, r.text
    assert "name" in r.json()["error"]
    r = ladder.call("POST", "/v1/ladder/bots", {"name": "HAND-A", "owner": "bob"})
    assert r.status_code == 409, r.text
    assert "taken" in r.json()["error"]
    r = ladder.call("POST", "/v1/ladder/bots", {"name": "elsewhere", "owner": "bob",
                                                "rulesets": ["base"]})
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("rulesets[0]: the ladder plays catan-for-two")


def test_a_rotated_then_revoked_token_acts_no_more(seated: dict[str, Any]) -> None:
    """Last in the module: the hand bot retires."""
    ladder, hand, prompt = seated["ladder"], seated["hand"], seated["prompt"]
    old = hand.token
    r = ladder.call("POST", f"/v1/ladder/bots/{hand.id}/token", token=old)
    assert r.status_code == 200, r.text
    new = r.json()["token"]
    assert new != old
    assert ladder.call("POST", f"/v1/ladder/bots/{hand.id}/ready", token=old).status_code == 401
    assert hand.answer(prompt, token=old).status_code == 401
    # The stream opened with the old token is ended by the gateway's keeper.
    said = hand.next("revoked", timeout=60)
    assert "rotated" in said["reason"]
    assert hand.ended.wait(30)
    assert ladder.call("POST", f"/v1/ladder/bots/{hand.id}/ready", token=new).status_code == 200
    # Revoked: the bot retires, its token stops at once everywhere.
    r = ladder.call("DELETE", f"/v1/ladder/bots/{hand.id}/token", token=new)
    assert r.status_code == 200, r.text
    assert r.json()["bot"]["status"] == "revoked"
    for method, path in (("POST", "ready"), ("POST", "token"), ("DELETE", "token"),
                         ("GET", "stream")):
        r = ladder.call(method, f"/v1/ladder/bots/{hand.id}/{path}", token=new)
        assert r.status_code == 401, (method, path, r.text)
    assert hand.answer(prompt, token=new).status_code == 401
    shown = ladder.call("GET", f"/v1/ladder/bots/{hand.id}").json()["bot"]
    assert shown["status"] == "revoked"
