"""The catalogue of rule modules and the assembly of rulesets from them.

Modules are discovered (every `MODULE` in the variants and scenarios packages); a module is a
file or a package. What else a module owns is found through it: its maps (`map_packages`),
its bot advice (`advice_for`), its narration (`narrators`) and its prompt stages
(`declared_stages`). The rules of a pair of modules are discovered the same way (every
`COMBINATION` in the combinations package) and installed when both are chosen."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

import msgspec

from events.events import Event, ModuleSpec
from services.rules.engine import (
    base,
    combinations,
    pieces,
    review,
    scenarios,
    undo,
    variants,
    vocab_check,
)
from services.rules.engine import hook_keys as hk
from services.rules.engine.advice import Advice
from services.rules.engine.base import scoring
from services.rules.engine.base.stages import STAGES as BASE_STAGES
from services.rules.engine.combinations import Combination
from services.rules.engine.mapdata import ENGINE_MAPS
from services.rules.engine.narration import Narrator
from services.rules.engine.ruleset import Module, Ruleset
from services.rules.engine.ruleset import RulesetError as RulesetError  # its home before
from services.rules.engine.state import Rules
from services.rules.engine.views import BASE_REDACTORS

AnyModule = Module  # of any state and parameters


def _discover() -> dict[str, AnyModule]:
    found: dict[str, AnyModule] = {}
    for package in (variants, scenarios):
        for info in pkgutil.iter_modules(package.__path__):
            mod = importlib.import_module(f"{package.__name__}.{info.name}")
            module = getattr(mod, "MODULE", None)
            if isinstance(module, Module):
                found[module.name] = module
    found[undo.MODULE.name] = undo.MODULE  # a table rule, not a variant
    return found


MODULES: dict[str, AnyModule] = _discover()


def _discover_combinations() -> tuple[Combination, ...]:
    found = []
    for info in pkgutil.iter_modules(combinations.__path__):
        mod = importlib.import_module(f"{combinations.__name__}.{info.name}")
        combination = getattr(mod, "COMBINATION", None)
        if isinstance(combination, Combination):
            unknown = [n for n in combination.pair if n not in MODULES]
            if unknown:
                raise ValueError(f"{info.name}: no module {unknown[0]!r}")
            found.append(combination)
    return tuple(sorted(found, key=lambda c: c.pair))


COMBINATIONS: tuple[Combination, ...] = _discover_combinations()


def combinations_for(names: tuple[str, ...] | list[str]) -> list[Combination]:
    """The combinations whose two modules are both among `names`, in a fixed order."""
    chosen = set(names)
    return [c for c in COMBINATIONS if c.applies(chosen)]


def map_packages() -> tuple[str, ...]:
    """Where maps are looked up: the engine's maps, then each module's own."""
    return (ENGINE_MAPS, *sorted({m.maps for m in MODULES.values() if m.maps}))


def advice_for(names: tuple[str, ...] | None = None) -> list[Advice]:
    """The bot advice of these modules (default: every module that gives advice)."""
    chosen = MODULES.values() if names is None else [MODULES[n] for n in names if n in MODULES]
    return [m.advice for m in chosen if m.advice is not None]


def narrators() -> dict[type[Event], Narrator]:
    """Every module's narration of its own events."""
    out: dict[type[Event], Narrator] = {}
    for m in MODULES.values():
        out.update(m.narration)
    return out


BASE_GAME = "base"  # who declares the base game's stages, in `declared_stages`


def declared_stages() -> dict[str, tuple[str, str]]:
    """Every prompt stage a game may ask in: name -> (the module that declares it, or
    `BASE_GAME`; what is decided), the base game's first, then each module's by name. A name
    declared twice is an error: a bot could not tell the two apart."""
    out = {name: (BASE_GAME, meaning) for name, meaning in BASE_STAGES.items()}
    for module_name in sorted(MODULES):
        for name, meaning in MODULES[module_name].stages.items():
            if name in out:
                raise ValueError(f"stage {name!r} of {module_name} is declared by "
                                 f"{out[name][0]} already")
            out[name] = (module_name, meaning)
    return out


def check_combination(specs: tuple[ModuleSpec, ...], seats: int) -> None:
    names = [s.name for s in specs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RulesetError(f"a module may be chosen only once: {', '.join(twice)} is chosen "
                           f"{max(names.count(n) for n in twice)} times")
    for spec in specs:
        module = MODULES.get(spec.name)
        if module is None:
            known = ", ".join(sorted(MODULES))
            raise RulesetError(f"unknown rule module {spec.name!r} (known: {known})")
        if seats not in module.seats:
            allowed = " or ".join(map(str, module.seats))
            raise RulesetError(f"{spec.name} is played with {allowed} seats, not {seats}")
        for other in names:
            reason = module.conflicts.get(other)
            if reason:
                raise RulesetError(f"{spec.name} cannot be combined with {other}: {reason}")
    scenarios_chosen = [n for n in names if MODULES[n].kind == "scenario"]
    if len(scenarios_chosen) > 1:
        raise RulesetError(f"one scenario per game, not {', '.join(scenarios_chosen)}")


def build_ruleset(name: str, specs: tuple[ModuleSpec, ...]) -> Rules:
    """The ruleset for these modules; built once per combination and shared by its games."""
    return _build(name, msgspec.json.encode(specs))


@lru_cache(maxsize=128)
def _build(name: str, key: bytes) -> Rules:
    specs = msgspec.json.decode(key, type=tuple[ModuleSpec, ...])
    rules: Rules = Ruleset(name=name, modules=specs)
    registry = rules.registry
    base.install(rules)
    review.install(rules)
    for event, redactor in BASE_REDACTORS.items():
        rules.redact(event, redactor)
    # The modules, then the rules of their pairs, then the table rules (undo), which wrap
    # everything the others installed.
    ordered = sorted(specs, key=lambda s: MODULES[s.name].kind == "table")
    tables = [s for s in ordered if MODULES[s.name].kind == "table"]
    for spec in [s for s in ordered if MODULES[s.name].kind != "table"]:
        registry.installing = spec.name
        _install(rules, spec)
    for combination in combinations_for([s.name for s in specs]):
        registry.installing = " + ".join(combination.pair)
        combination.install(rules)
    for spec in tables:
        registry.installing = spec.name
        _install(rules, spec)
    registry.installing = "base"
    scoring.install_victory(rules)
    rules.freeze()
    registry.installing = "vocabulary check"
    vocab_check.install(rules)  # every handler the names of its command reach
    if rules.hooks.route_weight is None and any(
            k.route and k.weight != 1 for k in rules.vocab.pieces.values()):
        # a route kind counting other than 1 (vocab)
        rules.set_hook(hk.ROUTE_WEIGHT, pieces.kind_weight)
    registry.installing = ""
    return rules


def _install(rules: Rules, spec: ModuleSpec) -> None:
    module = MODULES[spec.name]
    try:
        params = module.params(spec)
    except (ValueError, TypeError) as exc:
        raise RulesetError(f"{spec.name}: {exc}") from exc
    module.install(rules, params)
