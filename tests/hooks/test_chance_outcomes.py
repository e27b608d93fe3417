"""`chance_outcomes`: every outcome of a command's chance points with its probability, so a
search bot can enumerate chance (the decider contract)."""

from fractions import Fraction

from events.commands import BuyDevelopmentCard, RollDice
from events.events import DevelopmentCardBought, DiceRolled
from services.rules.engine import chance_outcomes
from services.rules.engine.testing import Table


def test_a_roll_has_36_equally_likely_outcomes() -> None:
    t = Table()
    t.turn_of(0, rolled=False)
    outcomes = chance_outcomes(t.state, RollDice(seat=0))
    assert len(outcomes) == 36
    assert sum(p for p, _ in outcomes) == 1
    faces = {(e[0].d1, e[0].d2) for _, e in outcomes if isinstance(e[0], DiceRolled)}
    assert len(faces) == 36


def test_a_card_draw_follows_the_deck() -> None:
    t = Table()
    t.turn_of(0)
    t.give(0, wool=1, grain=1, ore=1)
    outcomes = chance_outcomes(t.state, BuyDevelopmentCard(seat=0))
    by_card = {e[0].card: p for p, e in outcomes if isinstance(e[0], DevelopmentCardBought)}
    assert by_card["knight"] == Fraction(14, 25)
    assert sum(by_card.values()) == 1
