"""Variant: Harbormaster (docs/rules/harbormaster.md §4).

Harbor points: a settlement on a harbor vertex counts 1, a city 2. The first player with 3 takes
the Harbormaster card (2 VP, public); it moves only to a player with strictly more points than
the holder. The win target rises by 1 (11 in the base game).

Design notes:
- Points are never stored: they follow from the board (`harbor_points`), so nothing can drift.
  Only the holder is state (`state.ext["harbormaster"]`), changed by `HarbormasterChanged`
  events that a deriver emits after a build, as Longest Road does in base/scoring.py; the log
  therefore says who took the card and when ("Harbormaster card to seat 2").
- The +1 wraps `win_target`, so it stacks with any other target change (victory-points, a
  scenario's own target).
- Points cannot drop in the base game; the DECISION of docs/rules/harbormaster.md §4 for drops (a flooded or
  conquered building in other modules) is in `next_holder`, so a module that removes buildings
  only has to make this deriver run (its events among the triggers, see `TRIGGERS`).
"""

from __future__ import annotations

from typing import Final

from events.events import CityBuilt, Event, GameCreated, SettlementBuilt
from events.harbormaster import HarbormasterChanged
from services.rules.engine import hook_keys as hk
from services.rules.engine.chance import Dealer
from services.rules.engine.modstate import StateKey
from services.rules.engine.narration import Narrator, Places, narrator
from services.rules.engine.rules import register
from services.rules.engine.ruleset import Module
from services.rules.engine.state import NO_ONE, Rules, State

EXT = "harbormaster"
HOLDER: Final = StateKey(EXT, int)  # the holder's seat, or NO_ONE
CARD_VP = 2
MIN_POINTS = 3
TRIGGERS: tuple[type[Event], ...] = (SettlementBuilt, CityBuilt)

# Harbormaster refuses no command; its ids name the rulings its events apply (audit, digest).
register({
    "harbormaster.card.first": (
        "Harbormaster: harbor points are 1 per settlement and 2 per city on a harbor; the first "
        "player with 3 takes the Harbormaster card (2 VP)."
    ),
    "harbormaster.card.tie": "Harbormaster: the holder keeps the card on a tie.",
    "harbormaster.card.exceed": (
        "Harbormaster: a player with strictly more harbor points than the holder takes the card."
    ),
    "harbormaster.card.drop": (
        "Harbormaster: if the holder's points drop, the card goes to the unique leader with 3 or "
        "more, or back to the supply when nobody has 3."
    ),
    "harbormaster.win.target": "Harbormaster: the game is played to one more VP (11 in the base game).",
})


def harbor_points(state: State, seat: int) -> int:
    """Settlements on a harbor vertex count 1, cities 2 (docs/rules/harbormaster.md §4); a
    building a module voids (`building_void`: a conquered one) counts 0."""
    harbor = state.board.vertex_harbor
    p = state.players[seat]
    points = sum(1 for v in p.settlements if harbor[v] is not None) + sum(
        2 for v in p.cities if harbor[v] is not None
    )
    void = state.rules.hooks.building_void
    if void and points:
        points -= sum(1 for v in p.settlements if harbor[v] is not None
                      and any(f(state, seat, v) for f in void))
        points -= sum(2 for v in p.cities if harbor[v] is not None
                      and any(f(state, seat, v) for f in void))
    return points


def all_points(state: State) -> list[int]:
    return [harbor_points(state, s) for s in range(state.n)]


def holder(state: State) -> int:
    held: int = state.ext[EXT]
    return held


def next_holder(points: list[int], held: int, active: int) -> int:
    """Who holds the card given everyone's points (NO_ONE: the supply).

    - No holder: the player with the most points among those with >= 3 takes it; several
      at once (impossible in normal turns) → the active player first, then seat order.
    - A holder keeps it on ties; it moves to the unique player with the most points if that
      player has >= 3 and strictly more than the holder (this also covers a holder whose
      points dropped: DECISION, docs/rules/harbormaster.md §4).
    - A holder below 3 while nobody else has 3 returns it to the supply (DECISION, §4).
    """
    n = len(points)
    top = max(points)
    if top < MIN_POINTS:
        return NO_ONE
    leaders = [s for s in range(n) if points[s] == top]
    if held == NO_ONE:
        order = [(active + i) % n for i in range(n)]
        return next(s for s in order if s in leaders)
    if top > points[held] and len(leaders) == 1:
        return leaders[0]
    return held


def derive_harbormaster(state: State, dealer: Dealer) -> list[Event]:
    points = all_points(state)
    held = holder(state)
    new = next_holder(points, held, state.current)
    if new == held:
        return []
    return [HarbormasterChanged(holder=None if new == NO_ONE else new, points=tuple(points))]


def evolve_changed(state: State, e: HarbormasterChanged) -> None:
    state.ext[EXT] = NO_ONE if e.holder is None else e.holder


def card_vp(state: State, seat: int, public: bool) -> int:
    return CARD_VP if state.ext[EXT] == seat else 0


def view_harbormaster(state: State, seat: int | None) -> dict[str, object]:
    held = holder(state)
    return {"holder": None if held == NO_ONE else held, "points": all_points(state)}


def init_holder(state: State, created: GameCreated) -> int:
    return NO_ONE


def same(x: int) -> int:
    return x


def narrate_changed(e: HarbormasterChanged, at: Places) -> str:
    if e.holder is None:
        return "The Harbormaster card goes back to the supply"
    return f"{at.who(e.holder)} takes the Harbormaster card ({e.points[e.holder]} harbor points)"


NARRATION: dict[type[Event], Narrator] = dict([narrator(HarbormasterChanged, narrate_changed)])


class Harbormaster(Module[State, None]):
    name = "harbormaster"
    title = "Harbormaster"
    description = (
        "Harbor points (settlement 1, city 2 on a harbor); the first to 3 takes the "
        "Harbormaster card (2 VP); play to one more VP."
    )

    narration = NARRATION

    def install(self, rules: Rules, params: None) -> None:
        rules.module_state(HOLDER, init_holder, view=view_harbormaster)
        rules.evolve_with(HarbormasterChanged, evolve_changed)
        rules.derive(TRIGGERS, derive_harbormaster)
        rules.add_hook(hk.VP_BONUS, card_vp)
        previous = rules.hook(hk.WIN_TARGET)

        def win_target(state: State, seat: int) -> int:
            target: int = previous(state, seat)
            return target + 1

        rules.set_hook(hk.WIN_TARGET, win_target, wraps=True)


MODULE = Harbormaster()
