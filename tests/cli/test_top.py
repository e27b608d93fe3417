"""`hexlog top` computes what it shows from two readings of the services' metrics: rates from
counters, quantiles from histogram buckets (as PromQL's histogram_quantile does)."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from services.cli.top import Reading, Samples, quantile, rows


def samples_of(registry: CollectorRegistry) -> Samples:
    out: Samples = {}
    for family in text_string_to_metric_families(generate_latest(registry).decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = float(s.value)
    return out


def test_rates_and_quantiles_come_from_what_happened_between_two_readings() -> None:
    registry = CollectorRegistry()
    commands = Counter("hexlog_commands_total", "", ["outcome", "rules"], registry=registry)
    judge = Histogram("hexlog_judge_seconds", "", buckets=(0.001, 0.01, 0.1, 1.0),
                      registry=registry)
    commands.labels("accepted", "base").inc(500)
    for _ in range(1000):
        judge.observe(0.5)  # before the first reading: not what top shows
    before = Reading(100.0, samples_of(registry))
    commands.labels("accepted", "base").inc(200)
    commands.labels("rejected", "base").inc(10)
    for _ in range(99):
        judge.observe(0.005)  # in (0.001, 0.01]
    judge.observe(0.05)  # one in (0.01, 0.1]
    now = Reading(110.0, samples_of(registry))
    shown = dict(rows(before, now))
    assert shown["commands accepted/s"] == "20.0"
    assert shown["commands rejected/s"] == "1.0"
    assert quantile(before.samples, now.samples, "hexlog_judge_seconds", 0.5) == pytest.approx(
        0.001 + 0.009 * (50 / 99))  # linear in the bucket that holds the 50th of 100
    p99 = quantile(before.samples, now.samples, "hexlog_judge_seconds", 0.99)
    assert p99 is not None
    assert p99 == pytest.approx(0.01)  # the 99th of 100 is the top of the (0.001, 0.01] bucket
    assert quantile(now.samples, now.samples, "hexlog_judge_seconds", 0.99) is None
