"""Bots that misbehave, for the tournament's robustness tests (test-only; run as external
workers: `hexlog serve bots --bots crash=faulty_bots:CrashingBot` with this directory on
PYTHONPATH).

Each plays like the random bot and, on about FAULT_RATE of its decisions, does something wrong.
Which decisions is decided by the bot's rng, which the worker reseeds per decision from the
game's public seed commitment, seat and version, so the faults are reproducible too.
"""

from __future__ import annotations

import os
import time
from typing import Any

import msgspec

from bots.random_bot import RandomBot
from events.commands import Command
from events.prompts import Prompt, View

FAULT_RATE = float(os.environ.get("HEXLOG_TEST_FAULT_RATE", "0.12"))
HANG_S = float(os.environ.get("HEXLOG_TEST_HANG_S", "1.0"))  # tests use deadline_ms 300


class CrashingBot(RandomBot):
    """Raises on some prompts (the worker logs it and answers nothing)."""

    name = "crash"

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        if self.rng.random() < FAULT_RATE:
            raise RuntimeError("the crashing bot crashed (on purpose)")
        return super().choose(view, prompt)


class HangingBot(RandomBot):
    """Sleeps far past the deadline on some prompts, then answers (too late: stale). The worker
    answers prompts one after another, so a hang holds up every prompt of its pools."""

    name = "hang"

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        if self.rng.random() < FAULT_RATE:
            time.sleep(HANG_S)
        return super().choose(view, prompt)


class GarbageBot(RandomBot):
    """On some prompts answers garbage: a command for another seat, or something that is not a
    command at all."""

    name = "garbage"

    def choose(self, view: View | None, prompt: Prompt) -> Any:
        if self.rng.random() < FAULT_RATE:
            if self.rng.random() < 0.5:
                # A well-formed command, but for the next seat (the credential is this seat's).
                return msgspec.structs.replace(prompt.default, seat=(prompt.seat + 1) % 4)
            return {"type": "LaunchRocket", "seat": prompt.seat, "payload": [1, 2, 3]}
        return super().choose(view, prompt)
