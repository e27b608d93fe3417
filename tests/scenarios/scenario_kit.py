"""What every scenario's tests share: the rule-id coverage check (the ids a scenario registers,
the test functions of its directory that name them, the ids its rules doc lists), the
`hexlog play → replay → audit` steps through Redis, and plain stand-ins for the names a
module's narration asks for and the sketch its drawing marks.

The coverage convention: a rule id `x.y.z` is covered by a test function whose name contains
`x_y_z` as whole words (`test_x_y_z_…`), or, where a scenario allows it, by a test asserting
the id as a string (`t.rejects(cmd, "x.y.z")`). The coverage test file itself never counts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cli_helpers import Hexlog

from services.rules.engine.rules import RULES

RULES_DOCS = Path(__file__).parents[2] / "docs" / "rules"
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def registered_rule_ids(prefix: str) -> list[str]:
    """The rule ids the engine registered under `prefix` (e.g. "rivers.")."""
    return sorted(r for r in RULES if r.startswith(prefix))


def uncovered_rule_ids(prefix: str, directory: Path, *, files: str = "test_*.py",
                       strings: bool = False, anchored: bool = False) -> list[str]:
    """The ids under `prefix` that no test in `directory` covers. `files` are the files read
    (the coverage tests, `*_rule_coverage.py`, excepted); `strings`: an id asserted as a quoted
    string counts too; `anchored`: the test name must start with `test_<id>`."""
    texts = [p.read_text() for p in sorted(directory.glob(files))
             if not p.name.endswith("_rule_coverage.py")]
    names = {n for text in texts for n in TEST_NAME.findall(text)}
    joined = "\n".join(texts)
    missing = []
    for rule_id in registered_rule_ids(prefix):
        word = re.escape(rule_id.replace(".", "_"))
        named = re.compile(rf"^test_{word}(?:_|$)" if anchored else rf"(?:^|_){word}(?:_|$)")
        if any(named.search(n) for n in names):
            continue
        if strings and f'"{rule_id}"' in joined:
            continue
        missing.append(rule_id)
    return missing


def documented_rule_ids(doc: str, pattern: str, flags: int = 0) -> set[str]:
    """The rule ids `pattern` (one group) finds in docs/rules/`doc`."""
    return set(re.findall(pattern, (RULES_DOCS / doc).read_text(), flags))


def play(hexlog: Hexlog, *args: str, timeout: float = 120) -> dict[str, Any]:
    """`hexlog play <args> --json` succeeds; its result."""
    played = hexlog.run("play", *args, "--json", timeout=timeout)
    assert played.code == 0, played.err[-2000:]
    result: dict[str, Any] = json.loads(played.out)
    return result


def replay(hexlog: Hexlog, game_id: str, *args: str, timeout: float = 120) -> str:
    """`hexlog replay <game> <args>` succeeds; what it printed."""
    shown = hexlog.run("replay", game_id, *args, timeout=timeout)
    assert shown.code == 0, shown.err[-2000:]
    return shown.out


def audit_passes(hexlog: Hexlog, game_id: str, timeout: float = 120) -> str:
    """`hexlog audit <game>` exits 0; what it printed."""
    audited = hexlog.run("audit", game_id, timeout=timeout)
    assert audited.code == 0, (audited.out + audited.err)[-2000:]
    return audited.out


class Names:
    """Names for a narration hook: `seat0`, `v12`, `e7`, `h3`."""

    def who(self, seat: int | None) -> str:
        return f"seat{seat}"

    def vertex(self, v: int) -> str:
        return f"v{v}"

    def edge(self, e: int) -> str:
        return f"e{e}"

    def hex(self, h: int) -> str:
        return f"h{h}"


class Marks:
    """A sketch for a drawing hook that keeps its marks as (place, site, text)."""

    def __init__(self) -> None:
        self.marks: list[tuple[str, int, str]] = []

    def mark(self, place: str, site: int, text: str) -> None:
        self.marks.append((place, site, text))
