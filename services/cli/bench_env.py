"""`hexlog bench env`: the environments' steps per second with random legal actions
(bots/env, docs/rl.md), for the base game and each scenario, and catanatron's Gymnasium
environment in the same run when `--catanatron-python` names a venv's python that has
catanatron-gym (never installed in hexlog's own venv: it is GPL; none of its code is here).

Measured per ruleset: `gym 1v1` (the agent against one random bot: the setting of
catanatron's environment, 1v1 against a random bot), `gym 1v3` (against three random bots)
and `aec` (every seat an agent, each step one seat's action). A step is one action id of the
agent (a discard of 4 cards is 4 steps in either environment family); both sides are made
with `gymnasium.make` and draw uniformly among the legal actions with a seeded generator.
Rounds alternate which side runs first; the figures are the medians over the rounds, per
second of wall clock and per second of the measuring process's CPU time (on a machine other
work shares, waiting for a core slows the first only)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from services.cli.errors import CliError, UsageError
from services.rules.build import engine_build
from services.rules.engine import MODULES

# Run by the catanatron venv's python: its env from its own registration, random valid
# actions (catanatron-gym lists them in info["valid_actions"]), the same loop as ours.
CATANATRON_LOOP = r"""
import json, random, sys, time
import gymnasium, catanatron_gym  # noqa: F401  (registers catanatron-v1)
steps, seed = int(sys.argv[1]), int(sys.argv[2])
env = gymnasium.make("catanatron-v1")
rng = random.Random(seed)
obs, info = env.reset(seed=seed)
episodes = 0
start, cpu = time.perf_counter(), time.process_time()
for _ in range(steps):
    obs, reward, terminated, truncated, info = env.step(rng.choice(info["valid_actions"]))
    if terminated or truncated:
        episodes += 1
        obs, info = env.reset()
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
from importlib.metadata import version
print(json.dumps({"steps_per_s": steps / seconds, "steps_per_cpu_s": steps / cpu,
                  "episodes": episodes, "seconds": seconds,
                  "actions": int(env.action_space.n), "observation": int(len(obs)),
                  "version": version("catanatron-gym")}))
"""


def rulesets(args: argparse.Namespace) -> list[tuple[str | None, tuple[str, ...]]]:
    """The rulesets to measure: the one given (--scenario/--variant), else the base game and
    each scenario."""
    variants = tuple(f"{v.name}:" + ",".join(f"{k}={x}" for k, x in v.params.items())
                     for v in args.variant)
    if args.ruleset != "base" or variants:
        return [(None if args.ruleset == "base" else args.ruleset, variants)]
    scenarios = sorted(n for n, m in MODULES.items() if m.kind == "scenario")
    return [(None, ()), *((s, ()) for s in scenarios)]


def gym_rate(scenario: str | None, variants: tuple[str, ...], opponents: int, steps: int,
             seed: int) -> dict[str, Any]:
    import gymnasium

    import bots.env  # noqa: F401  (registers hexlog/Catan-v0)

    env = gymnasium.make("hexlog/Catan-v0", opponents=("random",) * opponents,
                         scenario=scenario, variants=variants)
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):  # as catanatron's loop: a legal id drawn from the list in `info`
        obs, reward, terminated, truncated, info = env.step(rng.choice(info["legal_actions"]))
        if terminated or truncated:
            episodes += 1
            obs, info = env.reset()
    space = env.unwrapped.setup  # type: ignore[attr-defined]
    return {**rates(steps, start, cpu), "episodes": episodes, "actions": space.space.n,
            "observation": space.layout.size}


def rates(steps: int, start: float, cpu: float) -> dict[str, float]:
    """Steps per second of wall clock and of this process's CPU time (the steadier figure on
    a machine other work shares: waiting for a core counts in the first only)."""
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"steps_per_s": steps / seconds, "steps_per_cpu_s": steps / cpu, "seconds": seconds}


def seat_counts(scenario: str | None, variants: tuple[str, ...]) -> set[int]:
    """The table sizes every module of the ruleset allows."""
    names = [scenario] if scenario else []
    names += [v.partition(":")[0] for v in variants]
    allowed = {2, 3, 4}
    for name in names:
        allowed &= set(MODULES[name].seats)
    return allowed


def aec_rate(scenario: str | None, variants: tuple[str, ...], steps: int,
             seed: int) -> dict[str, Any]:
    from bots.env import aec_env

    env = aec_env(scenario, variants, seats=max(seat_counts(scenario, variants)), seed=seed)
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        if not env.agents:
            episodes += 1
            env.reset()
            continue
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        done += 1
    return {**rates(steps, start, cpu), "episodes": episodes}


def catanatron_rate(python: str, steps: int, seed: int) -> dict[str, Any]:
    try:
        done = subprocess.run([python, "-c", CATANATRON_LOOP, str(steps), str(seed)],
                              capture_output=True, text=True, check=True, timeout=3600)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        raise CliError(f"--catanatron-python {python}: catanatron's environment did not run: "
                       f"{detail.strip().splitlines()[-1] if detail.strip() else exc}") from None
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measurements(scenario: str | None, variants: tuple[str, ...], seats: set[int],
                 args: argparse.Namespace) -> dict[str, Callable[[], dict[str, Any]]]:
    """The runs of one ruleset: against one random bot and against three where the table
    sizes allow, and the AEC environment at its largest table."""
    out: dict[str, Callable[[], dict[str, Any]]] = {}
    for opponents in (1, 3):
        if opponents + 1 in seats:
            out[f"gym 1v{opponents}"] = partial(gym_rate, scenario, variants, opponents,
                                                args.steps, args.seed)
    out["aec"] = partial(aec_rate, scenario, variants, args.steps, args.seed)
    return out


def bench_env(args: argparse.Namespace) -> dict[str, Any]:
    rows: dict[str, list[dict[str, Any]]] = {}
    others: list[dict[str, Any]] = []
    for round_ in range(args.rounds):
        catanatron_first = bool(round_ % 2)
        if args.catanatron_python and catanatron_first:
            others.append(catanatron_rate(args.catanatron_python, args.steps, args.seed))
        for scenario, variants in rulesets(args):
            name = "+".join([scenario or "base", *variants])
            seats = seat_counts(scenario, variants)
            for env_name, rate in measurements(scenario, variants, seats, args).items():
                row = {"ruleset": name, "env": env_name, **rate()}
                rows.setdefault(f"{name}|{env_name}", []).append(row)
        if args.catanatron_python and not catanatron_first:
            others.append(catanatron_rate(args.catanatron_python, args.steps, args.seed))
    results = [medians(runs_) for runs_ in rows.values()]
    out: dict[str, Any] = {"build": engine_build(), "steps": args.steps, "rounds": args.rounds,
                           "seed": args.seed, "results": results}
    if others:
        cat = out["catanatron"] = medians(others)
        base = next((r for r in results if r["ruleset"] == "base" and r["env"] == "gym 1v1"), None)
        if base is not None:
            out["ratio_gym_1v1"] = base["steps_per_s"] / cat["steps_per_s"]
            out["ratio_gym_1v1_cpu"] = base["steps_per_cpu_s"] / cat["steps_per_cpu_s"]
    return out


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The first run's fields, with the rates' medians over the rounds (and each round's)."""
    out = dict(runs[0])
    for key in ("steps_per_s", "steps_per_cpu_s"):
        out[key] = statistics.median(r[key] for r in runs)
    out["rounds"] = [round(r["steps_per_s"]) for r in runs]
    return out


def format_env(result: dict[str, Any]) -> str:
    lines = [f"environment benchmark: random legal actions, {result['steps']:,} steps per run, "
             f"{result['rounds']} round(s), medians; engine build {result['build']}",
             f"  {'ruleset':<24} {'env':<8} {'steps/s':>10} {'per CPU s':>10} {'actions':>8} "
             f"{'obs':>7}"]
    for r in result["results"]:
        lines.append(f"  {r['ruleset']:<24} {r['env']:<8} {r['steps_per_s']:10.0f} "
                     f"{r['steps_per_cpu_s']:10.0f} {r.get('actions', ''):>8} "
                     f"{r.get('observation', ''):>7}")
    cat = result.get("catanatron")
    if cat is not None:
        lines.append(f"  {'catanatron-gym ' + cat['version']:<24} {'1v1':<8} "
                     f"{cat['steps_per_s']:10.0f} {cat['steps_per_cpu_s']:10.0f} "
                     f"{cat['actions']:>8} {cat['observation']:>7}")
        if "ratio_gym_1v1" in result:
            lines.append(f"  base gym 1v1 / catanatron: {result['ratio_gym_1v1']:.1f}x "
                         f"(per CPU second {result['ratio_gym_1v1_cpu']:.1f}x)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        raise UsageError("bench env needs the rl extra: pip install -e '.[rl]'") from None
    result = bench_env(args)
    print(json.dumps(result) if args.json else format_env(result))
    return 0
