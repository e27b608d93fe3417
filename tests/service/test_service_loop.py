"""The loop the rules service and the bot workers run on (services/runtime/loop.py)."""

from __future__ import annotations

import asyncio

import pytest

from services.runtime import loop


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_services_run_on_uvloop_when_it_is_installed() -> None:
    pytest.importorskip("uvloop")
    assert loop.run(_loop_module()) == "uvloop"


def test_hexlog_loop_asyncio_keeps_asyncios_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXLOG_LOOP", "asyncio")
    assert loop.run(_loop_module()).startswith("asyncio")
