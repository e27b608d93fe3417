"""The Gymnasium spaces of a setup: `{"observation": …, "action_mask": …}` (PettingZoo's
classic games' shape), the observation flat or as a dict of the layout's sections."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from bots.env.match import Setup

FORMATS = ("flat", "dict")
# No feature leaves [-HIGH, HIGH]: counts are scaled down, the turn is capped (observation.py);
# a few may be negative (a Poor Settler's victory points in The Rivers of Catan).
HIGH = 100.0


def observation_space(setup: Setup, form: str) -> spaces.Dict:
    if form not in FORMATS:
        raise ValueError(f"observation format {form!r}: give one of {FORMATS}")
    mask = spaces.Box(0, 1, (setup.space.n,), dtype=np.int8)
    if form == "flat":
        inner: spaces.Space[Any] = spaces.Box(-HIGH, HIGH, (setup.layout.size,), np.float32)
    else:
        inner = spaces.Dict({
            name: spaces.Box(-HIGH, HIGH, (s.rows, s.width) if s.rows > 1 or name == "players"
                             else (s.width,), np.float32)
            for name, s in setup.layout.sections.items()})
    return spaces.Dict({"observation": inner, "action_mask": mask})


def shaped(setup: Setup, form: str, obs: np.ndarray, mask: np.ndarray) -> dict[str, Any]:
    """The observation dict of a flat vector and a mask, in the format `form`."""
    if form == "flat":
        return {"observation": obs, "action_mask": mask}
    parts = {}
    for name, s in setup.layout.sections.items():
        part = obs[s.start:s.stop]
        parts[name] = part.reshape(s.rows, s.width) if s.rows > 1 or name == "players" else part
    return {"observation": parts, "action_mask": mask}
