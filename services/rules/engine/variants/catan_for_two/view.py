"""What views show of Catan for Two: the trade tokens, their price for each seat, the two rolls
and the neutral players' pieces (all public)."""

from __future__ import annotations

from services.rules.engine.state import State
from services.rules.engine.variants.catan_for_two.common import neutrals, two
from services.rules.engine.variants.catan_for_two.tokens import price


def view_ext(state: State, seat: int | None) -> dict[str, object]:
    t = two(state)
    return {
        "tokens": list(t.tokens),
        "supply": t.supply,
        "token_price": [price(state, s) for s in range(state.n)],
        "token_action_used": t.action_used,
        "knight_discarded": t.knight_used,
        "roll": t.step,
        "first_roll": t.first,
        "neutral_build": t.due or None,
        "neutrals": [
            {
                "id": k,
                "roads": sorted(state.players[k].roads),
                "settlements": sorted(state.players[k].settlements),
                "road_length": state.players[k].road_length,
            }
            for k in neutrals(state)
        ],
    }
