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
from services.rules.engine import hooks
from services.rules.engine.advice import Advice
from services.rules.engine.chance import Dealer
from services.rules.engine.narration import Narrator, Sketch
from services.rules.engine.vocab import Vocabulary, base_vocabulary

ST = TypeVar("ST")  # the state type (engine.state.State)
# A module's state type and parameters (a msgspec Struct, or None). A bare `Module` (a
# catalogue of modules of any kind) means any of them.
MS = DefaultTypeVar("MS", default=Any)
P = DefaultTypeVar("P", default=Any)
C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)
T = TypeVar("T")


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

# Handlers, evolvers and redactors are stored per command / event type, so their second
# parameter is only known per entry: `handle` and `evolve_with` type each one against its own
# type when it is registered.
Handler = Callable[[ST, Any, Dealer], list[Event]]
Evolver = Callable[[ST, Any], None]
Redactor = Callable[[Any, "int | None"], Event]


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


def _unset(*args: object) -> Any:
    raise NotImplementedError("hook not installed")


# A native class when compiled: every hook and table the engine reads on each decision is then
# a C struct field, not a dictionary lookup. (Not a dataclass: a native generic dataclass fails
# at import on Python 3.11, "attribute '__dict__' of 'type' objects is not writable".)
class Ruleset(Generic[ST]):
    name: str
    modules: tuple[ModuleSpec, ...]
    vocab: Vocabulary
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
    # Per-module extension state in State.ext: init from GameCreated, copy, and dump.
    init_ext: dict[str, Callable[[ST, GameCreated], Any]]
    copy_ext: dict[str, Callable[[Any], Any]]
    ext_to_dict: dict[str, Callable[[Any], Any]]
    ext_from_dict: dict[str, Callable[[Any], Any]]
    view_ext: dict[str, Callable[[ST, int | None], Any]]
    # What the referee's view adds to a module's `view_ext` entry: the secrets the module keeps
    # in its own state (the values of every hand's tokens), which `view_ext` shows no one else.
    referee_ext: dict[str, Callable[[ST], dict[str, Any]]]
    costs: dict[str, tuple[int, ...]]
    # The four costs a main prompt reads, copied from `costs` by `freeze` (ruleset fields are
    # C struct fields when compiled; a lookup by name cost about what the affordability test
    # did, four times a prompt). `costs` stays what handlers and modules read and write.
    road_cost: tuple[int, ...]
    settlement_cost: tuple[int, ...]
    city_cost: tuple[int, ...]
    card_cost: tuple[int, ...]
    limits: dict[str, int]
    base_target: int
    # False: the game has no Longest Road card (Traders & Barbarians); every deriver that
    # would award it, whichever module registered it, gives nothing.
    longest_road: bool
    dev_deck: tuple[int, ...]
    setup_rounds: tuple[SetupRound, ...]
    # Hooks (hooks.py); the base rules set them, modules wrap them. The roll:
    roll: hooks.Roll[ST]
    resolve_dice: hooks.ResolveDice[ST]
    resolve_number: hooks.ResolveNumber[ST]
    roll_resolved: hooks.StateStep[ST]
    production: hooks.Production[ST]
    # … a 7 and the robber:
    seven: hooks.Seven[ST]
    seven_stage: hooks.StateStep[ST]
    robber_hexes: hooks.RobberHexes[ST]
    robber_victims: hooks.RobberVictims[ST]
    robber_home: hooks.RobberHome[ST]
    steal: hooks.Steal[ST]
    # … the end of a turn and of the game:
    end_of_turn: list[hooks.EndOfTurn[ST]]
    wins: hooks.Wins[ST]
    win_target: hooks.SeatNumber[ST]
    vp_bonus: list[hooks.VpBonus[ST]]
    # … where pieces go, and what routes count:
    road_blocked: list[hooks.PlaceCheck[ST]]
    settlement_blocked: list[hooks.PlaceCheck[ST]]
    road_permits: list[hooks.PlacePermit[ST]]
    settlement_permits: list[hooks.PlacePermit[ST]]
    # … a building on the board that counts for nothing (a conquered one): True voids it.
    building_void: list[hooks.PlacePermit[ST]]
    route_weight: hooks.RouteWeight[ST] | None
    # … what else a seat may do, and why a command is refused:
    extra_options: list[hooks.ExtraOptions[ST]]
    phase_refusal: list[hooks.PhaseRefusal[ST]]
    robber_refusal: list[hooks.RobberRefusal[ST]]
    # What modules offer each other (Capability -> the object a module provides).
    capabilities: dict[object, object]

    def __init__(self, name: str, modules: tuple[ModuleSpec, ...] = ()) -> None:
        self.name = name
        self.modules = modules
        self.vocab = base_vocabulary()
        self.handlers = {}
        self.evolvers = {}
        self.phase_commands = {}
        self.prompters = {}
        self.derivers = []
        self.derive_after = set()
        self.vp_events = set()
        self.redactors = {}
        self.reversible = set()
        self.init_ext = {}
        self.copy_ext = {}
        self.ext_to_dict = {}
        self.ext_from_dict = {}
        self.view_ext = {}
        self.referee_ext = {}
        self.costs = {}
        self.road_cost = self.settlement_cost = self.city_cost = self.card_cost = ()
        self.limits = {}
        self.base_target = 10
        self.longest_road = True
        self.dev_deck = ()
        self.setup_rounds = BASE_SETUP
        self.roll = _unset
        self.resolve_dice = _unset
        self.resolve_number = _unset
        self.roll_resolved = _unset
        self.production = _unset
        self.seven = _unset
        self.seven_stage = _unset
        self.robber_hexes = _unset
        self.robber_victims = _unset
        self.robber_home = _unset
        self.steal = _unset
        self.end_of_turn = []
        self.wins = _unset
        self.win_target = _unset
        self.vp_bonus = []
        self.road_blocked = []
        self.settlement_blocked = []
        self.road_permits = []
        self.settlement_permits = []
        self.building_void = []
        self.route_weight = None
        self.extra_options = []
        self.phase_refusal = []
        self.robber_refusal = []
        self.capabilities = {}

    def provide(self, key: Capability[T], provider: T) -> None:
        """Offer `provider` under `key` to the other modules; one provider per key."""
        if key in self.capabilities:
            raise ValueError(f"{key.name} is provided twice")
        self.capabilities[key] = provider

    def capability(self, key: Capability[T]) -> T | None:
        """What a module of this game provides under `key`, or None."""
        return cast("T | None", self.capabilities.get(key))

    def allow(self, phase: str, *commands: type[Command]) -> None:
        self.phase_commands.setdefault(phase, set()).update(commands)

    def handle(self, command: type[C], fn: Callable[[ST, C, Dealer], list[Event]]) -> None:
        """Register the handler of `command` (typed against it)."""
        self.handlers[command] = fn

    def evolve_with(self, event: type[E], fn: Callable[[ST, E], None]) -> None:
        """Register the evolver of `event` (typed against it)."""
        self.evolvers[event] = fn

    def derive(self, triggers: tuple[type[Event], ...], fn: hooks.Deriver[ST]) -> None:
        self.derivers.append((frozenset(triggers), fn))
        self.derive_after.update(triggers)

    def ext(
        self,
        name: str,
        init: Callable[[ST, GameCreated], Any],
        copy: Callable[[Any], Any],
        dump: Callable[[Any], Any] | None = None,
        load: Callable[[Any], Any] | None = None,
    ) -> None:
        """Register a module's state in `state.ext[name]`. `dump` must give plain JSON-able
        data (dict/list/int/str/bool) and `load(dump(x))` must rebuild x: snapshots use them.
        Both default to the identity (fine for ext state that already is plain data)."""
        self.init_ext[name] = init
        self.copy_ext[name] = copy
        self.ext_to_dict[name] = dump or (lambda x: x)
        self.ext_from_dict[name] = load or (lambda x: x)

    def freeze(self) -> None:
        """End of assembly: vectors get their final width (vocab.freeze)."""
        self.vocab.freeze(self.costs)
        costs = self.costs
        self.road_cost, self.settlement_cost = costs["road"], costs["settlement"]
        self.city_cost, self.card_cost = costs["city"], costs["development_card"]
        self.dev_deck = self.vocab.dev_deck
        for kind in self.vocab.pieces.values():
            self.limits.setdefault(kind.name, kind.limit)


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
