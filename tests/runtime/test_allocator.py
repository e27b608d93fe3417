"""The embedded servers run with jemalloc where the system has it (services/runtime/allocator.py):
the library is mapped into the server, the server serves as before, the choice can be turned
off, and asking for it where it is missing is a clear error, not a silent fallback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import redis

from services.runtime import allocator
from services.runtime.ha import EmbeddedHA
from services.runtime.valkey import EmbeddedValkey
from services.store.connect import BadSettingError

pytestmark = [pytest.mark.slow, pytest.mark.single_server]


def server_pid(url: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        # The server works under the preloaded allocator: a script, a stream, the AOF.
        assert client.eval("return redis.call('XADD', KEYS[1], '*', 'a', ARGV[1])", 1, "s",
                           "x" * 5000)
        assert client.xlen("s") == 1
        return int(client.info("server")["process_id"])
    finally:
        client.close()


def test_jemalloc_is_installed_here() -> None:
    # scripts/system-packages installs it (Debian: libjemalloc2): without it every test below
    # would pass with the C library's malloc and prove nothing.
    assert allocator.find_jemalloc() is not None


def test_the_embedded_server_runs_with_jemalloc_and_leaves_our_environment_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(allocator.ENV, raising=False)
    monkeypatch.delenv("LD_PRELOAD", raising=False)
    with EmbeddedValkey(tmp_path / "v") as server:
        assert allocator.in_use(server_pid(server.url)) == "jemalloc"
    assert "LD_PRELOAD" not in os.environ  # only the server's child got it


def test_libc_turns_it_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(allocator.ENV, "libc")
    with EmbeddedValkey(tmp_path / "v") as server:
        assert allocator.in_use(server_pid(server.url)) == "libc"


def test_every_node_of_a_replicated_set_runs_with_jemalloc(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(allocator.ENV, raising=False)
    ha = EmbeddedHA(tmp_path / "ha").start()
    try:
        pids = [node.proc.pid for node in ha.nodes if node.proc is not None]
        assert len(pids) == len(ha.nodes) >= 2
        assert [allocator.in_use(pid) for pid in pids] == ["jemalloc"] * len(pids)
    finally:
        ha.stop()


def test_asking_for_jemalloc_where_it_is_missing_names_the_variable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator, "find_jemalloc", lambda: None)
    monkeypatch.setenv(allocator.ENV, "jemalloc")
    with pytest.raises(BadSettingError, match="HEXLOG_VALKEY_MALLOC=jemalloc"):
        EmbeddedValkey(tmp_path / "v").start()
    assert not (tmp_path / "v" / "valkey.url").exists()  # nothing was started
    # `auto` goes on with the C library's malloc.
    monkeypatch.setenv(allocator.ENV, "auto")
    assert allocator.preload() is None


def test_a_bad_choice_is_refused_with_the_choices() -> None:
    with pytest.raises(BadSettingError, match="HEXLOG_VALKEY_MALLOC must be auto, jemalloc or libc"):
        allocator.choice_from_env({allocator.ENV: "tcmalloc"})


def test_a_preload_already_set_is_kept_after_ours() -> None:
    env = allocator.server_env({"LD_PRELOAD": "/opt/trace.so", "PATH": "/bin"})
    found = allocator.find_jemalloc()
    assert env["LD_PRELOAD"] == f"{found} /opt/trace.so"
    assert env["PATH"] == "/bin"
    assert "LD_PRELOAD" not in allocator.server_env({allocator.ENV: "libc"})


def test_a_process_that_is_not_a_server_is_not_guessed() -> None:
    assert allocator.in_use(os.getpid()) == "unknown"  # python, not valkey-server
    assert allocator.in_use(2**22 + 12345) == "unknown"  # no such process
