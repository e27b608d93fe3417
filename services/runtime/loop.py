"""The event loop a long-running service runs on: uvloop when it is installed (the gateway
extra and the dev install bring it), else asyncio's own.

The rules service, a bot worker and the projector spend much of their CPU in the loop's own
machinery (a socket's readiness, a task's step, a timer per blocking read), not in their work:
uvloop does that part in C. `HEXLOG_LOOP=asyncio` keeps asyncio's loop (to compare, or to rule uvloop out).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop maker, or None (asyncio's default) when it is absent or not wanted."""
    if os.environ.get("HEXLOG_LOOP", "").lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    new_loop: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return new_loop


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the loop `loop_factory` gives."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)

