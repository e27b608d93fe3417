"""Every message the adapter answers a player with is one clear sentence, on a fake platform:
what went wrong and what to send instead. In particular `#1` to a prompt that numbers no
option (a discard) names the command to send, and a move that came after the game moved on is
said to be too late, with the prompt now, instead of an offer to contest its ruling."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from chat_fakes import FakeChat, FakeGateway

from services.chat.gateway_client import GatewayError
from services.chat.tables import STALE, ChatGame, ChatTables, Player, refusal_text

Json = dict[str, Any]
ROOM, ANN, BOB = "!room", "@ann", "@bob"
DOC = Path(__file__).parents[2] / "docs" / "chat.md"

MAIN = {"seat": 0, "stage": "main", "default": {"type": "EndTurn", "seat": 0},
        "options": [{"type": "EndTurn", "seat": 0}, {"type": "BuildRoad", "seat": 0, "edge": 12}]}
DISCARD = {"seat": 0, "stage": "discard", "discard": 4, "options": [],
           "hand": {"brick": 3, "ore": 5},
           "default": {"type": "DiscardResources", "seat": 0, "resources": {"ore": 4}}}


def seated(tables: ChatTables, *, started: bool = True, finished: bool = False,
           prompt: Json | None = MAIN, version: int = 7) -> Player:
    """Ann at seat 0 of the room's table, with `prompt` waiting at `version`."""
    game = ChatGame(room=ROOM, table="t-1", owner="owner", seats=2, creator=ANN,
                    started=started, finished=finished)
    player = Player(user=ANN, seat=0, token="seat-0", prompt=prompt, prompt_version=version,
                    version=version)
    game.players[ANN] = player
    tables.games[ROOM] = game
    return player


def one_sentence(text: str) -> None:
    assert "\n" not in text, text
    assert text.rstrip().endswith((".", ")", "`")), text


async def test_option_number_to_a_discard_says_to_send_discard() -> None:
    chat = FakeChat()
    tables = ChatTables(chat, FakeGateway([]))
    seated(tables, prompt=DISCARD)
    await tables.on_message(ROOM, ANN, "!#1", False)
    said = chat.room[-1][1]
    assert said == ("<@ann>: ✗ This prompt has no numbered options: discard 4 cards with "
                    "`discard brick=1 ore=2 …` (any cards of your hand), or send `default`.")
    await tables.on_message("!dm", ANN, "#1", True)  # the same in the direct room
    assert chat.private[-1] == (ANN, said.removeprefix("<@ann>: "))


@pytest.mark.parametrize("direct", [False, True])
async def test_a_stale_move_is_too_late_and_shows_the_prompt_now(direct: bool) -> None:
    chat = FakeChat()
    gateway = FakeGateway([], {"status": "rejected", "rule_id": STALE, "version": 9,
                               "message": "expected version 7, the game is at 9"})
    tables = ChatTables(chat, gateway)
    player = seated(tables)
    await tables.on_message("!dm" if direct else ROOM, ANN, "end" if direct else "!end", direct)
    said = chat.private[-2][1] if direct else chat.room[-1][1]  # then the prompt, privately
    refusal = ("✗ `end` came too late: that prompt was already answered or overtaken by the "
               "game, so nothing was played.")
    assert said.endswith(refusal), said
    assert "contest" not in said
    assert chat.private[-1][1] == "Nothing waits for a move of yours now; your next prompt " \
                                  "comes by direct message."
    # The stream has brought the prompt now (a default move was played at v8, say).
    player.prompt, player.prompt_version = DISCARD, 9
    await tables.send(tables.games[ROOM], player, {"type": "EndTurn", "seat": 0}, 7, direct)
    shown = chat.private[-1]
    assert shown[0] == ANN
    assert shown[1].startswith("🎯 Your move (discarding on a 7, v9):")
    assert "discard 4 cards of 3 brick, 5 ore" in shown[1]
    assert all("5 ore" not in text for _, text in chat.room)  # a hand is never said in the room


async def test_a_refusal_that_is_not_stale_still_offers_the_contest() -> None:
    chat = FakeChat()
    tables = ChatTables(chat, FakeGateway([]))
    seated(tables)
    await tables.on_message(ROOM, ANN, "!city 0", False)
    assert "`city 0` refused: no settlement [base.build.city]" in chat.room[-1][1]
    assert "!catan contest mx-" in chat.room[-1][1]


Setup = Callable[[ChatTables], Awaitable[None] | None]


async def nothing(tables: ChatTables) -> None:
    return None


async def made(tables: ChatTables) -> None:
    await tables.on_message(ROOM, ANN, "!catan new", False)


async def joined(tables: ChatTables) -> None:
    await made(tables)
    await tables.on_message(ROOM, ANN, "!catan join", False)


async def playing(tables: ChatTables) -> None:
    seated(tables)


async def over(tables: ChatTables) -> None:
    seated(tables, finished=True)


async def unstarted(tables: ChatTables) -> None:
    seated(tables, started=False, prompt=None)


async def waiting_for_nothing(tables: ChatTables) -> None:
    seated(tables, prompt=None)


# (what was before, who says what where, the answer: in the room after the mention, or private)
MESSAGES = [
    (nothing, ANN, "!catan hand", False,
     "You have no hand yet: it comes once a game you sit at starts."),
    (nothing, ANN, "!catan board", True,
     "There is no table in this room: `!catan new` makes one."),
    (made, BOB, "!catan leave", True,
     "You hold no seat at this table, so there is none to leave."),
    (made, ANN, "!catan fly", True, "`!catan fly` is not a command; `!catan help` lists them."),
    (made, BOB, "!catan new", True,
     "A game is on in this room (t-1): a new table can be made once it ends."),
    (nothing, ANN, "!catan new --colour red", True,
     "✗ `--colour red` is not an option of `!catan new`: it takes --variant NAME[:k=v], "
     "--seats N and --deadline SECONDS."),
    (nothing, ANN, "!catan new --seats", True,
     "✗ `--seats` is not an option of `!catan new`: it takes --variant NAME[:k=v], "
     "--seats N and --deadline SECONDS."),
    (nothing, ANN, "!catan new --variant :target=6", True,
     "✗ `--variant` needs a module's name, e.g. `--variant victory-points:target=6` "
     "(`hexlog rulesets` lists them)."),
    (nothing, ANN, "!catan new --variant victory-points:target", True,
     "✗ `target` is not key=value in `--variant victory-points:target`."),
    (joined, ANN, "!catan join", True, "You sit at this table already (seat 0)."),
    (playing, ANN, "!catan start", True, "The game has started already."),
    (made, BOB, "!catan start", True,
     "Only the table's creator or a seated player starts it (`!catan join` first)."),
    (unstarted, ANN, "!roll", True, "The game has not started yet: `!catan start` starts it."),
    (over, ANN, "!roll", True, "The game is over: `!catan new` makes another table."),
    (waiting_for_nothing, ANN, "!default", True,
     "✗ Nothing waits for a move of yours now; your next prompt comes by direct message."),
    (playing, BOB, "!catan contest mx-1 why", True,
     "Only a player at this table may contest one of its rulings."),
    (playing, ANN, "!catan contest mx-1", True,
     "Usage: `!catan contest COMMAND_ID WHY` (the command id is in the refusal)."),
    (nothing, ANN, "roll", False,
     "You sit at no game now: `!catan join` in a room with a table takes a seat."),
]


@pytest.mark.parametrize(("before", "user", "text", "in_room", "answer"), MESSAGES,
                         ids=[m[2] for m in MESSAGES])
async def test_each_answer_is_one_clear_sentence(before: Setup, user: str, text: str,
                                                 in_room: bool, answer: str) -> None:
    chat = FakeChat()
    tables = ChatTables(chat, FakeGateway([]))
    await before(tables)  # type: ignore[misc]
    chat.room.clear()
    chat.private.clear()
    await tables.on_message(ROOM if in_room else "!dm", user, text, not in_room and
                            not text.startswith("!catan"))
    if in_room:
        assert chat.room == [(ROOM, f"<{user}>: {answer}")], chat.room
    else:
        assert chat.private == [(user, answer)], chat.private
    one_sentence(answer)


async def test_a_move_that_stays_unanswered_says_so() -> None:
    chat = FakeChat()
    tables = ChatTables(chat, FakeGateway([], {"status": "pending"}))
    seated(tables)
    await tables.on_message(ROOM, ANN, "!end", False)
    answer = chat.room[-1][1].removeprefix("<@ann>: ")
    assert answer == ("… `end` is sent; the rules service has not answered yet (the game's "
                      "news will show what it did).")


@pytest.mark.parametrize(("status", "text", "said"), [
    (404, "table: no such table",
     "This room's table is gone (a table not started in time expires): `!catan new` makes "
     "another."),
    (409, "table: every seat is taken", "Every seat is taken."),
    (409, "table: t-5f0c9a1e2b3d has started; spectate it instead",
     "Table t-5f0c9a1e2b3d has started; spectate it instead."),
    (422, "fill: no bot worker serves pool 'nobody'", "No bot worker serves pool 'nobody'."),
    (422, "modules[0].name: no module 'nosuch' (see `hexlog rulesets`)",
     "That variant cannot be played: no module 'nosuch' (see `hexlog rulesets`)."),
    (429, "rate: too many lobby requests; retry in 0.4s",
     "Not so fast: too many lobby requests; retry in 0.4s."),
    (503, "table: the rules service did not start it: timeout",
     "The game service did not answer (the rules service did not start it: timeout); try "
     "again in a moment."),
    (400, "seats: Expected `int` <= 4", "The gateway refused that: seats: Expected `int` <= 4."),
])
def test_the_gateways_refusals_become_sentences(status: int, text: str, said: str) -> None:
    assert refusal_text(GatewayError(status, text)) == said
    one_sentence(said)


async def test_a_refusal_of_the_gateway_reaches_the_room_as_a_sentence() -> None:
    class Full(FakeGateway):
        async def join(self, table: str, name: str) -> Json:
            raise GatewayError(409, "table: every seat is taken")

    chat = FakeChat()
    tables = ChatTables(chat, Full([]))
    await made(tables)
    await tables.on_message(ROOM, BOB, "!catan join", False)
    assert chat.room[-1] == (ROOM, "<@bob>: ✗ Every seat is taken.")


async def test_the_answers_docs_chat_md_quotes_are_the_adapters() -> None:
    """docs/chat.md quotes the answers to `#1` on a discard and to a move that came too late."""
    chat = FakeChat()
    tables = ChatTables(chat, FakeGateway([], {"status": "rejected", "rule_id": STALE}))
    seated(tables, prompt=DISCARD)
    await tables.on_message("!dm", ANN, "#1", True)
    seated(tables)
    await tables.on_message("!dm", ANN, "end", True)
    doc = " ".join(DOC.read_text().split())
    for _, answer in chat.private[:2]:
        assert f"``{answer}``" in doc, answer
