"""A real headless Chromium (Debian's package) driven by Playwright, for the replay page tests.

In CI the browser is installed by `.ci/run`; if it is missing here the tests fail with the
install command, never skip: a replay page nobody opened in a browser is not tested."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("HEXLOG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# The flags a sandboxed, offline machine needs: no background network, no first-run work.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Module-scoped: Playwright's sync API runs an event loop of its own while it is open,
    and the asyncio tests that follow need the thread's loop back."""
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's package "
                    "(apt-get install chromium) or set HEXLOG_CHROMIUM")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()



def pytest_generate_tests(metafunc: Any) -> None:
    """`rule_system`: the base game, each variant and each scenario (tests/render/rule_games.py)."""
    if "rule_system" in metafunc.fixturenames:
        from rule_games import RULE_SYSTEMS

        metafunc.parametrize("rule_system", RULE_SYSTEMS)


@pytest.fixture
def game(rule_system: str) -> Any:
    from rule_games import played_game

    return played_game(rule_system)
