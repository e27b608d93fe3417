"""The README's quick path quotes real output. Each example line it shows (the event lines of
`hexlog replay demo-1 --follow`) and each thing it says a command says (`hexlog play … says
`…``) must appear, verbatim, in what the documented commands print, run here as a user runs
them: `hexlog up`, the watcher started first, then the game of the seed the README names.

The same game, followed with `--board` as well, shows the board again after every turn that
ends while it is followed, and once more at the end.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from cli_helpers import Hexlog, one_line_error

from events.events import TurnEnded
from services.audit.archive import read_lines
from services.render.follow import SEPARATOR

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
QUICK_PATH = README.split("## Quick path", 1)[1].split("\n## ", 1)[0]


def example_lines() -> list[str]:
    """The lines of the quick path's code blocks but the first (the commands to type)."""
    blocks = re.findall(r"```\n(.*?)```", QUICK_PATH, re.DOTALL)[1:]
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def sayings() -> list[tuple[str, str]]:
    """(the hexlog command, what the README says it says)."""
    return re.findall(r"`hexlog (\w+)[^`]*` says `([^`]+)`", QUICK_PATH)


def seeded_game() -> list[str]:
    """The command of the game the example lines come from, as the README names it."""
    found = re.search(r"`hexlog (play --game-id demo-1 --seed \S+)`", QUICK_PATH)
    assert found, "the README's quick path no longer names the seed of its example"
    return found[1].split()


def watcher(hexlog: Hexlog, *more: str) -> subprocess.Popen[str]:
    proc = hexlog.start("replay", "demo-1", "--follow", *more)
    hexlog.wait_for_line(proc, "waiting for game demo-1 to start")
    return proc


def test_the_quick_paths_quoted_output_is_what_the_commands_print(hexlog: Hexlog) -> None:
    lines = example_lines()
    assert len(lines) >= 3
    assert all(re.match(r"v\d+ +\S", line) for line in lines)  # event lines, as replay prints
    assert sayings()
    up = hexlog.start("up")
    hexlog.wait_for_line(up, "supervising rules, projections and bots")
    watch, boards = watcher(hexlog), watcher(hexlog, "--board")
    played = hexlog.run(*seeded_game())
    assert played.code == 0, played.err
    out, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    assert "-- following; Ctrl-C stops --" in out
    for line in lines:
        assert line in out.splitlines(), f"the README's {line!r} is not in the real output"
    said = {"play": played.err + played.out}
    for command, text in sayings():
        assert text in said[command], f"`hexlog {command}` does not say {text!r}"

    drawn, err = boards.communicate(timeout=60)
    assert boards.returncode == 0, err
    started = re.search(r"· version (\d+) ·", drawn.splitlines()[0])
    assert started, drawn[:300]
    exported = hexlog.run("export", "demo-1")
    assert exported.code == 0, exported.err
    _, record = read_lines(exported.out.splitlines())
    ended = [r.version for r in record.events
             if isinstance(r.event, TurnEnded) and r.version > int(started[1])]
    assert len(ended) > 20  # the watcher followed the game from its first turns
    separators = [line for line in drawn.splitlines() if line.startswith("── board at v")]
    assert [int(re.findall(r"v(\d+)", line)[0]) for line in separators] == [*ended, record.version]
    assert separators[-1] == SEPARATOR.format(version=record.version, why="the game is over")
    assert "\x1b[" not in drawn  # not a terminal: no screen clearing


def test_board_without_follow_is_refused_before_anything_starts(hexlog: Hexlog) -> None:
    one_line_error(hexlog.run("replay", "demo-1", "--board"), 2, "--board")
    assert not hexlog.data.exists()
