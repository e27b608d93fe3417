"""The ids of the command being judged on every line logged meanwhile
(services/runtime/logging.py `command_context`)."""

from __future__ import annotations

import asyncio

from services.runtime.logging import command_context, merge_command_context


def lines() -> dict[str, object]:
    return dict(merge_command_context(None, "info", {"event": "x", "seat": 9}))


def test_lines_logged_inside_carry_the_commands_ids_and_a_calls_own_win() -> None:
    assert lines() == {"event": "x", "seat": 9}
    with command_context(command_id="c1", game_id="g1", seat=2):
        assert lines() == {"event": "x", "seat": 9, "command_id": "c1", "game_id": "g1"}
        with command_context(command_id="c2"):
            assert lines()["command_id"] == "c2"
        assert lines()["command_id"] == "c1"
    assert lines() == {"event": "x", "seat": 9}


def test_tasks_started_inside_carry_them_too() -> None:
    async def main() -> object:
        with command_context(command_id="c3"):
            inner = asyncio.create_task(_logged())
        return await inner

    async def _logged() -> object:
        return lines().get("command_id")

    assert asyncio.run(main()) == "c3"
