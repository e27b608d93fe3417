"""`hexlog up --matrix --homeserver local`: the chat adapter tried without a homeserver of
one's own. `up` runs its services inside `local_homeserver`, which starts a throwaway Synapse
(local_synapse.py) in `<data dir>/synapse/`, points the adapter at it (`--homeserver`,
`--matrix-user`, the bot's token in the environment its children inherit), tells the user how
to log in and where to play, says when the bot has joined the room, and stops Synapse when the
block ends (after `up` has stopped the adapter)."""

from __future__ import annotations

import argparse
import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

LOCAL = "local"  # the --homeserver value that asks for this


def wants_local(args: argparse.Namespace) -> bool:
    return bool(args.matrix) and args.homeserver == LOCAL


@contextlib.contextmanager
def local_homeserver(args: argparse.Namespace, data_dir: Path,
                     say: Callable[[str], None]) -> Iterator[None]:
    """For the block, a local Synapse that `args` (the adapter's options) point at; nothing
    when `args` do not ask for one."""
    if not wants_local(args):
        yield
        return
    from services.chat.local_synapse import local_matrix

    root = data_dir / "synapse"
    say(f"starting a throwaway Matrix homeserver (Synapse) in {root}; it takes a minute")
    with local_matrix(root) as matrix:
        args.homeserver, args.matrix_user = matrix.url, matrix.bot
        os.environ["MATRIX_TOKEN"] = matrix.bot_token  # the adapter, a child, inherits it
        os.environ.pop("MATRIX_PASSWORD", None)
        for line in matrix.how_to_play():
            say(line)
        threading.Thread(target=matrix.wait_for_bot, args=(say,), daemon=True).start()
        try:
            yield
        finally:
            say("stopping the Matrix homeserver")
