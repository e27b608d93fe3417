"""CI runs the whole suite on the compiled engine too (issue 19): `make test-compiled` (the
engine's folders but their slow sweeps), `make test-compiled-slow` (those sweeps), `make
test-compiled-rest` (the folders without the session's server, and the single-server tests),
`make test-compiled-failover` (the failover folder) and the cluster pass (the
folders on the session's server). A test folder that none of them names, or a part of one
that none runs, would run on the Python source only: these tests fail instead."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _makefile() -> str:
    return (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")


def _folders(text: str) -> set[str]:
    return {word.rstrip("/") for word in text.split() if word.startswith("tests/")}


def _variable(name: str) -> set[str]:
    found = re.search(rf"^{name} := (.+)$", _makefile(), re.MULTILINE)
    assert found is not None, f"no {name} in the Makefile"
    return _folders(found.group(1))


def _recipe(target: str) -> list[str]:
    found = re.search(rf"^{target}:.*\n((?:\t.+\n)+)", _makefile(), re.MULTILINE)
    assert found is not None, f"no {target} recipe in the Makefile"
    return [line.strip() for line in found.group(1).splitlines()]


def test_every_test_folder_runs_on_the_compiled_engine() -> None:
    engine, rest = _variable("ENGINE_TESTS"), _variable("COMPILED_REST")
    failover = _variable("COMPILED_FAILOVER")
    cluster = _folders(" ".join(_recipe("test-cluster")))
    assert engine
    assert rest
    assert failover
    assert cluster
    assert all(line.startswith("HEXLOG_REQUIRE_COMPILED=1 ")
               for line in _recipe("test-compiled-failover"))
    folders = {f"tests/{d.name}" for d in (ROOT / "tests").iterdir()
               if d.is_dir() and any(d.rglob("test_*.py"))}
    left_out = sorted(folders - engine - rest - failover - cluster)
    assert not left_out, f"test folders no compiled pass runs: {left_out}"


def test_the_rest_pass_runs_the_single_server_tests_of_the_cluster_folders_compiled() -> None:
    """The cluster pass deselects the tests about the single embedded server; the rest pass
    runs exactly those, over the same folders, and every line of it requires the build."""
    lines = _recipe("test-compiled-rest")
    assert all(line.startswith("HEXLOG_REQUIRE_COMPILED=1 ") for line in lines), lines
    single = [line for line in lines if "-m single_server" in line]
    assert len(single) == 1
    assert _folders(single[0]) == _folders(" ".join(_recipe("test-cluster")))
    assert any("$(COMPILED_REST)" in line for line in lines)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"lane \"pass 2\" test-compiled test-compiled-rest", ci)


def test_the_engine_folders_run_whole_across_the_fast_and_slow_compiled_passes() -> None:
    """`test-compiled` deselects the slow sweeps; `test-compiled-slow` selects exactly them,
    over the same folders, and CI runs both."""
    (fast,) = _recipe("test-compiled")[1:]
    (slow,) = _recipe("test-compiled-slow")
    for line in (fast, slow):
        assert line.startswith("HEXLOG_REQUIRE_COMPILED=1 ")
        assert "$(ENGINE_TESTS)" in line
    assert '-m "not slow"' in fast
    assert slow.endswith("-m slow")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"lane \"pass 3\" test-cluster test-compiled-slow test-compiled-failover", ci)
