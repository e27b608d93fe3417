"""Traders & Barbarians' events in plain words (the renderer asks `Module.narration`): the
wagon's steps with their tolls, barbarians and their drive-off throws, and a development card
bought (named only for its buyer)."""

from __future__ import annotations

from events.events import Event
from events.traders_and_barbarians import (
    BarbarianDriveOffTried,
    BarbarianMovedOnPath,
    TraderCardBought,
    WagonMoved,
)
from services.rules.engine.narration import Narrator, Places, load_templates, narrator

BECAUSE = {"seven": "for the 7", "knight": "with a Knight", "drive_off": "after driving it off"}


def place(at: Places, v: int) -> str:
    """A vertex by name (the renderer names a plaza, a hex's centre, as the plaza of its
    hex)."""
    return at.vertex(v)


def _moved(e: WagonMoved, at: Places) -> str:
    toll = "" if e.toll_to is None else f", paying {e.toll} gold toll to {at.who(e.toll_to)}"
    return (f"{at.who(e.seat)}'s wagon travels along {at.edge(e.edge)} to {place(at, e.vertex)} "
            f"({e.mp} MP{toll})")


def _tried(e: BarbarianDriveOffTried, at: Places) -> str:
    outcome = "drives it off" if e.success else "it stays"
    return (f"{at.who(e.seat)}'s wagon tries to drive off barbarian {e.barbarian + 1}: "
            f"throws a {e.die}, {outcome}")


def _barbarian(e: BarbarianMovedOnPath, at: Places) -> str:
    robbed = "" if e.victim is None else f", on a road of {at.who(e.victim)}"
    return (f"{at.who(e.seat)} moves barbarian {e.barbarian + 1} to {at.edge(e.edge)} "
            f"{BECAUSE[e.cause]}{robbed}")


def _bought(e: TraderCardBought, at: Places) -> str:
    what = "" if e.card is None else f" ({e.card.replace('_', ' ')})"
    return f"{at.who(e.seat)} buys a development card{what}"


NARRATION: dict[type[Event], Narrator] = load_templates(__name__.rpartition(".")[0],
                                                       "narration.toml") | dict([
    narrator(WagonMoved, _moved),
    narrator(BarbarianDriveOffTried, _tried),
    narrator(BarbarianMovedOnPath, _barbarian),
    narrator(TraderCardBought, _bought),
])
