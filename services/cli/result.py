"""What `hexlog play` reports about a finished game: who won, and VP that add up.

A seat's VP are its settlements (1 each), cities (2 each), awards (Longest Road and Largest
Army, 2 each), victory-point cards (hidden during the game, public once it is over) and what
modules add (the Harbormaster card's 2). The table shows each part, so the columns sum to the
VP column; `--json` gives the same numbers, with the revealed seed and the modules, so the
game can be played again (`--seed`) or audited.
"""

from __future__ import annotations

from typing import Any

from services.rules.engine import view
from services.rules.engine.modules import MODULES
from services.rules.engine.state import State

AWARD_VP = 2


def ended(state: State, reason: str, forfeited: frozenset[int] = frozenset()) -> str:
    """Why the game ended, in the words of the module that ended it."""
    if reason == "victory" and state.winner >= 0:
        return "won"
    for spec in state.rules.modules:
        words = MODULES[spec.name].end_reasons.get(reason) if spec.name in MODULES else None
        if words is not None:
            return words(state)
    if reason == "turn_limit":
        everyone = len(forfeited) == state.n
        return (f"no winner: the turn limit ({state.turn_limit} turns) was reached"
                + ("; every seat had forfeited, and the service played their default moves"
                   if everyone else ""))
    return f"no winner ({reason.replace('_', ' ')})"


def summary(state: State, events: int, game_id: str, bots: list[str],
            seed: str, reason: str = "victory", forfeited: frozenset[int] = frozenset(),
            refused: list[tuple[int, str]] | None = None) -> dict[str, Any]:
    """The result of a finished game; `refused`: per seat, how many of its answers were
    refused and the first reason (services/rules/refusals.py)."""
    seen = view(state, None, referee=True)  # the game is over: nothing is hidden any more
    vocab = state.rules.vocab
    point_cards = [vocab.dev_cards[i] for i in vocab.point_cards]
    harbor = seen.ext.get("harbormaster") or {}
    winner = seen.winner
    players = []
    for p in seen.players:
        awards = [name for name, holder in (("longest road", seen.longest_road),
                                            ("largest army", seen.largest_army)) if holder == p.seat]
        vp_cards = sum((p.dev_hand or {}).get(name, 0) for name in point_cards)
        total = p.vp if p.vp is not None else p.public_vp
        module_vp = total - len(p.settlements) - 2 * len(p.cities) - AWARD_VP * len(awards) - vp_cards
        if harbor.get("holder") == p.seat:
            awards.append("harbormaster")
        players.append({
            "seat": p.seat, "bot": bots[p.seat], "vp": total, "settlements": len(p.settlements),
            "cities": len(p.cities), "roads": len(p.roads), "knights": p.knights,
            "vp_cards": vp_cards, "module_vp": module_vp, "awards": awards,
            "harbor_points": harbor["points"][p.seat] if harbor else None,
            "longest_road": seen.longest_road == p.seat, "largest_army": seen.largest_army == p.seat,
            "refused": refused[p.seat][0] if refused else 0,
            "first_refusal": refused[p.seat][1] if refused else "",
        })
    return {
        "game_id": game_id,
        "winner": winner,
        "winner_bot": None if winner is None else bots[winner],
        "reason": reason,
        "ended": ended(state, reason, forfeited),
        "forfeited": sorted(forfeited),
        "scores": [p["vp"] for p in players],
        "bots": bots,
        "ruleset": state.rules.name,
        "modules": [{"name": m.name, "params": dict(m.params)} for m in state.rules.modules],
        "seed": seed,
        "vp_target": seen.vp_target,
        "events": events,
        "turns": state.turn,
        "players": players,
    }


def rules_text(result: dict[str, Any]) -> str:
    """`base + harbormaster, victory-points (target=12)`."""
    parts = []
    for m in result["modules"]:
        params = ", ".join(f"{k}={v}" for k, v in m["params"].items())
        parts.append(f"{m['name']} ({params})" if params else m["name"])
    return str(result["ruleset"]) + (" + " + ", ".join(parts) if parts else " (no variants)")


def format_result(r: dict[str, Any]) -> str:
    """The result as text: a header, then a table whose parts add up to each seat's VP."""
    from services.render.tables import render_table

    if r["winner"] is None:
        outcome = r["ended"]
    else:
        outcome = f"winner: seat {r['winner']} ({r['winner_bot']}) with {r['scores'][r['winner']]} VP"
    harbor = any(p["harbor_points"] is not None for p in r["players"])
    # A module's VP (the Harbormaster, a scenario's bonuses and penalties) get a column when
    # any seat has some, so that the row still adds up.
    module = harbor or any(p["module_vp"] for p in r["players"])
    columns = ["seat", "bot", "VP", "settl.", "cities", "awards", "VP cards"]
    columns += ["module VP"] if module else []
    columns += ["harbor pts"] if harbor else []
    columns += ["roads", "knights"]
    rows = []
    for p in r["players"]:
        row = [p["seat"], p["bot"], p["vp"], p["settlements"], p["cities"],
               ", ".join(p["awards"]) or "-", p["vp_cards"]]
        row += [p["module_vp"]] if module else []
        row += [p["harbor_points"]] if harbor else []
        row += [p["roads"], p["knights"]]
        rows.append([str(x) for x in row])
    refusals = [f"seat {p['seat']} ({p['bot']}): {p['refused']} answer(s) refused, the first: "
                f"{p['first_refusal']}" for p in r["players"] if p.get("refused")]
    note = ("VP = settlements + 2 x cities + 2 per award (longest road, largest army)"
            + (" + module VP (harbormaster 2)" if harbor else " + module VP" if module else "")
            + " + VP cards")
    return "\n".join([
        f"game {r['game_id']}: {r['events']} events, {r['turns']} turns",
        f"rules: {rules_text(r)}; play to {r['vp_target']} VP",
        outcome,
        "",
        render_table(columns, rows, right={"seat", "VP", "settl.", "cities", "VP cards",
                                           "module VP", "harbor pts", "roads", "knights"}),
        note,
        *refusals,
        f"seed: {r['seed']} (revealed: `hexlog audit {r['game_id']}` checks every die against "
        "it; `hexlog play --seed` with it deals the same board and dice again)",
    ])
