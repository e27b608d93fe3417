"""`hexlog bench e2e` says what a game costs: CPU per 1,000 commands and RSS for each kind of
process, and the Valkey memory of live, idle and finished games (services/cli/bench_cost.py);
`--concurrency A,B` runs a curve. Tiny runs through the real services: the fields are there and
agree with each other; no timing is asserted."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from cli_helpers import Hexlog, one_line_error

from services.cli import bench_cost

KINDS = ("rules", "bots", "projections", "valkey")


def test_a_run_reports_cpu_memory_and_game_sizes(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "e2e", "--ceiling-s", "1",
                        "--games", "2", "--concurrency", "2", "--idle", "6",
                        "--json", timeout=300)
    assert result.code == 0, result.err[-3000:]
    r = json.loads(result.out)
    assert r["commands"] > 0
    # the ceiling, measured before the games and after them; the rate as a share of it
    before, after = r["lua_append_before_per_s"], r["lua_append_after_per_s"]
    assert min(before, after) > 0
    assert r["lua_append_per_s"] == pytest.approx((before + after) / 2)
    assert r["of_ceiling"] == pytest.approx(r["commands_per_s"] / r["lua_append_per_s"])
    cpu, rss = r["cpu_s_per_1000_commands"], r["rss_mb"]
    for kind in KINDS:
        assert cpu[kind] > 0, (kind, cpu)
        assert rss[kind] > 1, (kind, rss)  # a Python service or a Valkey holds megabytes
    assert r["processes"] == {"rules": 1, "bots": 1, "projections": 1, "driver": 1}
    assert r["cpu_s_per_1000_commands_rules_and_bots"] == pytest.approx(cpu["rules"] + cpu["bots"])
    # a whole game's log is kept for good: some KB per event, never less than its events
    per_event = r["valkey_kb_per_finished_game"] * 1024 / (r["events"] / r["games"])
    assert 16 < per_event < 4096, per_event
    assert r["valkey_kb_per_finished_game"] <= r["valkey_kb_per_finished_game_until_expiry"]
    assert r["valkey_kb_per_live_game"] > 0
    assert r["valkey_stream_kb_per_game"] > 0
    assert r["idle_games"] == 6
    assert r["valkey_kb_per_idle_game"] > 0
    assert r["rules_kb_per_idle_game"] >= 0
    # Valkey's calls and its time in them, per command: every accepted command ran the append
    # script once at least, and a script's time holds the time of the commands it ran
    calls, spent = r["valkey_calls_per_command"], r["valkey_us_per_command"]
    assert calls["evalsha"] >= 1, calls
    assert spent["evalsha"] > 0, spent
    assert spent["evalsha"] >= spent.get("zrem", 0.0), spent  # most ZREMs run in the script
    assert list(spent.values()) == sorted(spent.values(), reverse=True)
    # Valkey's loop over the games and over the ceiling: cycles a second and what each carried
    # (the commands a second, again), its busy share, and the commands' share of that
    loop, ceiling = r["valkey_loop"], r["ceiling_loop"]
    assert loop["per_cycle"] * loop["cycles_per_s"] == pytest.approx(r["commands_per_s"], rel=0.25)
    assert ceiling["per_cycle"] * ceiling["cycles_per_s"] == pytest.approx(before, rel=0.25)
    for reading in (loop, ceiling):
        assert 0 < reading["busy"] < 1.5, reading  # (a share of the wall time, give or take)
        assert 0 < reading["in_commands"] <= 1, reading
    # a PING's round trip while the games ran, and with the server idle before them: what
    # each of a move's writes waits (the games' is the longer: they wait for each cycle's fsync)
    trip = r["round_trip_ms"]
    assert trip["samples"] > 10, trip  # one every 10 ms, over the games' seconds
    assert trip["idle_p50"] > 0, trip
    assert 0 < trip["p50"] <= trip["p99"], trip
    # the embedded server runs with jemalloc (services/runtime/allocator.py), and says so
    assert r["valkey_allocator"] == "jemalloc"
    text = "\n".join(bench_cost.format_cost(r))
    assert "Valkey's loop:" in text
    assert f"a round trip to Valkey: p50 {trip['p50']:.2f} ms" in text
    assert "(malloc: jemalloc)" in text


def test_a_curve_has_a_point_per_level(hexlog: Hexlog, tmp_path: Path) -> None:
    result = hexlog.run("bench", "e2e", "--ceiling-s", "1",
                        "--games", "1", "--concurrency", "1,2", "--json",
                        timeout=400)
    assert result.code == 0, result.err[-3000:]
    points = json.loads(result.out)["curve"]
    assert [p["concurrency"] for p in points] == [1, 2]
    assert [p["games"] for p in points] == [1, 2]  # at least as many games as at once
    assert all(p["cpu_s_per_1000_commands"]["rules"] > 0 for p in points)


def test_plot_draws_or_says_what_it_needs(hexlog: Hexlog, tmp_path: Path) -> None:
    picture = tmp_path / "curve.png"
    if importlib.util.find_spec("matplotlib") is None:
        result = hexlog.run("bench", "e2e", "--ceiling-s", "1",
                            "--games", "1", "--concurrency", "1",
                            "--plot", str(picture))
        one_line_error(result, 2, "--plot: needs matplotlib")
        assert not list(hexlog.data.glob("bench-*"))
    else:
        result = hexlog.run("bench", "e2e", "--ceiling-s", "1",
                            "--games", "1", "--concurrency", "1",
                            "--plot", str(picture), timeout=300)
        assert result.code == 0, result.err[-3000:]
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not picture.exists() or picture.stat().st_size > 1000


@pytest.mark.parametrize(("value", "text"), [
    ("1,x", "--concurrency: expected a whole number, not 'x' (in '1,x')"),
    ("1,,2", "--concurrency: expected whole numbers separated by commas, not '1,,2'"),
    ("1,0", "--concurrency: must be at least 1, not 0 (in '1,0')"),
])
def test_a_bad_level_is_refused_in_one_line(hexlog: Hexlog, value: str, text: str) -> None:
    one_line_error(hexlog.run("bench", "e2e", "--concurrency", value), 2, text)
    assert not hexlog.data.exists() or not list(hexlog.data.glob("bench-*"))


def test_metrics_cost_compares_rates_and_cpu_with_and_without(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "e2e", "--ceiling-s", "1", "--games", "1", "--concurrency", "1",
                        "--metrics-cost", "1", "--json", timeout=400)
    assert result.code == 0, result.err[-3000:]
    r = json.loads(result.out)
    assert len(r["commands_per_s_with_metrics"]) == len(r["commands_per_s_without"]) == 1
    assert len(r["cpu_s_per_1000_commands_with"]) == len(r["cpu_s_per_1000_commands_without"]) == 1
    assert r["median_with"] > 0
    assert r["median_without"] > 0
    assert min(r["cpu_s_per_1000_commands_with"] + r["cpu_s_per_1000_commands_without"]) > 0
    off = r["cpu_s_per_1000_commands_without"][0]
    assert r["cpu_cost"] == pytest.approx((r["cpu_s_per_1000_commands_with"][0] - off) / off)
