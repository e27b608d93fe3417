"""The command and event tables of a ruleset, and who put each entry there.

`Registry` is the part of a ruleset (ruleset.py) that says which function decides each command,
folds each event, prompts in each phase and hides each event from the other seats, and which
commands each phase allows. Entries are made only through the ruleset's typed calls
(`handle`, `wrap_handler`, `evolve_with`, …), and each call is written into `provenance`: for
every command, event, phase and hook, the modules that set or wrapped it, in install order
(`hexlog rulesets --explain` prints it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from events.commands import Command
from events.events import Event
from services.rules.engine import hooks
from services.rules.engine.chance import Dealer

ST = TypeVar("ST")  # the state type (engine.state.State)

# Handlers, evolvers and redactors are stored per command / event type, so their second
# parameter is only known per entry (truly dynamic: the table maps each type to a function of
# that type): the ruleset's `handle` and `evolve_with` type each one against its own type.
Handler = Callable[[ST, Any, Dealer], list[Event]]
Evolver = Callable[[ST, Any], None]
Redactor = Callable[[Any, "int | None"], Event]

# What provenance says of one registration: (who: a module, a pair of modules or "base";
# how: "sets", "replaces", "wraps", "adds"; what: the function's name).
Step = tuple[str, str, str]


def name_of(fn: object) -> str:
    """A function's name as a reader finds it in the source: module.name, and for a function
    defined inside another, its name then the enclosing ones innermost first
    (`win_target_install_Harbormaster`: `win_target` in `Harbormaster.install`), the name the
    compiled build gives it, so that both builds name every step alike."""
    module = getattr(fn, "__module__", "") or ""
    qualname = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    if qualname is None:  # compiled: a nested function is an object of class `<name>_obj`
        qualname = type(fn).__name__.removesuffix("_obj")
    parts = str(qualname).split(".<locals>.")
    if len(parts) > 1:
        outer = [q for part in parts[:-1] for q in part.split(".")]
        qualname = "_".join([parts[-1], *reversed(outer)])
    short = module.removeprefix("services.rules.engine.")
    return f"{short}.{qualname}" if short else str(qualname)


class Registry(Generic[ST]):
    handlers: dict[type[Command], Handler[ST]]
    evolvers: dict[type[Event], Evolver[ST]]
    phase_commands: dict[str, set[type[Command]]]
    prompters: dict[str, hooks.Prompter[ST]]
    # (event types that trigger it, deriver): derivers look at the state *after* the primary
    # events and return consequences (awards, victory). Run in registration order.
    derivers: list[tuple[frozenset[type[Event]], hooks.Deriver[ST]]]
    derive_after: set[type[Event]]
    # Module events after which a seat's VP may have changed (a VP bonus that follows a count
    # the module keeps): the victory check runs after them too (scoring.install_victory).
    vp_events: set[type[Event]]
    redactors: dict[type[Event], Redactor]
    # Events an undo may cross: public and without chance. Any other event (a roll, a steal, a
    # drawn card, a module event not listed here) is a floor no undo goes below (engine/undo.py).
    reversible: set[type[Event]]
    # "command PlaceSettlement", "event TurnEnded", "phase main", "hook roll" -> the steps.
    provenance: dict[str, list[Step]]
    # Who is installing now (set by the assembly, modules.py): provenance names it.
    installing: str

    def __init__(self) -> None:
        self.handlers = {}
        self.evolvers = {}
        self.phase_commands = {}
        self.prompters = {}
        self.derivers = []
        self.derive_after = set()
        self.vp_events = set()
        self.redactors = {}
        self.reversible = set()
        self.provenance = {}
        self.installing = "base"

    def note(self, what: str, how: str, fn: object) -> None:
        """Write one registration into the provenance of `what`."""
        steps = self.provenance.setdefault(what, [])
        if how == "sets" and steps:
            how = "replaces"
        steps.append((self.installing, how, name_of(fn)))

    def note_value(self, what: str, value: object) -> None:
        """Write a setting's new value into the provenance of `what`."""
        steps = self.provenance.setdefault(what, [])
        steps.append((self.installing, "replaces" if steps else "sets", repr(value)))
