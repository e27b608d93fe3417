"""Barbarian Attack with Catan for Two (docs/rules/barbarian-attack.md §9.12): the foreign
knight, two landings for a settlement, the token action on a barbarian, and what a lost
knight pays."""

from __future__ import annotations

from ba_helpers import barbarians, corner, ext, hx, knight, knights, side, table

from events.barbarian_attack import (
    FOREIGN,
    BarbariansLanded,
    BeginMarch,
    CoastalBattleWon,
    ForeignKnightJoined,
    MarchForeignKnight,
    MarchKnight,
    MoveBarbarianByTokens,
    NeutralPieceReconsidered,
    RaiseKnight,
)
from events.catan_for_two import (
    BuildNeutralRoad,
    BuildNeutralSettlement,
    DiscardKnight,
    TradeTokensGained,
)
from events.commands import BuildSettlement, BuyDevelopmentCard, EndTurn
from events.events import Event, ModuleSpec
from services.rules.engine import pending, view
from services.rules.engine.chance import SeededDealer
from services.rules.engine.combinations.barbarian_attack_catan_for_two import derive_reconsidered
from services.rules.engine.scenarios.barbarian_attack.common import BARBARIANS, geometry
from services.rules.engine.state import MAIN
from services.rules.engine.testing import Table
from services.rules.engine.variants.catan_for_two.common import NEUTRAL, two

TWO = (ModuleSpec(name="catan-for-two"),)
EAST = (2, 0)  # the 6 hex on the east coast


def table2() -> Table:
    return table(seats=2, more=TWO)


def battles(events: list[Event]) -> list[CoastalBattleWon]:
    return [e for e in events if isinstance(e, CoastalBattleWon)]


def end_turn(t: Table) -> list[Event]:
    two(t.state).step = 2  # both rolls made
    return t.when(EndTurn(seat=0))


def test_barbarian_attack_combines_with_catan_for_two() -> None:
    t = table2()
    assert len(t.state.players) == 4  # two seats and the two neutrals
    assert view(t.state, 0).ext["barbarian-attack"]["foreign_knight"] is None


def test_barbarian_attack_two_player_foreign_knight_joins_with_the_first_knight() -> None:
    t = table2()
    castle = sorted(geometry(t.state.board).castle_edges)
    t.script("devcard", "knighthood", "knighthood")
    t.give(0, wool=2, grain=2, ore=2)
    t.when(BuyDevelopmentCard(seat=0))
    events = t.when(RaiseKnight(seat=0, edge=castle[0]))
    assert ForeignKnightJoined(edge=castle[1]) in events  # the first free castle path
    assert ext(t).foreign == castle[1]
    t.when(BuyDevelopmentCard(seat=0))
    events = t.when(RaiseKnight(seat=0, edge=castle[2]))
    assert not any(isinstance(e, ForeignKnightJoined) for e in events)
    assert view(t.state, 1).ext["barbarian-attack"]["foreign_knight"] == castle[1]


def test_barbarian_attack_two_player_foreign_knight_marches_after_our_knights() -> None:
    t = table2()
    mine, foreign = side(t, EAST, 0), side(t, (0, -2), 3)
    knight(t, 0, mine)
    ext(t).foreign = foreign
    t.when(BeginMarch(seat=0))
    options = pending(t.state)[0].options
    assert any(isinstance(o, MarchKnight) for o in options)
    step = next(o for o in options if isinstance(o, MarchForeignKnight))
    t.when(step)
    assert ext(t).foreign == step.target
    after = pending(t.state)[0].options
    assert not any(isinstance(o, MarchKnight | MarchForeignKnight) for o in after)
    own = MarchKnight(seat=0, source=mine, target=side(t, EAST, 2))
    t.rejects(own, "barbarian_attack.two_player.foreign_knight")
    t.rejects(MarchForeignKnight(seat=0, target=foreign), "barbarian_attack.two_player.foreign_knight")
    assert knights(t, 0) == {mine}


def test_barbarian_attack_two_player_foreign_knight_fights_and_is_never_lost() -> None:
    t = table2()
    barbarians(t, {EAST: 2})
    knight(t, 0, side(t, EAST, 0))
    knight(t, 0, side(t, EAST, 1))
    ext(t).foreign = side(t, EAST, 4)
    supply = ext(t).supply
    t.script("lossdie", 1)  # 1 or 4: sides 1 and 4, the foreign knight's among them
    fought = battles(end_turn(t))[0]
    assert (FOREIGN, side(t, EAST, 4)) in fought.knights  # three knights beat two barbarians
    assert fought.prisoners == (1, 0)  # one each: the foreign knight's goes back
    assert ext(t).supply == supply + 1
    assert fought.lost == ((0, side(t, EAST, 1)),)
    assert ext(t).foreign == side(t, EAST, 4)
    a = ext(t)
    assert sum(a.barbarians) + a.supply + sum(a.prisoners) == BARBARIANS


def test_barbarian_attack_two_player_foreign_knight_loses_every_throw_off() -> None:
    t = table2()
    barbarians(t, {EAST: 1})
    knight(t, 0, side(t, EAST, 0))
    ext(t).foreign = side(t, EAST, 3)
    t.script("lossdie", 3)
    fought = battles(end_turn(t))[0]
    assert fought.prisoners == (1, 0)
    assert fought.throws == ()  # no throw-off: the seat beats the foreign knight's fixed 3


def neutral_reach(t: Table, neutral: int) -> None:
    """Two roads out from the neutral's start settlement, so a neutral settlement fits."""
    topo = t.state.board.topo
    (start,) = t.state.players[neutral].settlements
    e1 = topo.vertex_edges[start][0]
    middle = next(v for v in topo.edge_vertices[e1] if v != start)
    e2 = next(e for e in topo.vertex_edges[middle] if e != e1)
    t.road(neutral, e1)
    t.road(neutral, e2)


def test_barbarian_attack_two_player_double_landing_for_the_neutral_settlement() -> None:
    t = table2()
    neutral_reach(t, 2)
    t.road(0, side(t, EAST, 0))
    t.give(0, lumber=1, brick=1, wool=1, grain=1)
    events = t.when(BuildSettlement(seat=0, vertex=corner(t, EAST, 1)))
    assert sum(isinstance(e, BarbariansLanded) for e in events) == 1
    owed = next(o for o in pending(t.state)[0].options if isinstance(o, BuildNeutralSettlement))
    events = t.when(owed)
    assert sum(isinstance(e, BarbariansLanded) for e in events) == 1
    assert t.state.phase == MAIN


def test_barbarian_attack_two_player_token_barbarian_moves_one_barbarian() -> None:
    t = table2()
    barbarians(t, {EAST: 1, (0, -2): 3})
    tokens = two(t.state).tokens[0]
    two(t.state).step = 2
    move = MoveBarbarianByTokens(seat=0, source=hx(t, EAST), target=hx(t, (1, 1)))
    assert move in pending(t.state)[0].options
    t.rejects(MoveBarbarianByTokens(seat=0, source=hx(t, EAST), target=hx(t, (0, -2))),
              "barbarian_attack.two_player.token_barbarian")  # conquered: full
    t.rejects(MoveBarbarianByTokens(seat=0, source=hx(t, (2, -1)), target=hx(t, (1, 1))),
              "barbarian_attack.two_player.token_barbarian")  # no barbarian there
    t.when(move)
    a = ext(t)
    assert a.barbarians[hx(t, EAST)] == 0
    assert a.barbarians[hx(t, (1, 1))] == 1
    assert two(t.state).tokens[0] == tokens - 1  # not ahead: 1 token
    t.rejects(MoveBarbarianByTokens(seat=0, source=hx(t, (1, 1)), target=hx(t, EAST)),
              "catan_for_two.token.once_per_turn")


def test_barbarian_attack_two_player_compensation_two_gold_and_a_token_per_knight_lost() -> None:
    t = table2()
    barbarians(t, {EAST: 1})
    for i in (1, 4):
        knight(t, 0, side(t, EAST, i))
    tokens = two(t.state).tokens[0]
    t.script("lossdie", 1)
    events = end_turn(t)
    assert battles(events)[0].gold == (4, 0)
    assert TradeTokensGained(seat=0, tokens=2, reason="knight lost") in events
    assert ext(t).gold[0] == 4
    assert two(t.state).tokens[0] == tokens + 2


def test_barbarian_attack_two_player_no_knight_card_to_discard() -> None:
    t = table2()
    knight(t, 0, side(t, EAST, 0))  # a knight in play is no face-up Knight card
    assert not any(isinstance(o, DiscardKnight) for o in pending(t.state)[0].options)
    t.rejects(DiscardKnight(seat=0), "catan_for_two.knight.none_face_up")


def test_barbarian_attack_two_player_double_landing_a_landing_can_change_the_owed_piece() -> None:
    t = table2()
    c4t = two(t.state)
    # A settlement is owed, but no neutral settlement fits (the neutrals have no roads).
    t.state.phase, c4t.due, c4t.resume = NEUTRAL, "settlement", MAIN
    (changed,) = derive_reconsidered(t.state, SeededDealer(b"x"))
    assert changed == NeutralPieceReconsidered(seat=0, piece="road")
    t.apply(changed)
    assert (t.state.phase, c4t.due) == (NEUTRAL, "road")
    assert all(isinstance(o, BuildNeutralRoad) for o in pending(t.state)[0].options)
    t.apply(NeutralPieceReconsidered(seat=0, piece=None))  # nothing fits any more
    assert (t.state.phase, c4t.due) == (MAIN, "")
    assert derive_reconsidered(t.state, SeededDealer(b"x")) == []
