"""`hexlog bench failover`, shortened (benchmarks/failover.md has the full runs): games played
through the real rules service while the primary holding them is killed again and again, then
every acknowledged command checked against the logs. On one shard (Sentinel) and on a 3-master
cluster with replicas: nothing acknowledged lost, nothing doubled, no gap, every game audited
clean and finished, and every kill followed by acknowledged commands again (a generous bound
here; the benchmark's is 10 s)."""

from __future__ import annotations

import json

import pytest
from cli_helpers import Hexlog

pytestmark = pytest.mark.slow
LIVENESS_S = 60.0


@pytest.mark.parametrize("where", [[], ["--cluster", "3"]], ids=["sentinel", "cluster"])
def test_no_acknowledged_command_is_lost_to_killed_primaries(hexlog: Hexlog,
                                                             where: list[str]) -> None:
    ran = hexlog.run("bench", "failover", *where, "--kills", "2", "--phase-s", "3",
                     "--concurrency", "8", "--json", timeout=900)
    assert ran.code == 0, ran.err[-3000:]
    result = json.loads(ran.out)
    assert result["kills"] == 2
    assert result["acked"] > 100
    for fault in ("acked_lost", "doubled", "gaps", "audit_failures", "unfinished", "refused"):
        assert result[fault] == 0, (fault, result["problems"])
    assert len(result["unavailable_s"]) == 2
    assert result["max_unavailable_s"] < LIVENESS_S
    assert result["commands_per_s_local"] > 0
    assert result["commands_per_s_replica"] > 0
    assert "kill 2/2" in ran.err  # the run says where it is as it goes
