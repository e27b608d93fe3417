"""The credentials of the games `hexlog play` created, kept for their creator.

Why: a live game hides the seats' hands; seeing one (`hexlog replay GAME --as 2`) or the
referee's view (`--as referee`, `hexlog audit GAME`, `hexlog export GAME`) needs that seat's
or the referee's credential, which only the game's creator ever receives. `play` keeps them in
`<data dir>/credentials/<game>.json`, readable by the same OS user only (mode 0600 in a 0700
folder), and the replay commands look there when no `--credential` is given.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

FOLDER = "credentials"
PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:-]{0,100}")


def path_of(root: Path, game_id: str) -> Path:
    """The game id is the file name when it is a plain one (a game id may hold `/`)."""
    name = game_id if PLAIN.fullmatch(game_id) else hashlib.sha256(game_id.encode()).hexdigest()
    return root / FOLDER / f"{name}.json"


def save(root: Path, game_id: str, seats: list[str], referee: str) -> Path:
    folder = root / FOLDER
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = path_of(root, game_id)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"game_id": game_id, "seats": seats, "referee": referee}, f)
        f.write("\n")
    return path


def lookup(root: Path, game_id: str, seat: int | None, referee: bool) -> str:
    """The saved credential of `seat` (or the referee) in `game_id`, or "" if none is kept."""
    try:
        saved = json.loads(path_of(root, game_id).read_text(encoding="utf-8"))
        if referee:
            return str(saved["referee"])
        return str(saved["seats"][seat]) if seat is not None and seat >= 0 else ""
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return ""
