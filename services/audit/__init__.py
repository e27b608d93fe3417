"""Replays, audits and archives of games (docs/design.md "Undo, audit, contest")."""
