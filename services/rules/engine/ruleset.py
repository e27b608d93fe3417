"""A ruleset: the base game plus rule modules, assembled once and shared by every game using it.

The base rules install their command handlers, evolvers, phase prompters and hooks here; a
module (a variant or a scenario) installs more, or *wraps* a hook: it receives the previous
function and returns one that calls it and changes the answer. The base rules only ever call
hooks, so they never ask which variant is on (DESIGN.md "one module per variant").

Hooks (attributes holding functions):
  roll(state, seat, dealer) -> events          the turn's production step (dice by default)
  resolve_number(state, seat, total, dealer)   what a rolled number does (production or 7)
  roll_resolved(state) -> None                 a roll (or a 7's robber) is resolved: next phase
  production(state, total) -> gains per seat   resource vectors before the bank shortage rule
  robber_hexes(state, seat) -> hex ids         where the robber may go
  robber_victims(state, seat, hex) -> seats    who may be robbed there
  win_target(state, seat) -> int               VP needed to win
  vp_bonus(state, seat, public) -> int         module VP (harbormaster card, …)
  road_blocked / settlement_blocked lists      extra checks returning a rule id or None
  robber_refusal list                          (state, seat, hex, victim) -> why a move is refused
  phase_refusal list                           (state, command) -> the rule a command breaks by
                                               coming at the wrong moment (else wrong_phase)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from events.commands import Command
from events.events import Event, GameCreated, ModuleSpec

if TYPE_CHECKING:
    from services.rules.engine.chance import Dealer
    from services.rules.engine.state import State

Handler = Callable[["State", Any, "Dealer"], list[Event]]
Evolver = Callable[["State", Any], None]
Prompter = Callable[["State"], list[Any]]
Deriver = Callable[["State", "Dealer"], list[Event]]
Redactor = Callable[[Any, "int | None"], Event]


class Module:
    """A rule module. Subclasses set the class attributes and implement `install`."""

    name: str = ""
    kind: str = "variant"  # "variant" or "scenario"
    description: str = ""
    Params: type[msgspec.Struct] | None = None
    # Names of modules this one cannot be combined with, each with the reason.
    conflicts: dict[str, str] = {}
    seats: tuple[int, ...] = (2, 3, 4)

    def params(self, spec: ModuleSpec) -> Any:
        if self.Params is None:
            if spec.params:
                raise ValueError(f"module {self.name!r} takes no parameters")
            return None
        return msgspec.convert(spec.params, self.Params, strict=False)

    def install(self, rules: Ruleset, params: Any) -> None:
        raise NotImplementedError

    def create(self, created: dict[str, Any], params: Any, dealer: Dealer) -> None:
        """Adjust the game-creation data (layout, set-up pieces) before `GameCreated` is made."""


@dataclass
class Ruleset:
    name: str
    modules: tuple[ModuleSpec, ...] = ()
    handlers: dict[type[Command], Handler] = field(default_factory=dict)
    evolvers: dict[type[Event], Evolver] = field(default_factory=dict)
    phase_commands: dict[str, set[type[Command]]] = field(default_factory=dict)
    prompters: dict[str, Prompter] = field(default_factory=dict)
    # (event types that trigger it, deriver): derivers look at the state *after* the primary
    # events and return consequences (awards, victory). Run in registration order.
    derivers: list[tuple[frozenset[type[Event]], Deriver]] = field(default_factory=list)
    derive_after: set[type[Event]] = field(default_factory=set)
    redactors: dict[type[Event], Redactor] = field(default_factory=dict)
    # Events an undo may cross: public and without chance. Any other event (a roll, a steal, a
    # drawn card, a module event not listed here) is a floor no undo goes below (engine/undo.py).
    reversible: set[type[Event]] = field(default_factory=set)
    # Per-module extension state in State.ext: init from GameCreated, copy, and dump.
    init_ext: dict[str, Callable[[State, GameCreated], Any]] = field(default_factory=dict)
    copy_ext: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    ext_to_dict: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    ext_from_dict: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    view_ext: dict[str, Callable[[State, int | None], Any]] = field(default_factory=dict)
    costs: dict[str, tuple[int, int, int, int, int]] = field(default_factory=dict)
    limits: dict[str, int] = field(default_factory=dict)
    base_target: int = 10
    dev_deck: tuple[int, int, int, int, int] = (14, 5, 2, 2, 2)
    # Hooks; the base rules set them, modules wrap them.
    roll: Any = None
    resolve_number: Any = None
    roll_resolved: Any = None
    production: Any = None
    robber_hexes: Any = None
    robber_victims: Any = None
    win_target: Any = None
    vp_bonus: list[Callable[[State, int, bool], int]] = field(default_factory=list)
    road_blocked: list[Callable[[State, int, int], str | None]] = field(default_factory=list)
    settlement_blocked: list[Callable[[State, int, int], str | None]] = field(
        default_factory=list
    )
    extra_options: list[Callable[[State, int, str], list[Command]]] = field(default_factory=list)
    phase_refusal: list[Callable[[State, Command], str | None]] = field(default_factory=list)
    robber_refusal: list[Callable[[State, int, int, int | None], str | None]] = field(
        default_factory=list
    )

    def allow(self, phase: str, *commands: type[Command]) -> None:
        self.phase_commands.setdefault(phase, set()).update(commands)

    def derive(self, triggers: tuple[type[Event], ...], fn: Deriver) -> None:
        self.derivers.append((frozenset(triggers), fn))
        self.derive_after.update(triggers)

    def ext(
        self,
        name: str,
        init: Callable[[State, GameCreated], Any],
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
