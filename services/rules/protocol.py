"""Moved to services/protocol.py (shared by the rules service and the bots): kept only while
code still imports it from here."""

from services.protocol import *  # noqa: F403
