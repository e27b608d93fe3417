"""The rulesets the environments are tested on: the base game at 4 and 2 seats, and every rule
module of the engine (found afresh, so a module merged later is covered) at its largest table,
a scenario as the scenario, a variant over the base game."""

from __future__ import annotations

from dataclasses import dataclass

from bots.env.config import GameConfig
from services.rules.engine import MODULES


@dataclass(frozen=True)
class Case:
    scenario: str | None
    variants: tuple[str, ...]
    seats: int

    @property
    def id(self) -> str:
        return "+".join([self.scenario or "base", *self.variants]) + f"-{self.seats}"

    def config(self, turn_limit: int = 300) -> GameConfig:
        return GameConfig.of(self.scenario, self.variants, self.seats, turn_limit)


def cases() -> list[Case]:
    out = [Case(None, (), 4), Case(None, (), 2)]
    for name in sorted(MODULES):
        module = MODULES[name]
        seats = max(set(module.seats) & {2, 3, 4})
        if module.kind == "scenario":
            out.append(Case(name, (), seats))
        else:
            out.append(Case(None, (name,), seats))
    return out


CASES = cases()
IDS = [c.id for c in CASES]


def pairs() -> list[Case]:
    """Every scenario with every variant it takes, and every two variants that combine, at
    the largest table both allow."""
    out = []
    names = sorted(MODULES)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            kinds = {MODULES[a].kind, MODULES[b].kind}
            if kinds == {"scenario"}:
                continue
            scenario = next((n for n in (a, b) if MODULES[n].kind == "scenario"), None)
            variants = tuple(n for n in (a, b) if n != scenario)
            seats = set(MODULES[a].seats) & set(MODULES[b].seats)
            for n in sorted(seats, reverse=True):
                try:
                    GameConfig.of(scenario, variants, n)
                except ValueError:  # a combination the modules refuse (RulesetError)
                    continue
                out.append(Case(scenario, variants, n))
                break
    return out


PAIRS = pairs()
PAIR_IDS = [c.id for c in PAIRS]
