"""`asyncio.run` for the CLI, where Ctrl-C always ends the command.

asyncio turns the first SIGINT into a cancellation of the main task, and raises
KeyboardInterrupt only if that cancellation comes back out. On Python 3.11 a blocking read
inside redis-py (`asyncio.wait_for`) can swallow it: `hexlog play` then went on following its
game to the end and exited 0 as if nothing had been pressed. Here the task is cancelled again
every fifth of a second until it has ended, and the command ends with KeyboardInterrupt
whatever the task did with the cancellations (services/cli/errors.py says what that means for
the game).
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
AGAIN_S = 0.2


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(_interruptible(coro))


async def _interruptible(coro: Coroutine[Any, Any, T]) -> T:
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(coro)
    pressed = False

    def cancel() -> None:
        if not task.done():
            task.cancel()
            loop.call_later(AGAIN_S, cancel)

    def on_sigint() -> None:
        nonlocal pressed
        pressed = True
        cancel()

    loop.add_signal_handler(signal.SIGINT, on_sigint)
    try:
        result = await task
    except asyncio.CancelledError:
        if pressed:
            raise KeyboardInterrupt from None
        raise
    finally:
        loop.remove_signal_handler(signal.SIGINT)
    if pressed:
        raise KeyboardInterrupt
    return result
