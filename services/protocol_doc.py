"""The generated sections of docs/protocol.md: its tables of prompt stages, of command types by
rule module and of the View's fields, made from the code as the JSON Schemas are
(services/schemas.py), so the document cannot list a stage, a command or a field the code does
not have, or miss one it has.

A section sits between two marker comments; everything else in the document is written by
hand and left as it is:

    <!-- generated: stages -->
    …made by `hexlog schemas`…
    <!-- end generated -->

`fill(text)` gives the document with every section made again (`hexlog schemas` writes it,
`hexlog schemas --check` and tests/protocol/test_protocol_doc.py compare).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import combinations

import msgspec
from msgspec import inspect

import services.rules.engine  # noqa: F401  (loads every module, so every command type exists)
from events.codec import codec
from events.events import ModuleSpec
from events.prompts import PlayerView, TradeView, View
from events.registry import COMMANDS
from services.rules.engine.modules import (
    MODULES,
    RulesetError,
    build_ruleset,
    check_combination,
    declared_stages,
)

BEGIN = "<!-- generated: {name} -->"
END = "<!-- end generated -->"
SECTION = re.compile(r"<!-- generated: ([a-z-]+) -->\n(.*?)<!-- end generated -->", re.DOTALL)
NOT_A_MODULE = "any game (the rules service judges it, not a rule module)"


class DocError(ValueError):
    """The document's markers do not match the sections the code makes."""


def stages_table() -> str:
    rows = [f"| `{name}` | {by} | {meaning} |"
            for name, (by, meaning) in declared_stages().items()]
    return "\n".join(["| Stage | Module | What is decided |", "|---|---|---|", *rows])


def command_owners() -> dict[str, list[str]]:
    """Who handles each registered command type: the base game, a module (or several, each
    alone), two modules only together (`a + b`), or no module at all."""
    codec()  # loads every wire module, those of outside packages included
    handled = {"base": set(build_ruleset("base", ()).registry.handlers)}
    for name in sorted(MODULES):
        handled[name] = set(build_ruleset("base", (ModuleSpec(name=name),)).registry.handlers)
    for pair in combinations(sorted(MODULES), 2):
        if _combine(pair):
            specs = tuple(ModuleSpec(name=n) for n in pair)
            handled[" + ".join(pair)] = set(build_ruleset("base", specs).registry.handlers)
    owners: dict[str, list[str]] = {}
    for tag, cls in sorted(COMMANDS.items()):
        if cls in handled["base"]:
            owners[tag] = ["base"]
            continue
        alone = [n for n in sorted(MODULES) if cls in handled[n]]
        together = [n for n in handled if " + " in n and cls in handled[n]]
        owners[tag] = alone or together or [NOT_A_MODULE]
    return owners


def _combine(pair: tuple[str, ...]) -> bool:
    specs = tuple(ModuleSpec(name=n) for n in pair)
    for seats in sorted(set.intersection(*(set(MODULES[n].seats) for n in pair))):
        try:
            check_combination(specs, seats)
        except RulesetError:
            return False
        return True
    return False


def commands_table() -> str:
    by_owner: dict[str, list[str]] = {}
    for tag, owners in command_owners().items():
        for owner in owners:
            by_owner.setdefault(owner, []).append(tag)
    order = ["base", *sorted(MODULES), *sorted(o for o in by_owner if " + " in o), NOT_A_MODULE]
    rows = [f"| {owner} | {', '.join(f'`{t}`' for t in by_owner[owner])} |"
            for owner in order if owner in by_owner]
    return "\n".join(["| Module | Command `type`s |", "|---|---|", *rows])


def type_name(t: inspect.Type) -> str:
    """A field's type in JSON terms, for a reader (the schema has the exact one)."""
    if isinstance(t, inspect.Metadata):
        return type_name(t.type)
    if isinstance(t, inspect.UnionType):
        kinds = [type_name(x) for x in t.types if not isinstance(x, inspect.NoneType)]
        nullable = len(kinds) < len(t.types)
        return " or ".join(kinds) + (", or null" if nullable and " " in kinds[-1] else
                                     " or null" if nullable else "")
    if isinstance(t, inspect.StructType):
        if t.array_like:  # encoded as an array of its fields, in order
            return "[" + ", ".join(f.encode_name for f in t.fields) + "]"
        return f"{t.cls.__name__} (below)"
    if isinstance(t, inspect.ListType | inspect.VarTupleType):
        return f"array of {type_name(t.item_type)}"
    if isinstance(t, inspect.DictType):  # JSON keys are strings: an integer key is written so
        key = "integer (in a string)" if isinstance(t.key_type, inspect.IntType) else "string"
        return f"object: {key} → {type_name(t.value_type)}"
    simple = {inspect.IntType: "integer", inspect.StrType: "string", inspect.BoolType: "boolean",
              inspect.NoneType: "null", inspect.AnyType: "any", inspect.LiteralType: "string"}
    return simple.get(type(t), type(t).__name__)


def fields_table(kind: type[msgspec.Struct]) -> str:
    info = inspect.type_info(kind)
    assert isinstance(info, inspect.StructType)
    rows = []
    for f in info.fields:
        meaning = (f.type.extra_json_schema or {}).get("description", "") \
            if isinstance(f.type, inspect.Metadata) else ""
        if not meaning:
            raise DocError(f"{kind.__name__}.{f.name} has no description "
                           "(msgspec.Meta(description=...) in events/prompts.py)")
        rows.append(f"| `{f.encode_name}` | {type_name(f.type)} | {meaning} |")
    return "\n".join(["| Field | Type | Meaning |", "|---|---|---|", *rows])


def view_tables() -> str:
    parts = []
    for kind in (View, PlayerView, TradeView):
        about = " ".join((kind.__doc__ or "").split())
        parts += [f"`{kind.__name__}`: {about}", "", fields_table(kind), ""]
    return "\n".join(parts[:-1])


SECTIONS: dict[str, Callable[[], str]] = {
    "stages": stages_table,
    "commands": commands_table,
    "view": view_tables,
}


def fill(text: str) -> str:
    """`text` with every generated section made again from the code. Raises DocError when a
    marker names no section, a section has no markers, or one is there twice."""
    names = SECTION.findall(text)
    found = [name for name, _ in names]
    unknown = sorted(set(found) - set(SECTIONS))
    missing = sorted(set(SECTIONS) - set(found))
    twice = sorted({n for n in found if found.count(n) > 1})
    if unknown or missing or twice:
        raise DocError("generated sections: " + "; ".join(
            f"{what} {', '.join(items)}" for what, items in
            (("unknown", unknown), ("without markers", missing), ("twice", twice)) if items))
    made = {name: make() for name, make in SECTIONS.items()}
    return SECTION.sub(lambda m: f"{BEGIN.format(name=m[1])}\n{made[m[1]]}\n{END}", text)
