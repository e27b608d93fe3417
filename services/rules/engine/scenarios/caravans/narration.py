"""The Caravans' events in words (`hexlog replay`)."""

from __future__ import annotations

from events.caravans import (
    CamelBidMade,
    CamelPathNamed,
    CamelPlaced,
    CamelVoteDecided,
    CamelVoteOpened,
)
from events.events import Event
from services.rules.engine.narration import Narrator, Places, narrator
from services.rules.engine.scenarios.caravans.common import pairs

CARAVAN_NAMES = ("north", "south-east", "south-west")
RULES = {
    "caravans.vote.majority": "a majority",
    "caravans.vote.coalition": "a coalition",
    "caravans.vote.plurality": "the most votes",
}


def caravan(c: int) -> str:
    return f"the {CARAVAN_NAMES[c]} caravan" if 0 <= c < len(CARAVAN_NAMES) else "a caravan"


def opened(e: CamelVoteOpened, at: Places) -> str:
    return (f"{at.who(e.seat)} built this turn: the table votes on the next camel "
            f"({len(e.options) // 2} possible placements)")


def bid(e: CamelBidMade, at: Places) -> str:
    if not e.wool and not e.grain:
        return f"{at.who(e.seat)} bids nothing"
    return (f"{at.who(e.seat)} bids {e.wool} wool and {e.grain} grain "
            f"({e.wool + e.grain} votes; the cards go to the bank)")


def named(e: CamelPathNamed, at: Places) -> str:
    if e.caravan is None or e.edge is None:
        return f"{at.who(e.seat)} names a placement (sealed)"
    return f"{at.who(e.seat)} names {caravan(e.caravan)} at {at.edge(e.edge)} (sealed)"


def decided(e: CamelVoteDecided, at: Places) -> str:
    wishes = [f"{at.who(s)} {caravan(c)} at {at.edge(edge)} ({e.votes[s]} votes)"
              for s, (c, edge) in enumerate(pairs(e.choices)) if c >= 0]
    how = RULES.get(e.rule, e.rule)
    who = "bidders together" if e.decider is None else at.who(e.decider)
    text = (f"The vote is revealed: {'; '.join(wishes)}. By {how}, {who} decide(s): "
            f"{caravan(e.caravan)} at {at.edge(e.edge)}")
    if e.second is not None:
        text += f"; {at.who(e.second)} places the second camel"
    return text


def placed(e: CamelPlaced, at: Places) -> str:
    text = f"A camel joins {caravan(e.caravan)} at {at.edge(e.edge)}"
    if e.merged is not None:
        text += f", which merges with {caravan(e.merged)}"
    return text


NARRATION: dict[type[Event], Narrator] = dict([
    narrator(CamelVoteOpened, opened),
    narrator(CamelBidMade, bid),
    narrator(CamelPathNamed, named),
    narrator(CamelVoteDecided, decided),
    narrator(CamelPlaced, placed),
])
