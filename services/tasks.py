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
    ended with (a result, an error) is taken and dropped: a stopped task's failure is not news."""
    tasks = list(tasks)
    while running := [t for t in tasks if not t.done()]:
        for task in running:
            task.cancel()
        await asyncio.wait(running, timeout=again_s)
    for task in tasks:
        if not task.cancelled():
            task.exception()  # (marks it retrieved: no "exception was never retrieved")
