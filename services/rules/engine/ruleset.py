"""A ruleset: the base game plus rule modules, assembled once and shared by every game using it.

The base rules install their command handlers, evolvers, phase prompters and hooks here; a
module (a variant or a scenario) installs more, or *wraps* a hook: it receives the previous
function and returns one that calls it and changes the answer. The base rules only ever call
hooks, so they never ask which variant is on. The hooks and their types are in `hooks.py`.

`Ruleset` and `Module` are generic in the state type so that this file does not import the
state (which names its ruleset): the engine uses `Ruleset[State]` (alias `state.Rules`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

import msgspec
from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar as DefaultTypeVar

from events.commands import Command
from events.events import Event, GameCreated, ModuleSpec
from services.rules.engine.advice import Advice
from services.rules.engine.chance import Dealer
from services.rules.engine.hooks import Deriver, Prompter
from services.rules.engine.hooktable import Hook, HookList, HookTable
from services.rules.engine.modstate import ModuleStates, StateKey, ViewData
from services.rules.engine.narration import Narrator, Sketch
from services.rules.engine.registry import Registry
from services.rules.engine.vocab import Vocabulary, base_vocabulary

ST = TypeVar("ST")  # the state type (engine.state.State)
# A module's state type and parameters (a msgspec Struct, or None). A bare `Module` (a
# catalogue of modules of any kind) means any of them.
MS = DefaultTypeVar("MS", default=Any)
P = DefaultTypeVar("P", default=Any)
C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)
T = TypeVar("T")
F = TypeVar("F")


class RulesetError(ValueError):
    """An unknown module, bad parameters or a forbidden combination, with the reason."""


class Capability(Generic[T]):
    """The key of something one module offers the others (engine/capabilities.py): a module
    `provide`s an object of the type `T` names (a Protocol), another asks `capability(key)`
    when it decides and gets it, or None when no module of the game offers it. A key object,
    not the Protocol class itself: mypy refuses a Protocol where `type[T]` is expected."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Capability({self.name!r})"

@dataclass(frozen=True)
class SetupRound:
    """One round of set-up (snake order: even rounds forward, odd rounds back).

    piece: the building placed ("settlement", or "city" for settlement-then-city set-ups);
    edges: the edge piece kinds that may follow it; resources: whether the building brings one
    resource per adjacent producing hex."""

    piece: str = "settlement"
    edges: tuple[str, ...] = ("road",)
    resources: bool = False


BASE_SETUP = (SetupRound(), SetupRound(resources=True))


# Not a compiled (native) class: modules re-declare its class attributes with narrower types
# (`seats = (2,)`, `advice = ADVICE`), which only a plain Python class allows.
@mypyc_attr(native_class=False)
class Module(Generic[MS, P]):
    """A rule module: a variant, a scenario or a table rule. Subclasses set the class
    attributes and implement `install`; everything the module is lives with it: its rules
    (install), its wire types (registered in `events.registry` by its wire file), its maps
    (`maps`: the package holding its TOML maps), its bot advice and its narration."""

    name: str = ""
    kind: str = "variant"  # "variant", "scenario" or "table"
    # How the lists name it (README, docs/design.md, docs/rules/README.md; checked by
    # tests/docs/test_catalogue_lists.py), and its rules file in docs/rules/ (empty: the module's name with .md).
    title: str = ""
    doc: str = ""
    description: str = ""
    Params: type[msgspec.Struct] | None = None
    # Names of modules this one cannot be combined with, each with the reason.
    conflicts: dict[str, str] = {}
    seats: tuple[int, ...] = (2, 3, 4)
    map: str = ""  # the map this module plays on ("" : the table's choice, base by default)
    maps: str = ""  # package holding this module's map files (name.toml)
    advice: Advice | None = None  # what the heuristic bot should do in this module's places
    narration: dict[type[Event], Narrator] = {}
    # The prompt stages this module asks in (`Prompt.stage`), each with one line saying what
    # is decided: a bot branches on these names, so every one a prompt carries is declared
    # (the base game's in base/stages.py) and documented (docs/protocol.md, `hexlog schemas`).
    stages: dict[str, str] = {}
    # Why a game ended, in this module's words, for each `GameFinished.reason` it gives beyond
    # the base's "victory" and "turn_limit": a sentence from the final state.
    end_reasons: dict[str, Callable[[MS], str]] = {}
    # Draws the module's pieces and marks on a rendered board (ships, camels, barbarians …).
    drawing: Callable[[MS, Sketch], None] | None = None

    def rules_doc(self) -> str:
        """Its rules file, in docs/rules/."""
        return self.doc or f"{self.name}.md"

    def params(self, spec: ModuleSpec) -> P:
        if self.Params is None:
            if spec.params:
                raise ValueError(f"module {self.name!r} takes no parameters")
            return cast(P, None)
        return cast(P, msgspec.convert(spec.params, self.Params, strict=False))

    def install(self, rules: Ruleset[MS], params: P) -> None:
        raise NotImplementedError

    def create(self, created: dict[str, Any], params: P, dealer: Dealer) -> None:
        """Adjust the game-creation data (layout, set-up pieces) before `GameCreated` is made."""


class CostCache:
    """What things cost, and the numbers `freeze` copies out of the vocabulary for the hot
    paths (ruleset fields are C struct fields when compiled)."""

    costs: dict[str, tuple[int, ...]]
    # The four costs a main prompt reads, copied from `costs` by `freeze` (a lookup by name
    # cost about what the affordability test did, four times a prompt). `costs` stays what
    # handlers and modules read.
    road_cost: tuple[int, ...]
    settlement_cost: tuple[int, ...]
    city_cost: tuple[int, ...]
    card_cost: tuple[int, ...]
    limits: dict[str, int]
    dev_deck: tuple[int, ...]

    def __init__(self) -> None:
        self.costs = {}
        self.road_cost = self.settlement_cost = self.city_cost = self.card_cost = ()
        self.limits = {}
        self.dev_deck = ()


# A native class when compiled. (Not a dataclass: a native generic dataclass fails at import on
# Python 3.11, "attribute '__dict__' of 'type' objects is not writable".) Its parts, by concern:
# `vocab` (the names: resources, cards, terrains, pieces), `registry` (commands, events,
# phases: registry.py), `hooks` (hooktable.py), `cache` (costs and what `freeze` copies out),
# `states` (module state: modstate.py), and the game's settings below. Everything a module
# installs goes through the typed calls here, which note who did it (`registry.provenance`).
class Ruleset(Generic[ST]):
    name: str
    modules: tuple[ModuleSpec, ...]
    vocab: Vocabulary
    registry: Registry[ST]
    hooks: HookTable[ST]
    cache: CostCache
    states: ModuleStates[ST]
    base_target: int
    # False: the game has no Longest Road card (Traders & Barbarians); every deriver that
    # would award it, whichever module registered it, gives nothing.
    longest_road: bool
    setup_rounds: tuple[SetupRound, ...]
    # What modules offer each other (Capability -> the object a module provides).
    capabilities: dict[object, object]

    def __init__(self, name: str, modules: tuple[ModuleSpec, ...] = ()) -> None:
        self.name = name
        self.modules = modules
        self.vocab = base_vocabulary()
        self.registry = Registry()
        self.hooks = HookTable()
        self.cache = CostCache()
        self.states = ModuleStates()
        self.capabilities = {}
        self.base_target = 10
        self.longest_road = True
        self.setup_rounds = BASE_SETUP
        self.settings(target=10, setup=BASE_SETUP, longest_road=True)  # noted as the base's

    # --- the game's settings ------------------------------------------------------------------

    def settings(self, *, target: int | None = None, setup: tuple[SetupRound, ...] | None = None,
                 longest_road: bool | None = None) -> None:
        """Change the game's settings: `target`, the victory points a game is played to (before
        the `win_target` hook); `setup`, the set-up rounds in order; `longest_road`, False for a
        game without the Longest Road card. Each change is noted for `hexlog rulesets
        --explain`."""
        if target is not None:
            if target < 1:
                raise ValueError(f"a victory point target must be positive, not {target}")
            self.base_target = target
            self.registry.note_value("setting target", target)
        if setup is not None:
            if not setup:
                raise ValueError("a game has at least one set-up round")
            self.setup_rounds = setup
            self.registry.note_value("setting setup", tuple(r.piece for r in setup))
        if longest_road is not None:
            self.longest_road = longest_road
            self.registry.note_value("setting longest_road", longest_road)

    # --- capabilities ----------------------------------------------------------------------

    def provide(self, key: Capability[T], provider: T) -> None:
        """Offer `provider` under `key` to the other modules; one provider per key."""
        if key in self.capabilities:
            raise ValueError(f"{key.name} is provided twice")
        self.capabilities[key] = provider
        self.registry.note(f"capability {key.name}", "provides", provider)

    def capability(self, key: Capability[T]) -> T | None:
        """What a module of this game provides under `key`, or None."""
        return cast("T | None", self.capabilities.get(key))

    # --- commands, events, phases ------------------------------------------------------------

    def allow(self, phase: str, *commands: type[Command]) -> None:
        self.registry.phase_commands.setdefault(phase, set()).update(commands)

    def handle(self, command: type[C], fn: Callable[[ST, C, Dealer], list[Event]],
               wraps: bool = False) -> None:
        """Register the handler of `command` (typed against it); replaces any before.
        wraps=True: `fn` calls the handler it replaces (kept by the caller), so provenance
        says it wraps it (`wrap_handler` is the same, with the wrapper as a function)."""
        self.registry.handlers[command] = fn
        self.registry.note(f"command {command.__name__}", "wraps" if wraps else "sets", fn)

    def wrap_handler(
        self,
        command: type[C],
        wrapper: Callable[[Callable[[ST, C, Dealer], list[Event]]],
                          Callable[[ST, C, Dealer], list[Event]]],
    ) -> None:
        """Wrap the handler of `command`: `wrapper` gets the one installed and returns its
        replacement (which usually calls it)."""
        registry = self.registry
        registry.handlers[command] = wrapper(registry.handlers[command])
        registry.note(f"command {command.__name__}", "wraps", wrapper)

    def evolve_with(self, event: type[E], fn: Callable[[ST, E], None], wraps: bool = False) -> None:
        """Register the evolver of `event` (typed against it); replaces any before (wraps:
        as in `handle`)."""
        self.registry.evolvers[event] = fn
        self.registry.note(f"event {event.__name__}", "wraps" if wraps else "sets", fn)

    def wrap_evolver(
        self, event: type[E],
        wrapper: Callable[[Callable[[ST, E], None]], Callable[[ST, E], None]],
    ) -> None:
        registry = self.registry
        registry.evolvers[event] = wrapper(registry.evolvers[event])
        registry.note(f"event {event.__name__}", "wraps", wrapper)

    def prompt(self, phase: str, fn: Prompter[ST], wraps: bool = False) -> None:
        """Register who must act in `phase` and how (replaces any before; wraps: as in
        `handle`)."""
        self.registry.prompters[phase] = fn
        self.registry.note(f"phase {phase}", "wraps" if wraps else "sets", fn)

    def wrap_prompter(
        self, phase: str, wrapper: Callable[[Prompter[ST]], Prompter[ST]]
    ) -> None:
        registry = self.registry
        registry.prompters[phase] = wrapper(registry.prompters[phase])
        registry.note(f"phase {phase}", "wraps", wrapper)

    def redact(self, event: type[E], fn: Callable[[E, int | None], Event]) -> None:
        """How `event` is shown to a seat (None: the referee) that may not see all of it."""
        self.registry.redactors[event] = fn
        self.registry.note(f"redact {event.__name__}", "sets", fn)

    def derive(self, triggers: tuple[type[Event], ...], fn: Deriver[ST]) -> None:
        self.registry.derivers.append((frozenset(triggers), fn))
        self.registry.derive_after.update(triggers)
        self.registry.note("derivers", "adds", fn)

    def drop_derivers(self, *fns: Deriver[ST]) -> None:
        """Take these derivers out (a scenario without the awards they give)."""
        registry = self.registry
        registry.derivers = [(t, f) for t, f in registry.derivers if f not in fns]
        for fn in fns:
            registry.note("derivers", "drops", fn)

    def reversible_events(self, *events: type[Event]) -> None:
        """Events an undo may cross (public, without chance): registry.reversible."""
        self.registry.reversible.update(events)

    def add_vp_events(self, *events: type[Event]) -> None:
        """Events after which a seat's VP may have changed: the victory check follows them."""
        self.registry.vp_events.update(events)

    # --- hooks ---------------------------------------------------------------------------------

    def set_hook(self, key: Hook[F], fn: F, wraps: bool = False) -> None:
        """Set a single hook (the base rules), or replace it (a module whose rule is not the
        base's at all). wraps=True: `fn` calls the function it replaces (kept by the caller
        with `hook(key)`), so provenance says it wraps it."""
        setattr(self.hooks, key.name, fn)
        self.registry.note(f"hook {key.name}", "wraps" if wraps else "sets", fn)

    def wrap_hook(self, key: Hook[F], wrapper: Callable[[F], F]) -> None:
        """Wrap a single hook: `wrapper` gets the function installed and returns one that
        (usually) calls it and changes the answer."""
        setattr(self.hooks, key.name, wrapper(self.hook(key)))
        self.registry.note(f"hook {key.name}", "wraps", wrapper)

    def hook(self, key: Hook[F]) -> F:
        """The function a single hook holds now."""
        return cast(F, getattr(self.hooks, key.name))

    def add_hook(self, key: HookList[F], fn: F, first: bool = False) -> None:
        """One more entry of a list hook, last (asked after the others) or `first`."""
        entries: list[F] = getattr(self.hooks, key.name)
        if first:
            entries.insert(0, fn)
        else:
            entries.append(fn)
        self.registry.note(f"hook {key.name}", "adds first" if first else "adds", fn)

    def replace_in_hook(self, key: HookList[F], old: F, wrapper: Callable[[F], F]) -> None:
        """Wrap the entry `old` of a list hook in place."""
        entries: list[F] = getattr(self.hooks, key.name)
        setattr(self.hooks, key.name, [wrapper(f) if f is old else f for f in entries])
        self.registry.note(f"hook {key.name}", "wraps", wrapper)

    # --- module state, costs, settings -------------------------------------------------------

    def module_state(
        self,
        key: StateKey[T],
        init: Callable[[ST, GameCreated], T],
        view: Callable[[ST, int | None], ViewData] | None = None,
        referee: Callable[[ST], dict[str, ViewData]] | None = None,
    ) -> None:
        """The module's state under `key` (modstate.py): made by `init` at the game's start,
        copied, dumped and loaded from its type; `view` is what each seat's view shows of it
        (None: the referee's), `referee` the secrets only the referee's view adds."""
        states = self.states
        states.keys[key.name] = key
        states.init[key.name] = init
        if view is not None:
            states.view[key.name] = view
        if referee is not None:
            states.referee[key.name] = referee
        self.registry.note(f"state {key.name}", "sets", init)

    def wrap_state_init(
        self, key: StateKey[T],
        wrapper: Callable[[Callable[[ST, GameCreated], T]], Callable[[ST, GameCreated], T]],
    ) -> None:
        """Wrap how a module's state is made (a pair of modules that starts it otherwise)."""
        states = self.states
        states.init[key.name] = wrapper(cast(Callable[[ST, GameCreated], T],
                                             states.init[key.name]))
        self.registry.note(f"state {key.name}", "wraps", wrapper)

    def cost(self, thing: str, price: tuple[int, ...]) -> None:
        """What `thing` (a piece, a card, an action) costs, by resource index."""
        self.cache.costs[thing] = price

    def limit(self, piece: str, count: int) -> None:
        """How many of `piece` a seat has (default: the piece kind's own limit)."""
        self.cache.limits[piece] = count

    def freeze(self) -> None:
        """End of assembly: vectors get their final width (vocab.freeze)."""
        cache = self.cache
        self.vocab.freeze(cache.costs)
        costs = cache.costs
        cache.road_cost, cache.settlement_cost = costs["road"], costs["settlement"]
        cache.city_cost, cache.card_cost = costs["city"], costs["development_card"]
        cache.dev_deck = self.vocab.dev_deck
        for kind in self.vocab.pieces.values():
            cache.limits.setdefault(kind.name, kind.limit)


def _same_class(cls: type, params: object) -> type:
    return cls


# Compiled, a plain class loses Generic's subscription, which the source uses at run time
# (`class Harbormaster(Module[State, None])`): there, `Module[...]` gives the class itself.
# Interpreted, Generic's stays. The native Ruleset keeps Generic's. (Ruleset must not be made
# `serializable`: with this mypyc, a serializable class called from interpreted code, typing's
# alias `Ruleset["State"]` included, makes an instance without running `__init__`.)
for _generic in (Module, Ruleset):
    if not hasattr(_generic, "__class_getitem__"):
        setattr(_generic, "__class_getitem__", classmethod(_same_class))  # noqa: B010
