"""Stopping tasks that may not stop at the first cancellation.

On Python 3.11 `asyncio.wait_for` (inside redis-py's calls) can swallow a cancellation: the task
goes on as if nothing had happened, and code that cancelled it once and then awaited it waits
for ever. `cancel_and_wait` cancels again until every task has ended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

AGAIN_S = 0.1


async def cancel_and_wait(tasks: Iterable[asyncio.Future[Any]], again_s: float = AGAIN_S) -> None:
    """Cancel `tasks`, every `again_s` while any still runs, until all have ended. What they
    ended with (a result, an error) is taken and dropped: a stopped task's failure is not news.

    The cancelling goes on to the end even when the caller is itself cancelled meanwhile (a
    stop that cancels again, as this does): a task left after one swallowed cancellation would
    go on working for a component that is gone (a stream read taking entries for a consumer
    that will never handle them)."""
    tasks = list(tasks)
    if all(t.done() for t in tasks):
        _retrieve(tasks)
        return
    stopping = asyncio.ensure_future(_cancel_until_ended(tasks, again_s))
    _STOPPING.add(stopping)  # (the loop keeps only weak references to tasks)
    stopping.add_done_callback(_STOPPING.discard)
    await asyncio.shield(stopping)


_STOPPING: set[asyncio.Future[None]] = set()


async def _cancel_until_ended(tasks: list[asyncio.Future[Any]], again_s: float) -> None:
    while running := [t for t in tasks if not t.done()]:
        for task in running:
            task.cancel()
        await asyncio.wait(running, timeout=again_s)
    _retrieve(tasks)


def _retrieve(tasks: list[asyncio.Future[Any]]) -> None:
    for task in tasks:
        if not task.cancelled():
            task.exception()  # (marks it retrieved: no "exception was never retrieved")
