"""docs/protocol.md names the keys, groups and fields the code uses: a rename in the code that
leaves the document behind fails here (the plain bot, written from the document, would too)."""

from __future__ import annotations

from pathlib import Path

from events.auth import MAC_FIELD
from services.protocol import (
    DATA,
    PROMPT_GROUP,
    SENT,
    SERVICE_TTL_S,
    alive_key,
    heartbeat_key,
    pool_key,
    prompts_key,
)
from services.store.keys import PARTITIONS, commands_key

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()


def generic(name: str) -> str:
    """`hexlog:{007}:prompts:bot:X` -> `hexlog:{p}:prompts:bot:<pool>`."""
    return name.replace("{007}", "{p}").replace(":X", ":<pool>").replace(":C", ":<consumer>")


def test_every_key_a_bot_uses_is_documented_by_its_name() -> None:
    for key in (prompts_key(7, "bot:X"), commands_key(7, "bot:X"), pool_key("bot:X"),
                alive_key("bots:X"), heartbeat_key("bots:X", "C"), commands_key(7)):
        assert f"`{generic(key)}" in DOC, generic(key)


def test_the_group_fields_and_numbers_are_the_codes() -> None:
    assert f"consumer group `{PROMPT_GROUP}`" in DOC
    assert f"XGROUP CREATE hexlog:{{p}}:prompts:bot:<pool> {PROMPT_GROUP} 0 MKSTREAM" in DOC
    assert f"* {DATA} <data> {MAC_FIELD} <mac>" in DOC
    assert f"`{SENT}`" in DOC
    assert f"EX {SERVICE_TTL_S}" in DOC
    assert f"{PARTITIONS} partitions" in DOC
