"""Keys set aside: one a call could not read pauses for a while (a few seconds, doubling up to
a minute) while the others go on without it. The command streams (stream_guard.py) and the
deadline sets (deadlines.py) both read every partition's key in one call, so one key a server
refuses would otherwise stop every partition."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

import structlog

log = structlog.get_logger("hexlog.rules")

FIRST_PAUSE_S = 2.0
LONGEST_PAUSE_S = 60.0


@dataclass
class SetAside:
    reason: str
    pause_s: float
    until: float  # time.monotonic() when it is tried again


class SetAsideKeys:
    def __init__(self, kind: str) -> None:
        self.kind = kind  # what the keys are, for the heartbeat: "command stream(s)"
        self.keys: dict[str, SetAside] = {}

    def readable(self, keys: Iterable[str]) -> list[str]:
        """The keys to read now: all but those set aside whose pause has not run out."""
        if not self.keys:  # (the usual case, asked before every read)
            return list(keys)
        now = time.monotonic()
        return [k for k in keys if k not in self.keys or self.keys[k].until <= now]

    def status(self) -> str:
        """One line for the heartbeat: `ok`, or which keys are set aside and why."""
        if not self.keys:
            return "ok"
        parts = [f"{key} ({aside.reason})" for key, aside in sorted(self.keys.items())]
        return f"degraded: {len(parts)} {self.kind} set aside: " + "; ".join(parts)

    def recovered(self, keys: Iterable[str]) -> None:
        """Keys that were just read without an error are back."""
        if not self.keys:
            return
        for key in keys:
            if self.keys.pop(key, None) is not None:
                log.info("readable again", kind=self.kind, key=key)

    def put_aside(self, key: str, error: BaseException | str) -> bool:
        """Pause `key` (twice as long as last time); True the first time, to report it once."""
        reason = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        previous = self.keys.get(key)
        pause = min(LONGEST_PAUSE_S, previous.pause_s * 2) if previous else FIRST_PAUSE_S
        self.keys[key] = SetAside(reason[:200], pause, time.monotonic() + pause)
        log.error("set aside", kind=self.kind, key=key, reason=reason[:200], retry_in_s=pause)
        return previous is None
