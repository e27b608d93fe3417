"""Replays, audits and archives of games (DESIGN.md "Undo, audit, contest")."""
