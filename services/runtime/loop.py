"""The event loop a long-running service runs on: uvloop when it is installed (the gateway
extra and the dev install bring it), else asyncio's own.

The rules service, a bot worker and the projector spend much of their CPU in the loop's own
machinery (a socket's readiness, a task's step, a timer per blocking read), not in their work:
uvloop does that part in C. `HEXLOG_LOOP=asyncio` keeps asyncio's loop (to compare, or to rule uvloop out).

The collector is tuned for such a process too (`tune_gc`): what start-up made (modules,
classes, the engine's tables) lives as long as the process, and a command makes hundreds of
short-lived objects.
"""

from __future__ import annotations

import asyncio
import gc
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


# A young generation of 700 objects (Python's default) is collected every command or two in the
# rules service; 20,000 makes that a few times a second. Measured over 64 games at 32 at once
# (gc.callbacks): the collector took 12% of the rules service's CPU, most of it in 15 full
# collections of about 54 ms each, every one walking every object start-up made.
YOUNG_THRESHOLD = 20_000


def tune_gc() -> None:
    """Freeze what start-up made (a full collection never walks it again) and collect the
    young generation less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the loop `loop_factory` gives, the collector tuned first."""
    tune_gc()
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)

