"""`cancel_and_wait` (services/tasks.py) stops tasks that swallow a cancellation, as
`asyncio.wait_for` inside redis-py can on Python 3.11: cancelled once and awaited, such a task
hung `hexlog bench e2e` after its games had ended."""

from __future__ import annotations

import asyncio

from services.tasks import cancel_and_wait


async def _stubborn(swallow: int, cancelled: list[int]) -> None:
    """Loops until cancelled `swallow + 1` times, ignoring the first `swallow`."""
    while True:
        try:
            await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            cancelled.append(1)
            if len(cancelled) > swallow:
                raise


async def test_a_task_that_swallows_cancellations_is_cancelled_until_it_ends() -> None:
    cancelled: list[int] = []
    task = asyncio.create_task(_stubborn(2, cancelled))
    await asyncio.sleep(0.02)
    task.cancel()
    await asyncio.sleep(0.05)
    assert not task.done()  # one cancellation was not enough: awaiting it now would hang

    await asyncio.wait_for(cancel_and_wait([task], again_s=0.02), 5)
    assert task.cancelled()
    assert len(cancelled) == 3


async def test_tasks_that_ended_or_failed_are_taken_as_they_are() -> None:
    async def fails() -> None:
        raise ValueError("a stopped task's failure")

    done = asyncio.create_task(asyncio.sleep(0))
    failing = asyncio.create_task(fails())
    waiting = asyncio.create_task(asyncio.sleep(60))
    await asyncio.sleep(0.01)
    await asyncio.wait_for(cancel_and_wait([done, failing, waiting]), 5)
    assert done.done()
    assert not done.cancelled()
    assert isinstance(failing.exception(), ValueError)
    assert waiting.cancelled()
