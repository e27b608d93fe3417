"""Archives and benchmarks as a user meets them (issue 11, items 3, 5, 6, 7): `import` audits an
archive and refuses a tampered one, and a game that exists; `audit` trusts the header's counts
no more than the lines; `replay … | head` ends quietly; the engine benchmark refuses a count it
cannot divide by; `bench e2e` leaves nothing in the user's store.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from cli_helpers import CORPUS, Hexlog, one_line_error

BASE = CORPUS / "base-4.jsonl"


def rewrite(path: Path, source: Path, edit: str, into: str, game: str) -> Path:
    text = source.read_text().replace(edit, into, 1)
    path.write_text(text.replace("corpus-base-4", game))
    return path


def test_import_audits_the_archive_and_refuses_a_game_that_exists(hexlog: Hexlog) -> None:
    first = hexlog.run("import", str(BASE))
    assert first.code == 0, first.err
    assert "imported game corpus-base-4: 138 events" in first.out
    one_line_error(hexlog.run("import", str(BASE)), 2,
                   "game corpus-base-4 exists already in this Redis")
    assert hexlog.run("audit", "corpus-base-4").code == 0


def test_import_refuses_a_tampered_archive(hexlog: Hexlog, tmp_path: Path) -> None:
    lines = BASE.read_text().splitlines()
    roll = next(i for i, line in enumerate(lines) if '"type":"DiceRolled"' in line)
    event = json.loads(lines[roll])
    d1, d2 = event["envelope"]["event"]["d1"], event["envelope"]["event"]["d2"]
    edited = rewrite(tmp_path / "t.jsonl", BASE, lines[roll],
                     lines[roll].replace(f'"d1":{d1},"d2":{d2}', f'"d1":{d2},"d2":{d1}')
                     if d1 != d2 else lines[roll].replace(f'"d1":{d1}', f'"d1":{d1 % 6 + 1}'),
                     "tampered-4")
    result = hexlog.run("import", str(edited))
    one_line_error(result, 1, "the archive does not hold together")
    assert "(chance)" in result.lines()[-1]
    assert hexlog.run("replay", "corpus-tampered-4").code == 2  # nothing was imported
    forced = hexlog.run("import", str(edited), "--unchecked")
    assert forced.code == 0
    assert "imported unchecked" in forced.err


def test_audit_of_an_archive_cut_at_a_line_boundary_fails(hexlog: Hexlog, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(BASE.read_text().splitlines()[:100]) + "\n")
    result = hexlog.run("audit", str(cut))
    assert result.code == 1, result.out
    assert "the header says 138 events and the archive holds 99" in result.out
    assert "the header says the game finished" in result.out
    assert result.out.splitlines()[-1].startswith("FAILED")
    replayed = hexlog.run("replay", str(cut))
    assert replayed.code == 0
    assert "warning: the header says 138 events" in replayed.err
    one_line_error(hexlog.run("import", str(cut)), 1, "the header says 138 events")


def test_replay_into_a_pipe_that_closes_ends_quietly(hexlog: Hexlog) -> None:
    """`hexlog replay FILE | head -1`: the reader is gone before replay has written it all."""
    read, write = os.pipe()
    os.close(read)  # deterministic: every write finds the pipe closed
    try:
        done = subprocess.run(hexlog.command("replay", str(BASE)), cwd=hexlog.cwd, env=hexlog.env,
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "BrokenPipe" not in done.stderr


def test_bench_e2e_keeps_its_games_apart_from_the_users(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "e2e", "--ceiling-s", "1",
                        "--games", "2", "--concurrency", "2", "--json", timeout=180)
    assert result.code == 0, result.err
    bench = json.loads(result.out)
    assert bench["games"] == 2
    assert bench["lua_append_per_s"] > 0
    assert "a Valkey of its own" in result.err
    assert not list(hexlog.data.glob("bench-*")), "the benchmark's server was left behind"
    rebuilt = hexlog.run("projections", "rebuild")
    assert rebuilt.code == 0, rebuilt.err
    assert "rebuilt the projections of 0 games" in rebuilt.out
    assert "Traceback" not in rebuilt.err


def test_bench_engine_reports_positive_rates(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "engine", "--games", "2", "--json")
    assert result.code == 0, result.err
    bench = json.loads(result.out)
    assert bench["games"] == 2
    assert bench["games_per_s"] > 0
