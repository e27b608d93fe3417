"""The compiled engine (mypyc, scripts/build_engine.py) plays exactly the games the interpreted
engine plays: for the base game and every variant and scenario (found afresh: modules merged
later are included), the same seeds give the same log, event for event, byte for byte.

This process runs the build that is installed; a subprocess with HEXLOG_ENGINE=interpreted runs
the Python source. Without a compiled build there is nothing to compare and the test is
deselected (`compiled_only`, tests/conftest.py), unless HEXLOG_REQUIRE_COMPILED=1 (CI's
compiled-build job, `make test-compiled`), where a missing build is a failure. Run alone: `python tests/engine/test_compiled_build.py` prints this process's digests.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bots.local import play
from bots.random_bot import RandomBot
from events.codec import codec
from events.events import ModuleSpec
from services.rules.build import engine_build
from services.rules.engine import new_game
from services.rules.engine.chance import SeededDealer
from services.rules.engine.modules import MODULES

ROOT = Path(__file__).resolve().parents[2]
SEEDS = 3  # games per module


def cases() -> list[tuple[str, str, int]]:
    """(label, module or "", seats): the base game and each module at its largest table."""
    out = [("base", "", 4), ("base-3", "", 3), ("base-2", "", 2)]
    for name in sorted(MODULES):
        if not MODULES[name].__module__.startswith("services.rules.engine."):
            continue  # a toy module another test registered in this process (tests/hooks)
        seats = max(set(MODULES[name].seats) & {2, 3, 4})
        out.append((name, name, seats))
    return out


def digests() -> dict[str, str]:
    """sha256 of each game's log (wire encoding, one event per line)."""
    encode = codec().encode
    out = {}
    for label, module, seats in cases():
        kind = MODULES[module].kind if module else "base"
        ruleset = module if kind == "scenario" else "base"
        specs = (ModuleSpec(name=module),) if module else ()
        for g in range(SEEDS):
            seed = f"compiled:{label}:{g}".encode()
            created = new_game(f"cmp-{label}-{g}", seats, seed, modules=specs, ruleset=ruleset,
                               turn_limit=400)
            bots = [RandomBot(g * 10 + s) for s in range(seats)]
            game = play(created, bots, SeededDealer(seed))
            h = hashlib.sha256()
            for e in game.log:
                h.update(encode(e) + b"\n")
            out[f"{label}-{g}"] = h.hexdigest()
    return out


@pytest.mark.compiled_only
def test_compiled_and_interpreted_games_are_identical() -> None:
    # Collected only with a compiled engine; HEXLOG_REQUIRE_COMPILED=1 without one stops the
    # whole run at its start (tests/conftest.py).
    assert engine_build() == "compiled"
    env = dict(os.environ, HEXLOG_ENGINE="interpreted")
    run = subprocess.run([sys.executable, __file__], env=env, cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=900)
    interpreted = json.loads(run.stdout)
    assert interpreted.pop("build") == "interpreted"
    compiled = digests()
    assert sorted(compiled) == sorted(interpreted)
    differ = [k for k in compiled if compiled[k] != interpreted[k]]
    assert not differ, f"games that differ between the builds: {differ}"


if __name__ == "__main__":
    print(json.dumps({"build": engine_build(), **digests()}))
