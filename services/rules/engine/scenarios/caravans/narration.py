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


def votes(n: int) -> str:
    return f"{n} vote" if n == 1 else f"{n} votes"


def caravan(c: int) -> str:
    return f"the {CARAVAN_NAMES[c]} caravan" if 0 <= c < len(CARAVAN_NAMES) else "a caravan"


def opened(e: CamelVoteOpened, at: Places) -> str:
    return (f"{at.who(e.seat)} built this turn: the table votes on the next camel "
            f"({len(e.options) // 2} possible placements)")


def bid(e: CamelBidMade, at: Places) -> str:
    if not e.wool and not e.grain:
        return f"{at.who(e.seat)} bids nothing"
    return (f"{at.who(e.seat)} bids {e.wool} wool and {e.grain} grain "
            f"({votes(e.wool + e.grain)}; the cards go to the bank)")


def named(e: CamelPathNamed, at: Places) -> str:
    if e.caravan is None or e.edge is None:
        return f"{at.who(e.seat)} names a placement (sealed)"
    return f"{at.who(e.seat)} names {caravan(e.caravan)} at {at.edge(e.edge)} (sealed)"


def decided(e: CamelVoteDecided, at: Places) -> str:
    wishes = [f"{at.who(s)} wants {caravan(c)} at {at.edge(edge)} ({votes(e.votes[s])})"
              for s, (c, edge) in enumerate(pairs(e.choices)) if c >= 0]
    top = max(e.votes)
    if e.decider is None:
        how = "a coalition of bidders decides"
    elif e.rule == "caravans.vote.majority":
        how = f"{at.who(e.decider)} has a majority and decides"
    elif top > 0 and e.votes.count(top) == 1:
        how = f"{at.who(e.decider)} has the most votes and decides"
    else:
        how = f"no single top bidder: {at.who(e.decider)}, the active player, decides"
    text = (f"The vote is revealed: {'; '.join(wishes)}. {how[0].upper()}{how[1:]}: "
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
