"""A sealed choice leaves no trace (docs/rules/chance-and-hidden-information.md §14.8): two
votes that differ only in what one voter named look the same, event for event and view for view,
to every other seat and to a spectator, until the vote is revealed; the prompts of the others
are the same too."""

from __future__ import annotations

import msgspec
from caravans_kit import NORTH, SOUTH_EAST, SOUTH_WEST, bid_all, name, open_vote, start, table

from events.caravans import CamelVoteDecided
from services.rules.engine import pending, redact, view
from services.rules.engine.testing import Table


def sealed(choice: int) -> tuple[Table, list[bytes]]:
    t = table()
    open_vote(t)
    bid_all(t, (1, 0), (1, 0), (1, 0))
    arrow = (SOUTH_EAST, SOUTH_WEST)[choice]
    events = name(t, 1, arrow, start(t, arrow))
    return t, [msgspec.json.encode(e) for e in events]


def test_caravans_vote_sealed_choice_leaves_no_trace_for_others() -> None:
    a, _ = sealed(0)
    b, _ = sealed(1)
    last_a, last_b = a.log[-1], b.log[-1]
    assert last_a != last_b  # the voter's own record differs
    for seat in (0, 2, None):
        assert redact(a.state, last_a, seat) == redact(b.state, last_b, seat)
        assert view(a.state, seat) == view(b.state, seat)
    for pa, pb in zip(pending(a.state), pending(b.state), strict=True):
        assert pa == pb  # seats 0 and 2 still to name: the same prompts
    assert view(a.state, 1) != view(b.state, 1)  # the voter sees its own choice
    revealed = []
    for t in (a, b):
        name(t, 0, NORTH, start(t, NORTH))
        events = name(t, 2, NORTH, start(t, NORTH))
        decided = next(e for e in events if isinstance(e, CamelVoteDecided))
        revealed.append(redact(t.state, decided, None))
    # Once all have named, the reveal shows every choice to everyone, the spectator included.
    assert revealed[0].choices[2:4] == (SOUTH_EAST, start(a, SOUTH_EAST))
    assert revealed[1].choices[2:4] == (SOUTH_WEST, start(b, SOUTH_WEST))
