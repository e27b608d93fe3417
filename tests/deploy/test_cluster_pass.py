"""CI's second pass (`make test-cluster`) runs every test that uses the session's server: a test
folder whose tests start to use it joins the pass, or its tests are marked `single_server`
with the reason. Checked on whatever this session collected (the whole suite in CI's first
pass)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ON_THE_SERVER = {"valkey_server", "fresh_valkey"}  # every server fixture depends on one of them


def cluster_pass_folders() -> set[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    recipe = re.search(r"^test-cluster:.*\n\t(.+)$", makefile, re.MULTILINE)
    assert recipe is not None, "no test-cluster recipe in the Makefile"
    assert "--cluster 3" in recipe.group(1)
    return {word.rstrip("/") for word in recipe.group(1).split() if word.startswith("tests/")}


def test_every_test_on_the_sessions_server_runs_in_the_cluster_pass(
        request: pytest.FixtureRequest) -> None:
    folders = cluster_pass_folders()
    assert folders
    outside = sorted(
        item.nodeid for item in request.session.items
        if ON_THE_SERVER & set(getattr(item, "fixturenames", ()))
        and not item.get_closest_marker("single_server")
        and "/".join(Path(item.nodeid.split("::")[0]).parts[:2]) not in folders)
    assert not outside, (f"tests on the session's server outside `make test-cluster` "
                         f"({', '.join(sorted(folders))}): {outside}")
