"""`hexlog rulesets`, and the checks `hexlog play` makes before it starts anything.

Which modules combine is never written down twice: it is what `check_combination` (the same
check the rules service applies to a game-creation request) answers for each pair and seat
count, so a module's `conflicts` and `seats` are the single source.
"""

from __future__ import annotations

from typing import Any

from events.events import ModuleSpec
from services.rules.engine.hooktable import HOOK_NAMES
from services.rules.engine.modules import MODULES, RulesetError, build_ruleset, check_combination
from services.rules.engine.ruleset import Module

SEAT_COUNTS = (2, 3, 4)
# `hexlog play` without --bots: this many seats by default, each a shipped bot.
DEFAULT_BOTS = {4: "random,random,heuristic,heuristic", 3: "random,heuristic,heuristic",
                2: "random,heuristic"}


def check_rules(specs: tuple[ModuleSpec, ...], seats: int) -> None:
    """Raise RulesetError with the reason when these modules cannot be played with `seats`."""
    if seats not in SEAT_COUNTS:
        raise RulesetError(f"a game has 2 to 4 seats, not {seats}")
    check_combination(specs, seats)


def playable_seats(specs: tuple[ModuleSpec, ...]) -> list[int]:
    """The seat counts these modules can be played with (empty: never, or unknown module)."""
    out = []
    for seats in SEAT_COUNTS:
        try:
            check_rules(specs, seats)
        except RulesetError:
            continue
        out.append(seats)
    return out


def default_seats(specs: tuple[ModuleSpec, ...]) -> int:
    """The most seats the modules allow (4 for most, 2 with catan-for-two)."""
    return max(playable_seats(specs) or [4])


def combinations(module: Module) -> tuple[dict[str, list[int]], dict[str, str]]:
    """(modules it combines with -> the seat counts of the pair, modules it refuses -> why)."""
    allowed: dict[str, list[int]] = {}
    refused: dict[str, str] = {}
    for other in sorted(MODULES):
        if other == module.name:
            continue
        pair = (ModuleSpec(name=module.name), ModuleSpec(name=other))
        seats = playable_seats(pair)
        if seats:
            allowed[other] = seats
            continue
        reason = module.conflicts.get(other) or MODULES[other].conflicts.get(module.name, "")
        if not reason:  # no seat count suits both
            try:
                check_combination(pair, max(module.seats))
            except RulesetError as exc:
                reason = str(exc)
        refused[other] = reason or "no seat count suits both"
    for other, reason in module.conflicts.items():  # also modules not (yet) in the catalogue
        refused.setdefault(other, reason)
    return allowed, refused


def seats_text(seats: list[int] | tuple[int, ...]) -> str:
    seats = sorted(seats)
    if len(seats) > 1 and seats == list(range(seats[0], seats[-1] + 1)):
        return f"{seats[0]}-{seats[-1]} seats"
    return ", ".join(map(str, seats)) + (" seat" if seats == [1] else " seats")


def describe(module: Module) -> dict[str, Any]:
    allowed, refused = combinations(module)
    return {"name": module.name, "kind": module.kind, "description": module.description,
            "seats": list(module.seats), "conflicts": dict(module.conflicts),
            "combines_with": allowed, "refused": refused}


def format_rulesets() -> str:
    lines = ["base                     the base game (docs/rules/base.md); always on", ""]
    kinds = [("scenario", "--scenario NAME, one per game"),
             ("variant", "--variant NAME[:k=v,...], repeatable")]
    kinds += [(k, "") for k in sorted({m.kind for m in MODULES.values()} - {"scenario", "variant"})]
    for kind, how in kinds:
        modules = sorted((m for m in MODULES.values() if m.kind == kind), key=lambda m: m.name)
        title = f"{kind} modules" if not how else f"{kind}s ({how})"
        lines.append(f"{title}:" if modules else f"{kind}s: none installed")
        for m in modules:
            allowed, refused = combinations(m)
            lines.append(f"  {m.name:<22} {m.description}")
            pad = " " * 25
            lines.append(f"{pad}{seats_text(m.seats)}")
            if allowed:
                own = sorted(m.seats)
                parts = [name if seats == own else f"{name} ({seats_text(seats)})"
                         for name, seats in allowed.items()]
                lines.append(f"{pad}combines with: {', '.join(parts)}")
            for other, reason in sorted(refused.items()):
                if kind == "scenario" and other in MODULES and MODULES[other].kind == "scenario":
                    continue  # one scenario per game: said once, in the title
                lines.append(f"{pad}not with {other}: {reason}")
        lines.append("")
    return "\n".join(lines).rstrip()


def explain(names: list[str]) -> dict[str, dict[str, list[tuple[str, str, str]]]]:
    """Where each command and each hook ends up for a game of these modules: the steps that
    made it (who, how, the function), in install order. Raises RulesetError for a set of
    modules no game can have."""
    names = [n for n in names if n and n != "base"]
    specs = tuple(ModuleSpec(name=n) for n in names)
    seats = playable_seats(specs)
    if not seats:
        check_rules(specs, default_seats(specs))  # raises, with the reason
    rules = build_ruleset("explain", specs)
    provenance = rules.registry.provenance
    out: dict[str, dict[str, list[tuple[str, str, str]]]] = {}
    for section, prefix in (("commands", "command "), ("hooks", "hook "), ("events", "event "),
                            ("phases", "phase "),
                            ("module state", "state "), ("capabilities", "capability "),
                            ("settings", "setting ")):
        entries = {k.removeprefix(prefix): steps for k, steps in provenance.items()
                   if k.startswith(prefix)}
        if section == "hooks":  # in the order the base rules ask them (hooktable.py)
            order = {name: i for i, name in enumerate(HOOK_NAMES)}
            out[section] = dict(sorted(entries.items(), key=lambda kv: order.get(kv[0], 99)))
        else:
            out[section] = dict(sorted(entries.items()))
    return out


def format_explain(names: list[str]) -> str:
    """`hexlog rulesets --explain`: each command's handler chain and each hook's wrappers."""
    sections = explain(names)
    chosen = [n for n in names if n and n != "base"]
    lines = [f"base + {', '.join(chosen)}" if chosen else "base (no modules)",
             "each entry: who (module, pair of modules, or base), how, the function; in install "
             "order: a later step wraps or replaces the ones above it"]
    for section, entries in sections.items():
        if not entries:
            continue
        lines += ["", f"{section}:"]
        for name, steps in entries.items():
            lines.append(f"  {name}")
            for who, how, fn in steps:
                lines.append(f"    {who:<28} {how:<10} {fn}")
    return "\n".join(lines)
