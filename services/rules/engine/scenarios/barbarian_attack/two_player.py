"""Barbarian Attack with Catan for Two (docs/rules/barbarian-attack.md §9.12).

- The foreign knight (`two_player.foreign_knight`): a neutral knight both players use. It
  enters with the first knight anyone raises, on the first free castle path in the board's
  order (Decision (hexlog): the rules give no choice of path, and it must leave the castle in
  the next march anyway); it marches after the active seat's own knights (knights.py) and is
  never lost in a battle (battles.py).
- Two landings for a settlement (`two_player.double_landing`): the neutral settlement a seat
  builds after its own brings a landing of its own, thrown after the first. The first landing
  comes before the neutral piece is placed: where it conquers the sites the owed piece had, the
  piece becomes a road, or nothing when none fits (`NeutralPieceReconsidered`).
- The token action (`two_player.token_barbarian`): instead of sending the robber (there is
  none), the seat pays Catan for Two's price (1 token, 2 when ahead) to move one barbarian from
  a coastal hex to another that is not conquered. Decision (hexlog): like Treason, it may
  complete a conquest or free a hex; it is a main-phase action before the knights march.
- A knight lost in battle pays 2 gold and 1 trade token (`two_player.compensation`,
  battles.py).

Everything here is decided only when Catan for Two's state is in the game, so the modules may
be listed in any order.
"""

from __future__ import annotations

from events.barbarian_attack import (
    BarbarianMovedByTokens,
    BarbariansLanded,
    ForeignKnightJoined,
    KnightRaised,
    MoveBarbarianByTokens,
    NeutralPieceReconsidered,
)
from events.catan_for_two import NeutralSettlementBuilt
from events.commands import Command
from events.events import Event
from services.rules.engine.base.common import require_current
from services.rules.engine.base.scoring import derive_victory
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.barbarian_attack.common import (
    FULL,
    attack,
    free_paths,
    geometry,
    playing_two,
    refresh_harbors,
)
from services.rules.engine.scenarios.barbarian_attack.landing import derive_landing
from services.rules.engine.state import MAIN, Rules, State
from services.rules.engine.variants.catan_for_two.common import NEUTRAL, two
from services.rules.engine.variants.catan_for_two.neutrals import neutral_done, owed_piece
from services.rules.engine.variants.catan_for_two.tokens import (
    action_problem,
    price,
    spend_for_action,
)

FOREIGN_KNIGHT = "barbarian_attack.two_player.foreign_knight"
TOKEN_BARBARIAN = "barbarian_attack.two_player.token_barbarian"


# --- the foreign knight ---------------------------------------------------------------------


def derive_foreign_knight(state: State, dealer: Dealer) -> list[Event]:
    """The first knight raised brings the foreign knight onto a free castle path."""
    if not playing_two(state) or attack(state).foreign >= 0:
        return []
    paths = free_paths(state, geometry(state.board).castle_edges)
    return [ForeignKnightJoined(edge=paths[0])] if paths else []


def evolve_joined(state: State, e: ForeignKnightJoined) -> None:
    attack(state).foreign = e.edge


# --- the neutral settlement's landing -------------------------------------------------------


def derive_neutral_landing(state: State, dealer: Dealer) -> list[Event]:
    if not playing_two(state):
        return []
    return derive_landing(state, dealer)


def derive_reconsidered(state: State, dealer: Dealer) -> list[Event]:
    """After a landing while a neutral piece is owed: what still fits."""
    if not playing_two(state) or state.phase != NEUTRAL:
        return []
    due = two(state).due
    piece = owed_piece(state, "settlement" if due == "settlement" else "road")
    if piece == due:
        return []
    return [NeutralPieceReconsidered(seat=state.current, piece=piece)]


def evolve_reconsidered(state: State, e: NeutralPieceReconsidered) -> None:
    if e.piece is None:
        neutral_done(state)
    else:
        two(state).due = e.piece


# --- the token action -----------------------------------------------------------------------


def token_moves(state: State) -> list[tuple[int, int]]:
    """(source, target) coastal hexes: a barbarian from a hex holding one to another hex
    that is not conquered."""
    a = attack(state)
    coastal = geometry(state.board).coastal
    sources = [h for h in coastal if a.barbarians[h] > 0]
    targets = [h for h in coastal if a.barbarians[h] < FULL]
    return [(s, t) for s in sources for t in targets if s != t]


def move_barbarian(state: State, cmd: MoveBarbarianByTokens, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if not playing_two(state):
        raise reject(TOKEN_BARBARIAN, "the token action exists only with Catan for Two")
    if attack(state).marching:
        raise reject("barbarian_attack.knight.move",
                     "the knights are marching: trading and building are over for this turn")
    problem = action_problem(state, cmd.seat)
    if problem is not None:
        raise problem
    if (cmd.source, cmd.target) not in token_moves(state):
        raise reject(TOKEN_BARBARIAN, "a barbarian moves from a coastal hex holding one to "
                                      "another coastal hex that is not conquered")
    return [BarbarianMovedByTokens(seat=cmd.seat, source=cmd.source, target=cmd.target,
                                   tokens=price(state, cmd.seat))]


def token_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN or not playing_two(state) or attack(state).marching \
            or action_problem(state, seat) is not None:
        return []
    return [MoveBarbarianByTokens(seat=seat, source=s, target=t) for s, t in token_moves(state)]


def evolve_moved(state: State, e: BarbarianMovedByTokens) -> None:
    spend_for_action(state, e.seat, e.tokens)
    a = attack(state)
    a.barbarians[e.source] -= 1
    a.barbarians[e.target] += 1
    refresh_harbors(state)


def install(rules: Rules) -> None:
    rules.derive((KnightRaised,), derive_foreign_knight)
    rules.evolve_with(ForeignKnightJoined, evolve_joined)
    rules.derive((NeutralSettlementBuilt,), derive_neutral_landing)
    rules.derive((BarbariansLanded,), derive_reconsidered)
    rules.evolve_with(NeutralPieceReconsidered, evolve_reconsidered)
    rules.handle(MoveBarbarianByTokens, move_barbarian)
    rules.allow(MAIN, MoveBarbarianByTokens)
    rules.extra_options.append(token_options)
    rules.evolve_with(BarbarianMovedByTokens, evolve_moved)
    # A freed hex can give the active seat its points back in its own turn.
    rules.derive((BarbarianMovedByTokens,), derive_victory)
