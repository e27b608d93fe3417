"""The service seen from a real Prometheus (Debian's, installed by scripts/system-packages):
`hexlog up --metrics-port` serves each service's metrics, Prometheus scrapes them while games
are played, and PromQL gives a commands rate above 0 and a p99 of judge time; every query of
the shipped dashboard and alert rules is one Prometheus accepts (deploy/grafana/hexlog.json,
deploy/prometheus/alerts.yml).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from cli_helpers import Hexlog

ROOT = Path(__file__).resolve().parents[2]


def free_ports(n: int) -> int:
    """The first of n consecutive free ports of 127.0.0.1 (from a random place: two calls
    before either port is taken must not pick the same)."""
    first = random.randrange(20_000, 40_000)
    for start in range(first, first + 10_000, 17):
        sockets = []
        try:
            for port in range(start, start + n):
                s = socket.socket()
                s.bind(("127.0.0.1", port))
                sockets.append(s)
            return start
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    raise RuntimeError("no free ports")


@pytest.fixture
def prometheus(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path, str]]:
    binary = shutil.which("prometheus")
    if binary is None:
        pytest.fail("prometheus is not installed: scripts/system-packages installs it "
                    "(Debian package prometheus)")
    port = free_ports(1)
    config = tmp_path / "prometheus.yml"
    config.write_text("global: {scrape_interval: 1s}\nscrape_configs: []\n")
    proc = subprocess.Popen(
        [binary, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}",
         f"--web.listen-address=127.0.0.1:{port}", "--web.enable-lifecycle"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    yield proc, config, f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(30)


def query(base: str, promql: str) -> list[dict[str, Any]]:
    answer = httpx.get(f"{base}/api/v1/query", params={"query": promql}, timeout=10).json()
    assert answer["status"] == "success", (promql, answer)
    return list(answer["data"]["result"])


def test_prometheus_scrapes_up_and_reads_the_commands_rate_and_judge_p99(
        hexlog: Hexlog, prometheus: tuple[subprocess.Popen[bytes], Path, str]) -> None:
    _, config, base = prometheus
    metrics = free_ports(4)
    up = hexlog.start("up", "--metrics-port", str(metrics))
    said = hexlog.wait_for_line(up, "metrics for Prometheus", timeout=60)
    assert f"rules {metrics}, projections {metrics + 1}, bots {metrics + 2}" in said[-1]
    targets = {"rules": metrics, "projections": metrics + 1, "bots": metrics + 2}
    config.write_text(yaml.safe_dump({"global": {"scrape_interval": "1s"}, "scrape_configs": [
        {"job_name": f"hexlog-{name}", "static_configs": [
            {"targets": [f"127.0.0.1:{port}"], "labels": {"service": name}}]}
        for name, port in targets.items()]}))
    deadline = time.monotonic() + 60
    while True:  # Prometheus may still be starting
        try:
            if httpx.post(f"{base}/-/reload", timeout=5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "prometheus never answered"
        time.sleep(0.5)
    # Scraped before the games start: a counter's rate needs samples from while it rose (a
    # tournament of a few seconds could end before the first scrape of the new targets).
    while {r["metric"]["service"] for r in query(base, "up == 1")} != set(targets):
        assert time.monotonic() < deadline, query(base, "up")
        time.sleep(0.5)
    played = hexlog.run("tournament", "--bots", "random,heuristic", "--games", "4",
                        "--seed", "metrics", timeout=300)
    assert played.code == 0, played.err[-2000:]
    rate = 'sum(rate(hexlog_commands_total{outcome="accepted"}[2m]))'  # covers the games
    p99 = "histogram_quantile(0.99, sum(rate(hexlog_judge_seconds_bucket[2m])) by (le))"
    deadline = time.monotonic() + 90
    while not (query(base, "sum(hexlog_commands_total)") and query(base, rate)
               and float(query(base, rate)[0]["value"][1]) > 0):
        assert time.monotonic() < deadline, query(base, "up")
        time.sleep(1)
    commands_per_s = float(query(base, rate)[0]["value"][1])
    judge_p99 = float(query(base, p99)[0]["value"][1])
    assert commands_per_s > 0
    assert 0 < judge_p99 < 60
    assert {r["metric"]["service"] for r in query(base, "up == 1")} == set(targets)
    answers = query(base, 'sum(hexlog_bot_answers_total{service="bots"})')
    assert float(answers[0]["value"][1]) > 100
    # Every query the dashboard and the alerts ship parses and runs here.
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "hexlog.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    alerts = yaml.safe_load((ROOT / "deploy" / "prometheus" / "alerts.yml").read_text())
    exprs += [rule["expr"] for group in alerts["groups"] for rule in group["rules"]]
    for expr in exprs:
        query(base, expr)
    top = hexlog.run("top", "--times", "1", "--every", "0.5")  # reads DATA_DIR/metrics.json
    assert top.code == 0, top.err
    assert "commands accepted/s" in top.out
    assert "judge p50 / p99" in top.out
    names = {line.split()[2] for port in targets.values() for line in httpx.get(
        f"http://127.0.0.1:{port}/metrics", timeout=5).text.splitlines()
        if line.startswith("# TYPE hexlog_")}
    for expr in exprs:  # and names only metrics a service really exports
        for name in re.findall(r"hexlog_[a-z_]+", expr):
            base = re.sub(r"_(bucket|sum|count)$", "", name)
            assert base in names | SERVED_ELSEWHERE, name


# Metrics of the processes this test does not scrape: the gateway, a tournament runner.
SERVED_ELSEWHERE = {"hexlog_http_requests_total", "hexlog_http_open_streams",
                    "hexlog_http_limited_total", "hexlog_tournament_games_total",
                    "hexlog_tournament_queue"}
