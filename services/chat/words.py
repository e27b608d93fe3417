"""A few lines of the game for the room, from the spectator's events (JSON as the gateway
streams them): who rolled what, who built where, who won. The board picture says the rest.
Places are named as everywhere else (services/render/places.py): words a player knows and
the label the pictures draw."""

from __future__ import annotations

from typing import Any

import msgspec

from events.prompts import View
from services.render.places import Places
from services.rules.engine.modules import map_packages
from services.rules.engine.views import board_of

Json = dict[str, Any]


def places_of(view: Json) -> Places | None:
    """The game's places, from a view as the gateway streams it (None if it holds no board)."""
    try:
        seen = msgspec.convert(view, View)
        return Places(board_of(seen, map_packages()))
    except (msgspec.ValidationError, KeyError, ValueError, TypeError):
        return None


def said(event: Json, names: list[str], places: Places | None = None) -> str:
    """One line for a public event, '' for events the room need not read."""
    t = event.get("type", "")

    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if t == "DiceRolled":
        return f"🎲 {who()} rolled {int(event.get('d1', 0)) + int(event.get('d2', 0))}"
    if t in ("SettlementBuilt", "CityBuilt"):
        where = event.get("vertex")
        named = places.vertex(where) if places is not None and isinstance(where, int) else "a corner"
        return f"🏠 {who()} built a {t[:-5].lower()} on {named}"
    if t == "RobberMoved":
        where = event.get("hex")
        named = places.hex(where) if places is not None and isinstance(where, int) else "a hex"
        return f"🦹 {who()} moved the robber to {named}"
    if t == "SeatForfeited":
        return f"🚪 {who()} left; their seat plays default moves"
    if t == "RulingReviewed":
        return f"⚖️ the ruling on {event.get('command_id')} is {event.get('verdict')}"
    if t == "GameFinished":
        winner = event.get("winner")
        scores = event.get("scores") or []
        if isinstance(winner, int) and 0 <= winner < len(names):
            vp = scores[winner] if winner < len(scores) else "?"
            return f"🏆 {names[winner]} wins with {vp} VP ({event.get('reason')})"
        return f"🏁 the game ended without a winner ({event.get('reason')})"
    return ""


def hand_text(view: Json, seat: int) -> str:
    me = view["players"][seat]
    hand = me.get("hand") or {}
    cards = ", ".join(f"{n} {r}" for r, n in sorted(hand.items()) if n) or "no cards"
    dev = me.get("dev_hand") or {}
    devs = ", ".join(f"{n} {d}" for d, n in sorted(dev.items()) if n) or "none"
    return f"✋ Your hand: {cards} · development cards: {devs} · VP: {me.get('vp')}"
