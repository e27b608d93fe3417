"""Train a policy for one seat against three random bots with sb3-contrib's MaskablePPO, save it
as numpy weights the policy bot plays (no torch at play time), and measure it over N games.

    pip install torch --index-url https://download.pytorch.org/whl/cpu   # torch's CPU build
    pip install -e '.[rl-train]'                                          # sb3-contrib, …
    python examples/rl/train_maskable_ppo.py --minutes 30 --out runs/ppo
    hexlog tournament --pod policy=runs/ppo/policy.npz,random,random,random --games 16

It writes to --out: `policy.npz` (bots/policy_net.py), `curve.csv` (the training curve: steps,
minutes, episodes, the win rate and mean VP of the last 100 training episodes), `eval.json`
(the final games: the policy bot, exactly as a tournament seats it, against three random bots,
rotated through the seats) and `model.zip` (the sb3 model, to go on training).
docs/rl.md describes the environment; benchmarks/rl.md the figures of a full run.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import math
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from bots.env.gym import CatanGym
from bots.env.rewards import Reward
from bots.env.wrappers import FlatObservation
from bots.local import play
from bots.policy import PolicyBot
from bots.policy_net import PolicyNet
from bots.random_bot import RandomBot
from services.rules.engine.chance import SeededDealer

EVAL_TURN_LIMIT = 1000  # a tournament's default


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=30.0, help="training time (default 30)")
    p.add_argument("--timesteps", type=int, default=0, help="stop after this many steps too")
    p.add_argument("--envs", type=int, default=4, help="environments stepped together")
    p.add_argument("--threads", type=int, default=2, help="torch threads (cores; default 2)")
    p.add_argument("--opponents", default="random,random,random",
                   help="the other seats' bots (default three random bots)")
    p.add_argument("--vp-reward", type=float, default=0.1,
                   help="reward per victory point gained, besides +1 win / -1 loss")
    p.add_argument("--turn-limit", type=int, default=300, help="training games' turn limit")
    p.add_argument("--net", default="256,256", help="hidden layers (policy and value)")
    p.add_argument("--eval-games", type=int, default=200, help="games measured at the end")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/ppo"))
    return p.parse_args(argv)


def make_env(args: argparse.Namespace, rank: int) -> Any:
    def make() -> FlatObservation:
        env = CatanGym(opponents=args.opponents.split(","), reward=Reward(vp=args.vp_reward),
                       turn_limit=args.turn_limit, skip_forced=True)
        env.reset(seed=args.seed * 1000 + rank)
        return FlatObservation(env)
    return make


class Progress(BaseCallback):
    """Stops at the time budget and writes the curve from the training episodes' ends."""

    def __init__(self, minutes: float, curve: Path, every: int = 10_000) -> None:
        super().__init__()
        self.deadline = time.monotonic() + minutes * 60
        self.start = time.monotonic()
        self.every = every
        self.wins: deque[float] = deque(maxlen=100)
        self.vps: deque[float] = deque(maxlen=100)
        self.episodes = 0
        self.file = curve.open("w", newline="")
        self.rows = csv.writer(self.file)
        self.rows.writerow(["steps", "minutes", "episodes", "win_rate_last100", "mean_vp_last100"])
        self.next_row = every

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "winner" in info:
                self.episodes += 1
                self.wins.append(float(info["winner"] == info["seat"]))
                self.vps.append(float(info["vp"]))
        if self.num_timesteps >= self.next_row:
            self.next_row += self.every
            self.row()
        return time.monotonic() < self.deadline

    def row(self) -> None:
        minutes = (time.monotonic() - self.start) / 60
        win = sum(self.wins) / len(self.wins) if self.wins else 0.0
        vp = sum(self.vps) / len(self.vps) if self.vps else 0.0
        self.rows.writerow([self.num_timesteps, f"{minutes:.2f}", self.episodes, f"{win:.3f}",
                            f"{vp:.2f}"])
        self.file.flush()
        print(f"{self.num_timesteps:>9} steps  {minutes:5.1f} min  {self.episodes:>5} games  "
              f"win {win:.2f}  VP {vp:.1f}", flush=True)

    def _on_training_end(self) -> None:
        self.row()
        self.file.close()


def export(model: MaskablePPO, env: CatanGym, activation: str, meta: dict[str, Any]) -> PolicyNet:
    """The policy's layers as numpy arrays (torch's Linear keeps weights as [out, in])."""
    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    hidden = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in layers]
    head = (policy.action_net.weight.detach().numpy().T.copy(),
            policy.action_net.bias.detach().numpy().copy())
    setup = env.setup
    meta = {**meta, "config": env.config.to_dict(), "trade_offers": setup.trade_offers,
            "space_digest": setup.space.digest, "actions": setup.space.n,
            "observation": setup.layout.size}
    return PolicyNet(hidden, head, activation, meta)


def check_export(model: MaskablePPO, net: PolicyNet, env: CatanGym) -> None:
    """The numpy logits equal torch's on a few real observations."""
    obs, _ = env.reset(seed=12345)
    for _ in range(5):
        x = obs["observation"]
        with torch.no_grad():
            t = torch.as_tensor(x[None])
            features = model.policy.extract_features(t, model.policy.pi_features_extractor)
            latent = model.policy.mlp_extractor.forward_actor(features)
            expected = model.policy.action_net(latent).numpy()[0]
        got = net.logits(x)
        assert np.allclose(got, expected, atol=1e-4), float(np.abs(got - expected).max())
        legal = obs["action_mask"].nonzero()[0]
        obs, *_ = env.step(int(legal[0]))


def evaluate(path: Path, games: int, seed: int) -> dict[str, Any]:
    """The policy bot against random bots, its seat rotated game by game."""
    wins = unfinished = 0
    start = time.monotonic()
    config = dataclasses.replace(PolicyBot(path).config, turn_limit=EVAL_TURN_LIMIT)
    for g in range(games):
        seat = g % config.seats
        game_seed = f"eval:{seed}:{g}".encode()
        created = config.create(f"eval-{g}", game_seed)
        bots = [PolicyBot(path, seed + g) if s == seat else RandomBot(seed * 100 + g * 4 + s)
                for s in range(config.seats)]
        final = play(created, bots, SeededDealer(game_seed), keep_log=False).state
        wins += final.winner == seat
        unfinished += final.winner < 0
    rate = wins / games
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": rate, "wilson95": [low, high],
            "no_winner": unfinished, "turn_limit": EVAL_TURN_LIMIT,
            "seconds": time.monotonic() - start}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    venv = DummyVecEnv([make_env(args, i) for i in range(args.envs)])
    hidden = [int(x) for x in args.net.split(",") if x]
    model = MaskablePPO("MlpPolicy", venv, seed=args.seed, verbose=0, n_steps=512,
                        batch_size=512, n_epochs=4, learning_rate=3e-4, gamma=0.995,
                        ent_coef=0.01, policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden},
                                                      "activation_fn": torch.nn.Tanh})
    progress = Progress(args.minutes, args.out / "curve.csv")
    started = time.monotonic()
    model.learn(total_timesteps=args.timesteps or 10**9, callback=progress)
    minutes = (time.monotonic() - started) / 60
    model.save(args.out / "model.zip")
    probe = CatanGym(opponents=args.opponents.split(","), turn_limit=args.turn_limit)
    meta = {"trained": {"steps": int(model.num_timesteps), "minutes": round(minutes, 2),
                        "opponents": args.opponents, "vp_reward": args.vp_reward,
                        "seed": args.seed, "net": hidden, "threads": args.threads}}
    net = export(model, probe, "tanh", meta)
    check_export(model, net, probe)
    path = args.out / "policy.npz"
    net.save(path)
    print(f"saved {path} after {model.num_timesteps:,} steps in {minutes:.1f} min", flush=True)
    if args.eval_games:
        result = evaluate(path, args.eval_games, args.seed)
        (args.out / "eval.json").write_text(json.dumps(result, indent=2) + "\n")
        low, high = result["wilson95"]
        print(f"against three random bots: {result['wins']}/{result['games']} won "
              f"({result['win_rate']:.0%}, 95% interval {low:.0%}-{high:.0%}); "
              f"without a winner: {result['no_winner']}", flush=True)
    print(f"seat it: hexlog tournament --pod policy={path},random,random,random --games 16")
    return 0


if __name__ == "__main__":
    sys.exit(main())
