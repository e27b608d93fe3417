"""The heuristic bot's advice: nothing to add (the base bot builds settlements anyway, and
coastal corners are most of the board). A module with stages of its own answers them here."""

from __future__ import annotations

from services.rules.engine.advice import Advice

ADVICE = Advice()
