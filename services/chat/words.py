"""A few lines of the game for the room, from the spectator's events (JSON as the gateway
streams them): who rolled what, who built where, who won. The board picture says the rest."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def said(event: Json, names: list[str]) -> str:
    """One line for a public event, '' for events the room need not read."""
    t = event.get("type", "")

    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if t == "DiceRolled":
        return f"🎲 {who()} rolled {int(event.get('d1', 0)) + int(event.get('d2', 0))}"
    if t in ("SettlementBuilt", "CityBuilt"):
        return f"🏠 {who()} built a {t[:-5].lower()} on {event.get('vertex')}"
    if t == "RobberMoved":
        return f"🦹 {who()} moved the robber to hex {event.get('hex')}"
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
