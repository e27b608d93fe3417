"""`hexlog rulesets`, and the checks `hexlog play` makes before it starts anything.

Which modules combine is never written down twice: it is what `check_combination` (the same
check the rules service applies to a game-creation request) answers for each pair and seat
count, so a module's `conflicts` and `seats` are the single source.
"""

from __future__ import annotations

from typing import Any

from events.events import ModuleSpec
from services.rules.engine.modules import MODULES, RulesetError, check_combination
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
