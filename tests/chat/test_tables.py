"""The chat adapter's platform-neutral part on a fake platform: with a fake gateway (no
network), short text moves, the lobby's replies, hands only in private, deadline warnings; with
a real gateway, who may start a table, and a room whose table expired unstarted."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from chat_fakes import FakeChat, FakeGateway

from services.chat.gateway_client import GatewayClient
from services.chat.moves import MoveError, describe, parse, targets
from services.chat.tables import ChatGame, ChatTables, Player, Settings, prompt_text

Json = dict[str, Any]

SETUP = {"seat": 0, "stage": "setup_road", "default": {"type": "PlaceRoad", "seat": 0, "edge": 3},
         "options": [{"type": "PlaceRoad", "seat": 0, "edge": 3},
                     {"type": "PlaceRoad", "seat": 0, "edge": 7}]}
MAIN = {"seat": 0, "stage": "main", "default": {"type": "EndTurn", "seat": 0},
        "options": [{"type": "EndTurn", "seat": 0},
                    {"type": "BuildRoad", "seat": 0, "edge": 12},
                    {"type": "MoveRobber", "seat": 0, "hex": 4, "victim": 2},
                    {"type": "MaritimeTrade", "seat": 0, "give": "grain", "get": "ore"}]}


def test_text_moves_become_the_prompts_options() -> None:
    assert parse("road 7", SETUP, 0) == {"type": "PlaceRoad", "seat": 0, "edge": 7}
    assert parse("road 12", MAIN, 0) == {"type": "BuildRoad", "seat": 0, "edge": 12}
    assert parse("#3", MAIN, 0) == MAIN["options"][2]
    assert parse("default", MAIN, 0) == {"type": "EndTurn", "seat": 0}
    assert parse("trade grain for ore", MAIN, 0) == MAIN["options"][3]
    assert parse("robber 4", MAIN, 0)["hex"] == 4
    assert parse("discard brick=1 ore=2 ore", None, 1) == {
        "type": "DiscardResources", "seat": 1, "resources": {"brick": 1, "ore": 3}}
    for option in MAIN["options"] + SETUP["options"]:
        prompt = SETUP if option["type"] == "PlaceRoad" else MAIN
        assert parse(describe(option), prompt, 0) == option


def test_a_move_the_prompt_does_not_offer_is_sent_as_written() -> None:
    """The rules service judges it (and refuses it with its rule)."""
    assert parse("city 0", SETUP, 0) == {"type": "BuildCity", "seat": 0, "vertex": 0}
    assert parse("settle 5", SETUP, 0)["type"] == "PlaceSettlement"


@pytest.mark.parametrize(("text", "error"), [
    ("fly 3", "`fly` is not a move; `help` lists the moves."),
    ("road x", "`X` names no path yet (the board comes with the first prompt): `road P` (a "
               "road on path P, a label such as F2-3)."),
    ("road", "Usage: `road P` (a road on path P, a label such as F2-3)."),
    ("robber 4 x", "The victim is a seat number, not `x`: `robber H [S]` (the robber to hex H, "
                   "a letter, stealing from seat S)."),
    ("#9", "There is no option #9 in this prompt: its options are #1 to #4."),
    ("trade gold ore", "`gold` is not a resource: brick, grain, lumber, ore or wool."),
    ("trade ore", "Usage: `trade G R` (give G at your best harbour ratio for one R)."),
    ("monopoly", "Name a resource: brick, grain, lumber, ore or wool."),
    ("plenty ore", "Year of plenty takes two resources, e.g. `plenty ore wool`."),
    ("discard", "Say which cards to discard, e.g. `discard brick=1 ore=2`."),
    ("discard ore=x", "`ore=x` is not resource=count, e.g. `discard brick=1 ore=2`."),
    ("", "No move given: send one such as `roll` or `#2` (`help` lists the moves)."),
])
def test_bad_text_says_what_was_expected(text: str, error: str) -> None:
    with pytest.raises(MoveError) as refused:
        parse(text, MAIN, 0)
    assert str(refused.value) == error


DISCARD = {"seat": 0, "stage": "discard", "discard": 4, "options": [],
           "hand": {"brick": 3, "ore": 5},
           "default": {"type": "DiscardResources", "seat": 0, "resources": {"ore": 4}}}


def test_an_option_number_to_a_prompt_without_options_says_what_to_send() -> None:
    """`#1` to a discard prompt used to say `#N: N from 1 to 0`."""
    with pytest.raises(MoveError) as refused:
        parse("#1", DISCARD, 0)
    assert str(refused.value) == (
        "This prompt has no numbered options: discard 4 cards with `discard brick=1 ore=2 …` "
        "(any cards of your hand), or send `default`.")
    with pytest.raises(MoveError, match="no numbered options: send a move in words"):
        parse("#1", {**MAIN, "options": []}, 0)
    with pytest.raises(MoveError, match="^Nothing waits for a move of yours now"):
        parse("#1", None, 0)


def test_a_prompt_lists_its_moves_numbered() -> None:
    text = prompt_text({"version": 9, "deadline": None, "prompt": MAIN})
    assert "#2 road 12" in text
    assert "#4 trade grain ore" in text


VIEW = {"players": [{"hand": {"ore": 2, "wool": 1}, "dev_hand": {}, "vp": 2},
                    {"hand": None, "dev_hand": None, "vp": None}]}


async def test_the_lobby_answers_and_a_refusal_names_its_rule() -> None:
    chat = FakeChat()
    tables = ChatTables(chat, FakeGateway([]))
    await tables.on_message("!room", "@ann", "!catan new --variant victory-points:target=6", False)
    assert "new table t-1" in chat.room[-1][1]
    await tables.on_message("!room", "@ann", "!catan join", False)
    assert chat.room[-1] == ("!room", "<@ann> sits at seat 0")
    assert chat.private[-1][0] == "@ann"
    await tables.on_message("!room", "@bob", "!roll", False)  # not seated: ignored
    game = tables.games["!room"]
    game.started = True
    await tables.on_message("!room", "@ann", "!city 0", False)
    assert "`city 0` refused: no settlement [base.build.city]" in chat.room[-1][1]
    assert "!catan contest mx-" in chat.room[-1][1]


async def test_hands_and_prompts_go_to_the_player_alone() -> None:
    chat = FakeChat()
    lines = [{"type": "gameFull", "version": 5, "view": VIEW},
             {"type": "prompt", "version": 5, "deadline": None, "prompt": MAIN}]
    tables = ChatTables(chat, FakeGateway(lines))
    game = ChatGame(room="!room", table="t-1", owner="o", seats=2)
    player = Player(user="@ann", seat=0, token="seat-0")
    await tables.follow_seat(game, player)
    assert [u for u, _ in chat.private] == ["@ann", "@ann"]
    assert chat.private[0][1].startswith("✋ Your hand: 2 ore, 1 wool")
    assert chat.private[1][1].startswith("🎯 Your move")
    assert chat.room == []
    # The prompt's places on a picture, to the player alone: its road's path and robber's hex.
    assert chat.private_pictures == [("@ann", "t-1-your-move.png")]
    assert tables.gateway.marked == [[("edge", 12), ("hex", 4)]]  # type: ignore[attr-defined]


async def test_a_player_is_warned_before_the_default_move() -> None:
    chat = FakeChat()
    tables = ChatTables(chat, FakeGateway([]), Settings(warn_s=0.1))
    game = ChatGame(room="!room", table="t-1", owner="o", seats=2, started=True)
    player = Player(user="@ann", seat=0, token="t", prompt=MAIN, prompt_version=5)
    await asyncio.wait_for(tables.warn(game, player, 5, int((time.time() + 0.3) * 1000)), 5)
    assert chat.room == [("!room", "⏰ <@ann>: 0 s left, then the default move (`end`)")]
    chat.room.clear()
    player.prompt = None  # answered in time: no warning
    await tables.warn(game, player, 5, int((time.time() + 0.3) * 1000))
    assert chat.room == []


async def test_only_the_creator_or_a_seated_player_starts_a_table(gateway: str) -> None:
    """On a real gateway: a room member who neither made the table nor sits at it is refused
    in one line and the table stays as it was; a seated player, or the creator, starts it."""
    chat = FakeChat()
    client = GatewayClient(gateway)
    tables = ChatTables(chat, client, Settings(fill="random"))
    refusal = "Only the table's creator or a seated player starts it (`!catan join` first)."
    try:
        await tables.on_message("!room", "@ann:hs", "!catan new --seats 2", False)
        game = tables.games["!room"]
        await tables.on_message("!room", "@mallory:hs", "!catan start --bots random", False)
        assert chat.room[-1] == ("!room", f"<@mallory:hs>: {refusal}")
        table = (await client.table(game.table))["table"]
        assert table["status"] == "open"
        assert [s["kind"] for s in table["seats"]] == ["open", "open"]
        assert not game.started
        await tables.on_message("!room", "@bob:hs", "!catan join", False)
        await tables.on_message("!room", "@bob:hs", "!catan start", False)
        assert game.started
        assert (await client.table(game.table))["table"]["status"] in ("live", "finished")

        await tables.on_message("!other", "@cid:hs", "!catan new --seats 2", False)
        await tables.on_message("!other", "@mallory:hs", "!catan start", False)
        assert chat.room[-1] == ("!other", f"<@mallory:hs>: {refusal}")
        await tables.on_message("!other", "@cid:hs", "!catan start", False)  # the creator
        assert tables.games["!other"].started
    finally:
        await tables.close()
        await client.close()


async def test_a_room_whose_table_expired_unstarted_makes_a_new_one(
        start_gateway: Callable[..., str]) -> None:
    base = start_gateway("--trust", "127.0.0.1", "--limit", "table_ttl_s=1")
    chat = FakeChat()
    client = GatewayClient(base)
    tables = ChatTables(chat, client)
    try:
        await tables.on_message("!room", "@ann:hs", "!catan new --seats 2", False)
        first = tables.games["!room"].table
        await tables.on_message("!room", "@ann:hs", "!catan new --seats 2", False)
        assert "A game is on in this room" in chat.room[-1][1]
        await asyncio.sleep(2.5)
        await tables.on_message("!room", "@bob:hs", "!catan join", False)
        assert chat.room[-1] == ("!room", "<@bob:hs>: ✗ This room's table is gone (a table "
                                          "not started in time expires): `!catan new` makes "
                                          "another.")
        await tables.on_message("!room", "@ann:hs", "!catan new --seats 2", False)
        assert "new table" in chat.room[-1][1]
        assert tables.games["!room"].table != first
    finally:
        await tables.close()
        await client.close()


# -- a real board: places by label and in words ---------------------------------------------


def real_view_and_prompt() -> tuple[Json, Json, Any]:
    """A base game in its set-up: the first seat's view and prompt as the gateway streams
    them (JSON), and the state."""
    import msgspec

    from services.rules.engine import initial_state, new_game, next_prompt, pending, view

    state = initial_state(new_game("g-chat-places", 3, b"chat-places"))
    prompt = next_prompt(state, pending(state))
    return (msgspec.to_builtins(view(state, prompt.seat)), msgspec.to_builtins(prompt), state)


def test_moves_name_places_by_the_labels_the_pictures_draw() -> None:
    from services.chat.words import places_of
    from services.render.places import labels_of

    seen, prompt, state = real_view_and_prompt()
    places = places_of(seen)
    assert places is not None
    names = labels_of(state.board.topo)
    text = prompt_text({"version": 1, "deadline": None, "prompt": prompt}, places)
    options = prompt["options"]
    for i, option in enumerate(options[:15], 1):
        label = names.vertices[option["vertex"]]
        line = f"#{i} settle {label} — {places.vertex_words(option['vertex'])}"
        assert line in text
        assert parse(f"settle {label.lower()}", prompt, 0, places) == option  # any case
        assert parse(f"#{i}", prompt, 0, places) == option
    assert "The picture marks each place with its label." in text
    assert not re.search(r"settle \d", text)
    with pytest.raises(MoveError, match="`F2-3` is not a corner of this board"):
        parse("settle F2-3", prompt, 0, places)
    with pytest.raises(MoveError, match="`ZZ9` is not a corner of this board"):
        parse("settle ZZ9", prompt, 0, places)
    road = {"type": "BuildRoad", "seat": 0, "edge": 5}
    assert describe(road, places) == f"road {names.edges[5]}"
    assert parse(describe(road, places), MAIN, 0, places) == road


def test_the_room_names_places_in_words() -> None:
    from services.chat.words import places_of, said

    seen, _, state = real_view_and_prompt()
    places = places_of(seen)
    assert places is not None
    built = said({"type": "SettlementBuilt", "seat": 1, "vertex": 20}, ["ann", "bob", "cy"],
                 places)
    assert built == f"🏠 bob built a settlement on {places.vertex(20)}"
    assert "corner (" in built
    robber = said({"type": "RobberMoved", "seat": 0, "hex": 3, "victim": None}, ["ann"], places)
    assert robber.endswith(f"moved the robber to {places.hex(3)}")
    assert not re.search(r"(on|to|hex) \d", built + robber)


async def test_a_person_plays_a_whole_game_from_what_the_messages_show(gateway: str) -> None:
    """On a real gateway: a person plays a seat to the end from the direct messages alone,
    answering each prompt with a move in words that names its place by the label the prompt's
    picture draws (`settle F4`), never by `#N`; every such prompt comes with a picture marking
    exactly its places with those labels, and the room names places in words."""
    import xml.etree.ElementTree as ET

    chat = FakeChat()
    client = GatewayClient(gateway)
    tables = ChatTables(chat, client, Settings(fill="heuristic", picture_every_s=0.0))
    answered = by_label = 0
    try:
        await tables.on_message("!room", "@ann:hs", "!catan new --seats 2 --variant "
                                "victory-points:target=5", False)
        await tables.on_message("!room", "@ann:hs", "!catan join", False)
        await tables.on_message("!room", "@ann:hs", "!catan start", False)
        game = tables.games["!room"]
        seen_prompts = 0
        until = time.monotonic() + 600
        while not game.finished:
            assert time.monotonic() < until, chat.private[-3:]
            prompts = [t for u, t in chat.private if t.startswith("🎯 Your move")]
            if len(prompts) == seen_prompts:
                await asyncio.sleep(0.05)
                continue
            seen_prompts = len(prompts)
            text = prompts[-1]
            options = re.findall(r"^\s+#\d+ (.+?)(?: — (.+))?$", text, re.M)
            move = next((o for o, _ in options if re.match(r"(settle|city|road|robber) ", o)),
                        None)
            if move is not None:
                # The picture sent with this prompt marks each offered place with its label.
                assert chat.private_pngs[-1][:4] == b"\x89PNG"
                marks = ",".join(f"{k}:{i}" for k, i in sorted(
                    {t for o in game.players["@ann:hs"].prompt["options"]  # type: ignore[index]
                     for t in targets(o)}))
                svg = (await client.http.get(f"/v1/tables/{game.table}/board.svg",
                                             params={"mark": marks})).text
                drawn = {"".join(g.itertext()) for g in ET.fromstring(svg).iter()
                         if g.get("class") == "target"}
                assert move.split()[1] in drawn, (move, sorted(drawn)[:5])
                assert not re.search(r"^(settle|city|road) \d", move)
                by_label += 1
            else:
                plain = [o for o, _ in options if o in ("roll", "end")]
                move = plain[0] if plain else "default"
            answered += 1
            await tables.on_message("@ann-dm", "@ann:hs", move, True)
        await asyncio.sleep(0.5)
        # A mark that is not place:id, or names no place of the board: one line naming `mark`.
        for bad, said in (("corner:3", "mark: 'corner:3' is not vertex:N, edge:N or hex:N"),
                          ("vertex:99999", "mark: no vertex 99999 on this board")):
            r = await client.http.get(f"/v1/tables/{game.table}/board.png", params={"mark": bad})
            assert (r.status_code, r.json()) == (400, {"error": said})
    finally:
        await tables.close()
        await client.close()
    assert by_label >= 4  # two settlements and two roads in the set-up at least
    room = " ".join(t for _, t in chat.room)
    assert "built a settlement on the " in room
    assert not re.search(r"(built a \w+ on|robber to) (hex )?\d", room)
    assert any(t.startswith(("🏆", "🏁")) for _, t in chat.room)
