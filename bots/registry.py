"""The bots hexlog ships, by name; and bots given by import path.

A worker serves a pool per bot spec: a shipped name (`random`), or `name=package.module:Factory`
(pool `name`, bots made by calling `Factory(seed)`), so a bot written in Python outside hexlog
runs as an external worker with `hexlog serve bots --bots mybot=mypackage.bots:MyBot`, and a policy
trained in bots/env as `policy=runs/ppo.npz` (its path). (A bot in another language needs no
registry at all: it only speaks the bot protocol, see bots/worker.py.)
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from bots.heuristic import HeuristicBot
from bots.random_bot import RandomBot
from bots.sdk import Bot, BotFactory
from bots.search import SearchBot

POLICY_SUFFIX = ".npz"  # a saved policy (bots/policy.py): `--bots policy=runs/ppo.npz`


def is_policy_path(ref: str) -> bool:
    return ref.endswith(POLICY_SUFFIX) and "=" not in ref


class ShippedBots(dict[str, BotFactory]):
    """The bots hexlog's own worker serves, by name. A saved policy's path counts as one too
    (`"runs/ppo.npz" in SHIPPED`, `SHIPPED["runs/ppo.npz"]`): given as `policy=PATH`, it is
    served like a shipped bot, loaded by the policy bot (numpy: the `rl` extra)."""

    def __contains__(self, key: object) -> bool:
        return super().__contains__(key) or (isinstance(key, str) and is_policy_path(key))

    def __missing__(self, key: str) -> BotFactory:
        if not is_policy_path(key):
            raise KeyError(key)
        try:
            from bots.policy import policy_factory
        except ImportError as exc:
            raise ValueError(f"the policy bot needs the rl extra (pip install -e '.[rl]'): "
                             f"{exc}") from None
        return policy_factory(key)


SHIPPED: dict[str, BotFactory] = ShippedBots({
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
})


POOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def parse_bot_spec(spec: str) -> tuple[str, str]:
    """`random` → ("random", "random"); `mybot=pkg.mod:Factory` → ("mybot", "pkg.mod:Factory");
    `other=random` serves a shipped bot under another pool name. The first is the pool name
    (what games and tournaments call the bot)."""
    name, sep, ref = spec.strip().partition("=")
    name, ref = name.strip(), ref.strip()
    if not sep:
        ref = name
    if not POOL_NAME.fullmatch(name):
        raise ValueError(f"bad bot name {name!r}: use letters, digits, '_', '.', '-'")
    if not ref:
        raise ValueError(f"bad bot spec {spec!r}: expected name=package.module:Factory")
    if is_policy_path(ref) and not Path(ref).is_file():
        raise ValueError(f"no policy file at {ref} (bot {name!r})")
    return name, ref


def load_factory(ref: str) -> BotFactory:
    """`package.module:Attr` (Attr may be dotted) → the callable it names."""
    module_name, _, attr = ref.partition(":")
    try:
        obj: object = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load bot factory {ref!r}: {exc}") from exc
    if not callable(obj):
        raise ValueError(f"bot factory {ref!r} is not callable")
    return obj  # type: ignore[return-value]


def make_bot(name: str, seed: int) -> Bot:
    """A bot from a shipped name or a spec `name=package.module:Factory` (see parse_bot_spec)."""
    _, ref = parse_bot_spec(name)
    if ":" in ref:
        return load_factory(ref)(seed)
    try:
        factory = SHIPPED[ref]
    except KeyError:
        raise ValueError(f"unknown bot {ref!r} (shipped: {', '.join(sorted(SHIPPED))}; or give "
                         "name=package.module:Factory, or name=PATH.npz for a saved policy)"
                         ) from None
    return factory(seed)
