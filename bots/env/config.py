"""Which game an environment plays: a scenario, variants, seats, a turn limit.

`GameConfig` is what `aec_env`, `gym_env` and a saved policy agree on: the modules fix the
action space (with the map's topology) and the observation's module features, so a policy
records the config it was trained on (bots/policy.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from events.events import GameCreated, ModuleSpec
from services.rules.engine import MODULES, RulesetError, new_game

# Long enough for a random seat to reach the end of most games, short enough that an
# untrained agent's episode ends (turns, not decisions: a turn is 1-30 decisions).
DEFAULT_TURN_LIMIT = 300


def parse_variant(text: str) -> ModuleSpec:
    """`harbormaster` or `victory-points:target=8` (as `hexlog --variant` takes them)."""
    name, _, rest = text.partition(":")
    params: dict[str, int | str | bool] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"variant parameter {item!r} is not key=value")
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    return ModuleSpec(name=name, params=params)


@dataclass(frozen=True)
class GameConfig:
    """A ruleset and a table size. `modules` holds the scenario (if any) first."""

    scenario: str | None = None
    variants: tuple[ModuleSpec, ...] = ()
    seats: int = 4
    turn_limit: int = DEFAULT_TURN_LIMIT

    @classmethod
    def of(cls, scenario: str | None = None, variants: Iterable[str | ModuleSpec] = (),
           seats: int = 4, turn_limit: int = DEFAULT_TURN_LIMIT) -> GameConfig:
        specs = tuple(v if isinstance(v, ModuleSpec) else parse_variant(v) for v in variants)
        config = cls(scenario or None, specs, seats, turn_limit)
        config.check()
        return config

    @property
    def ruleset(self) -> str:
        return self.scenario or "base"

    @property
    def modules(self) -> tuple[ModuleSpec, ...]:
        return ((ModuleSpec(name=self.scenario),) if self.scenario else ()) + self.variants

    @property
    def module_names(self) -> tuple[str, ...]:
        return tuple(sorted(m.name for m in self.modules))

    def check(self) -> None:
        """RulesetError for an unknown module, a scenario given as a variant, or a table the
        modules refuse (new_game's own check)."""
        if self.scenario is not None and MODULES.get(self.scenario) is None:
            raise RulesetError(f"unknown scenario {self.scenario!r}")
        if self.scenario is not None and MODULES[self.scenario].kind != "scenario":
            raise RulesetError(f"{self.scenario} is a variant: give it in variants")
        for spec in self.variants:
            module = MODULES.get(spec.name)
            if module is not None and module.kind == "scenario":
                raise RulesetError(f"{spec.name} is a scenario: give it as scenario=")
        self.create("check", b"check")

    def create(self, game_id: str, seed: bytes) -> GameCreated:
        names = tuple(f"seat{i}" for i in range(self.seats))
        return new_game(game_id, self.seats, seed, modules=self.modules, ruleset=self.ruleset,
                        names=names, turn_limit=self.turn_limit)

    def to_dict(self) -> dict[str, object]:
        return {"scenario": self.scenario, "seats": self.seats, "turn_limit": self.turn_limit,
                "variants": [{"name": v.name, "params": dict(v.params)} for v in self.variants]}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> GameConfig:
        raw = data.get("variants") or []
        assert isinstance(raw, list)
        variants = tuple(ModuleSpec(name=str(v["name"]), params=dict(v.get("params") or {}))
                         for v in raw)
        scenario = data.get("scenario")
        seats, limit = data.get("seats", 4), data.get("turn_limit", DEFAULT_TURN_LIMIT)
        assert isinstance(seats, int)
        assert isinstance(limit, int)
        return cls(str(scenario) if scenario else None, variants, seats, limit)
