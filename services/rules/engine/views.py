"""What a seat may see: `view(state, seat)` and `redact(event, seat)` (docs/design.md "Visibility").

A seat sees its own hand and development cards; of the others only counts. A spectator
(seat None) sees counts only; a referee (`referee=True`) sees everything. Hidden information
is a type: another seat's hand is `None` plus a count, never a list with values.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.events import CardStolen, DevelopmentCardBought, Event
from events.prompts import PlayerView, TradeView, View
from events.types import TERRAIN_RESOURCE
from services.rules.engine.base.scoring import public_vp, total_vp
from services.rules.engine.base.sites import pieces_left
from services.rules.engine.board import Board
from services.rules.engine.mapdata import ENGINE_MAPS, load_map
from services.rules.engine.registry import Redactor
from services.rules.engine.state import NO_ONE, State
from services.rules.engine.vocab import BASE_WIDTH


def view(state: State, seat: int | None, referee: bool = False) -> View:
    players = []
    vocab = state.rules.vocab
    kinds = tuple(k for k, kind in vocab.pieces.items() if kind.limit)
    for p in state.players[: state.n]:  # seats; module-owned pieces (neutrals) go in ext
        mine = referee or p.seat == seat
        players.append(
            PlayerView(
                seat=p.seat,
                name=state.names[p.seat],
                cards=p.cards,
                hand=vocab.base_bundle(p.hand) if mine else None,
                dev_cards=sum(p.dev),
                dev_hand={vocab.dev_cards[i]: n for i, n in enumerate(p.dev) if n} if mine else None,
                knights=p.knights,
                public_vp=public_vp(state, p.seat),
                vp=total_vp(state, p.seat) if mine else None,
                roads=sorted(p.roads),
                settlements=sorted(p.settlements),
                cities=sorted(p.cities),
                road_length=p.road_length,
                pieces_left={k: pieces_left(state, p.seat, k) for k in kinds},
            )
        )
    trade = None
    if state.trade is not None:
        t = state.trade
        trade = TradeView(  # the whole terms: any resource, and the currency (a trade is public)
            proposer=t.proposer,
            give=vocab.trade_bundle(t.give),
            get=vocab.trade_bundle(t.get),
            to=list(t.to),
            answers={
                s: a if isinstance(a, str) else {"give": vocab.trade_bundle(a[0]),
                                                 "get": vocab.trade_bundle(a[1])}
                for s, a in t.answers.items()
            },
        )
    # What module views show: any JSON shape a module chooses (modstate.ViewData).
    ext: dict[str, Any] = {
        name: fn(state, None if referee else seat) for name, fn in state.rules.states.view.items()
    }
    if referee:
        for name, secrets in state.rules.states.referee.items():
            ext[name] = {**ext.get(name, {}), **secrets(state)}
    if vocab.width > BASE_WIDTH:  # module resources (oil): beside the base bundles
        ext[RESOURCES] = {
            "bank": vocab.extra(state.bank),
            "hands": {p.seat: vocab.extra(p.hand) for p in state.players[: state.n]
                      if referee or p.seat == seat},
        }
    board = state.board
    if board.special or (board.mapdata is not None and board.mapdata.name != "base"):
        ext[BOARD] = board_ext(board)
    return View(
        game_id=state.game_id,
        seat=seat,
        version=state.version,
        phase=state.phase,
        current=state.current,
        turn=state.turn,
        last_roll=state.last_roll,
        robber=state.robber,
        bank=vocab.base_bundle(state.bank),
        dev_deck=sum(state.deck),
        longest_road=None if state.longest_holder == NO_ONE else state.longest_holder,
        largest_army=None if state.army_holder == NO_ONE else state.army_holder,
        vp_target=state.rules.hooks.win_target(state, state.current if seat is None else seat),
        winner=None if state.winner == NO_ONE else state.winner,
        finished=state.finished,
        players=players,
        trade=trade,
        tiles=state.board.tiles,
        harbors=state.board.harbors,
        ext=ext,
    )


BOARD = "board"  # the view's ext entry for a map beyond the base tiles
RESOURCES = "resources"  # the view's ext entry for module resources (the base five aside)


def board_ext(board: Board) -> dict[str, object]:
    """What a view adds about a scenario's board: its map (centre vertices, paths, numbers,
    features come from the map file), the hexes of module terrains and what they yield."""
    assert board.mapdata is not None
    out: dict[str, object] = {
        "map": board.mapdata.name,
        "special": [list(h) for h in board.special],
        "resources": {t: r for t, r in board.terrain_resource.items() if r >= 0},
    }
    if board.extra_numbers:
        out["extra_numbers"] = [[q, r, n] for (q, r), n in board.extra_numbers]
    if board.deserts != {"desert"}:
        out["deserts"] = sorted(board.deserts)
    return out


def board_of(view: View, packages: tuple[str, ...] = (ENGINE_MAPS,)) -> Board:
    """The board a seat sees (bots): the view's tiles, plus its scenario map if it has one
    (`packages`: where to find the map, e.g. `modules.map_packages()`)."""
    extra = view.ext.get(BOARD)
    if extra is None:
        return Board(view.tiles, view.harbors)
    special = [(int(q), int(r), str(t), int(n)) for q, r, t, n in extra["special"]]
    resources = dict(TERRAIN_RESOURCE) | {str(t): int(r) for t, r in extra["resources"].items()}
    extra_numbers = [((int(q), int(r)), int(n)) for q, r, n in extra.get("extra_numbers", [])]
    deserts = frozenset(str(t) for t in extra.get("deserts", ["desert"]))
    return Board(view.tiles, view.harbors, load_map(extra["map"], packages), special, resources,
                 frozenset({"sea"}), deserts, extra_numbers)


def redact(state: State, event: Event, seat: int | None) -> Event:
    """The event as `seat` may see it (None: a spectator)."""
    fn = state.rules.registry.redactors.get(type(event))
    return fn(event, seat) if fn is not None else event


def redact_stolen(e: CardStolen, seat: int | None) -> Event:
    """A drawn card is seen by thief and victim only; a card the thief chose (`n` < 0: Oil
    Springs' oil, public like all oil held) by everyone."""
    if seat in (e.thief, e.victim) or e.n < 0:
        return e
    return msgspec.structs.replace(e, resource=None)


def redact_bought(e: DevelopmentCardBought, seat: int | None) -> Event:
    if seat == e.seat:
        return e
    return msgspec.structs.replace(e, card=None)


BASE_REDACTORS: dict[type[Event], Redactor] = {
    CardStolen: redact_stolen,
    DevelopmentCardBought: redact_bought,
}
