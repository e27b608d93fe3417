"""A seat's observation holds nothing of another seat's hand: change the hidden cards of the
other seats (which resources and which development cards they hold, their counts kept) and the
seat's vector stays the same, for the base game and every module; change the seat's own hand
and it changes (so the comparison can fail)."""

from __future__ import annotations

import numpy as np
import pytest
from rl_cases import CASES, IDS, Case

from bots.env.match import Match, Setup
from bots.random_bot import RandomBot


def midgame(case: Case) -> Match:
    """A game played by random bots until every other seat holds cards of two kinds or more
    (or 60 turns)."""
    setup = Setup(case.config())
    match = Match(setup, b"hidden:" + case.id.encode())
    bots = [RandomBot(s) for s in range(case.seats)]
    state = match.state
    while not match.finished:
        assert match.prompt is not None
        if state.turn > 8 and match.prompt.stage == "main" and all(
                sum(1 for k in p.hand[:5] if k) >= 2 for p in state.players[1:case.seats]):
            return match
        match.play(bots[match.prompt.seat].choose(None, match.prompt))
        if state.turn > 60 and match.prompt is not None and match.prompt.stage == "main":
            return match
    raise AssertionError("the game ended before the position was reached")


def shuffle_hidden(match: Match, seat: int) -> None:
    """Another deal of `seat`'s cards: the same number of resource cards and of development
    cards, of other kinds."""
    p = match.state.players[seat]
    total = sum(p.hand[:5])
    p.hand[:5] = [0, 0, 0, 0, 0]
    p.hand[seat % 5] = total  # all of one kind: a hand it held before only by chance
    cards = sum(p.dev)
    p.dev[:] = [0] * len(p.dev)
    p.dev[2] = cards  # road building cards: no public trace of which kind a card is


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_other_seats_hidden_cards_leave_a_seats_observation_unchanged(case: Case) -> None:
    match = midgame(case)
    me = 0
    acting = match.prompt is not None and match.prompt.seat == me
    before, mask_before = match.observe(me, acting)
    for other in range(1, case.seats):
        shuffle_hidden(match, other)
    match.decision = None  # the same prompt, asked again
    after, mask_after = match.observe(me, acting)
    assert np.array_equal(before, after)
    assert np.array_equal(mask_before, mask_after)
    own = match.state.players[me]
    own.hand[:5] = [own.hand[4] + 1, *own.hand[:4]]  # one card more, kinds moved round
    changed, _ = match.observe(me, acting)
    assert not np.array_equal(before, changed)
