"""A trained policy as plain numpy weights: a multilayer perceptron from the flat observation
to one logit per action id, saved as an `.npz` file with what it was trained on.

The file holds `w0, b0, w1, b1, …` (hidden layers), `head_w, head_b` (the logits) and `meta`
(JSON as bytes): the format, the game config, the action space's digest and size, the
observation's size and the activation. Written by examples/rl/train_maskable_ppo.py from an
sb3-contrib MaskablePPO policy; read by the policy bot (bots/policy.py) without torch."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "hexlog-policy/1"
ACTIVATIONS = ("tanh", "relu")


class PolicyFileError(ValueError):
    """A file that is not a policy this code can run."""


@dataclass
class PolicyNet:
    hidden: list[tuple[np.ndarray, np.ndarray]]  # (weights [in, out], bias [out]) per layer
    head: tuple[np.ndarray, np.ndarray]
    activation: str = "tanh"
    meta: dict[str, Any] = field(default_factory=dict)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = obs.astype(np.float32, copy=False)
        for w, b in self.hidden:
            x = x @ w + b
            x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        w, b = self.head
        out: np.ndarray = x @ w + b
        return out

    def save(self, path: str | Path) -> None:
        arrays: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.hidden):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float32), b.astype(np.float32)
        arrays["head_w"], arrays["head_b"] = (a.astype(np.float32) for a in self.head)
        meta = {**self.meta, "format": FORMAT, "activation": self.activation}
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        save: Any = np.savez_compressed  # numpy's stubs type **arrays as its flags
        with open(path, "wb") as f:
            save(f, **arrays)


def load_policy(path: str | Path) -> PolicyNet:
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(bytes(data["meta"]).decode())
            if meta.get("format") != FORMAT:
                raise PolicyFileError(f"{path}: format {meta.get('format')!r}, not {FORMAT}")
            hidden: list[tuple[np.ndarray, np.ndarray]] = []
            while f"w{len(hidden)}" in data:
                i = len(hidden)
                hidden.append((data[f"w{i}"], data[f"b{i}"]))
            head = (data["head_w"], data["head_b"])
    except (OSError, KeyError, ValueError) as exc:
        if isinstance(exc, PolicyFileError):
            raise
        raise PolicyFileError(f"{path}: not a hexlog policy file ({exc})") from exc
    activation = str(meta.get("activation", "tanh"))
    if activation not in ACTIVATIONS:
        raise PolicyFileError(f"{path}: activation {activation!r} is not one of {ACTIVATIONS}")
    return PolicyNet(hidden, head, activation, meta)
