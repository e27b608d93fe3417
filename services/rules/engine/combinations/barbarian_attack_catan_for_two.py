"""Barbarian Attack with Catan for Two (docs/rules/barbarian-attack.md §9.12).

- The foreign knight (`two_player.foreign_knight`): a neutral knight both players use. It
  enters with the first knight anyone raises, on the first free castle path in the board's
  order (Decision (hexlog): the rules give no choice of path, and it must leave the castle in
  the next march anyway). Once in play, Barbarian Attack's own march and battles move it and
  never lose it (knights.py, battles.py: `AttackState.foreign`).
- Two landings for a settlement (`two_player.double_landing`): the neutral settlement a seat
  builds after its own brings a landing of its own, thrown after the first. The first landing
  comes before the neutral piece is placed: where it conquers the sites the owed piece had, the
  piece becomes a road, or nothing when none fits (`NeutralPieceReconsidered`).
- The token action (`two_player.token_barbarian`): instead of sending the robber (there is
  none), the seat pays Catan for Two's price (1 token, 2 when ahead) to move one barbarian from
  a coastal hex to another that is not conquered. Decision (hexlog): like Treason, it may
  complete a conquest or free a hex; it is a main-phase action before the knights march.
- A knight lost in battle pays 2 gold and 1 trade token (`two_player.compensation`), given to
  the battles as `LOST_KNIGHT_PAY`.

Catan for Two's neutral players and tokens are asked for as capabilities (`NEUTRAL_OWNERS`,
`TRADE_TOKENS`).
"""

from __future__ import annotations

from events.barbarian_attack import (
    BarbarianMovedByTokens,
    BarbariansLanded,
    CoastalBattleWon,
    ForeignKnightJoined,
    KnightRaised,
    MoveBarbarianByTokens,
    NeutralPieceReconsidered,
)
from events.catan_for_two import NeutralPiece, NeutralSettlementBuilt, TradeTokensGained
from events.commands import Command
from events.events import Event
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import require_current
from services.rules.engine.base.scoring import derive_victory
from services.rules.engine.capabilities import (
    NEUTRAL_OWNERS,
    TRADE_TOKENS,
    NeutralOwners,
    TradeTokens,
)
from services.rules.engine.chance import Dealer
from services.rules.engine.combinations import Combination
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.barbarian_attack.common import (
    FULL,
    LOST_KNIGHT_PAY,
    attack,
    free_paths,
    geometry,
    refresh_harbors,
)
from services.rules.engine.scenarios.barbarian_attack.landing import derive_landing
from services.rules.engine.state import MAIN, Rules, State

TOKEN_BARBARIAN = "barbarian_attack.two_player.token_barbarian"
LOSS_GOLD = 2  # per knight lost, with 1 trade token


def neutral_owners(state: State) -> NeutralOwners:
    owners = state.rules.capability(NEUTRAL_OWNERS)
    assert owners is not None, "installed only with Catan for Two, which provides them"
    return owners


def tokens_of(state: State) -> TradeTokens:
    tokens = state.rules.capability(TRADE_TOKENS)
    assert tokens is not None, "installed only with Catan for Two, which provides them"
    return tokens


# --- the foreign knight ---------------------------------------------------------------------


def derive_foreign_knight(state: State, dealer: Dealer) -> list[Event]:
    """The first knight raised brings the foreign knight onto a free castle path."""
    if attack(state).foreign >= 0:
        return []
    paths = free_paths(state, geometry(state.board).castle_edges)
    return [ForeignKnightJoined(edge=paths[0])] if paths else []


def evolve_joined(state: State, e: ForeignKnightJoined) -> None:
    attack(state).foreign = e.edge


# --- the neutral settlement's landing -------------------------------------------------------


def derive_reconsidered(state: State, dealer: Dealer) -> list[Event]:
    """After a landing while a neutral piece is owed: what still fits."""
    owners = neutral_owners(state)
    if state.phase != owners.stage:
        return []
    due = owners.owed(state)
    piece = owners.owed_after(state, due)
    if piece == due:
        return []
    return [NeutralPieceReconsidered(seat=state.current, piece=_piece(piece))]


def _piece(piece: str | None) -> NeutralPiece | None:
    if piece == "road":
        return "road"
    if piece == "settlement":
        return "settlement"
    return None


def evolve_reconsidered(state: State, e: NeutralPieceReconsidered) -> None:
    neutral_owners(state).settle(state, e.piece)


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
    if attack(state).marching:
        raise reject("barbarian_attack.knight.move",
                     "the knights are marching: trading and building are over for this turn")
    tokens = tokens_of(state)
    problem = tokens.action_problem(state, cmd.seat)
    if problem is not None:
        raise problem
    if (cmd.source, cmd.target) not in token_moves(state):
        raise reject(TOKEN_BARBARIAN, "a barbarian moves from a coastal hex holding one to "
                                      "another coastal hex that is not conquered")
    return [BarbarianMovedByTokens(seat=cmd.seat, source=cmd.source, target=cmd.target,
                                   tokens=tokens.price(state, cmd.seat))]


def token_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN or attack(state).marching \
            or tokens_of(state).action_problem(state, seat) is not None:
        return []
    return [MoveBarbarianByTokens(seat=seat, source=s, target=t) for s, t in token_moves(state)]


def evolve_moved(state: State, e: BarbarianMovedByTokens) -> None:
    tokens_of(state).spend(state, e.seat, e.tokens)
    a = attack(state)
    a.barbarians[e.source] -= 1
    a.barbarians[e.target] += 1
    refresh_harbors(state)


# --- a lost knight's pay --------------------------------------------------------------------


class LostKnightTokens:
    """`LOST_KNIGHT_PAY`: 2 gold a knight lost, and a trade token per knight lost while the
    supply lasts (the seat order of the battle's losses)."""

    gold = LOSS_GOLD

    def extra(self, state: State, e: CoastalBattleWon) -> list[Event]:
        if not e.lost:
            return []
        supply = tokens_of(state).supply(state)
        out: list[Event] = []
        for seat in range(state.n):
            n = min(sum(1 for s, _ in e.lost if s == seat), supply)
            if n > 0:
                out.append(TradeTokensGained(seat=seat, tokens=n, reason="knight lost"))
                supply -= n
        return out


def install(rules: Rules) -> None:
    rules.derive((KnightRaised,), derive_foreign_knight)
    rules.evolve_with(ForeignKnightJoined, evolve_joined)
    rules.derive((NeutralSettlementBuilt,), derive_landing)
    rules.derive((BarbariansLanded,), derive_reconsidered)
    rules.evolve_with(NeutralPieceReconsidered, evolve_reconsidered)
    rules.handle(MoveBarbarianByTokens, move_barbarian)
    rules.allow(MAIN, MoveBarbarianByTokens)
    rules.add_hook(hk.EXTRA_OPTIONS, token_options)
    rules.evolve_with(BarbarianMovedByTokens, evolve_moved)
    # A freed hex can give the active seat its points back in its own turn.
    rules.derive((BarbarianMovedByTokens,), derive_victory)
    rules.provide(LOST_KNIGHT_PAY, LostKnightTokens())


COMBINATION = Combination(
    pair=("barbarian-attack", "catan-for-two"), install=install,
    description="the foreign knight, a landing for the neutral settlement, the token action "
                "on a barbarian, a lost knight's 2 gold and a token")
