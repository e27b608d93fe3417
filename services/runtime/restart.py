"""`hexlog up` starts its embedded Valkey again when the server dies under it.

Killed by the kernel's OOM killer, by a stray `kill`, or crashed: the services would retry
their connections for ever against a socket nobody serves, and nothing would say why. The
supervisor asks this every poll; a dead server is started again on the same data dir (its AOF
brings back every acknowledged write under `appendfsync always`), socket and password, and the
users this command made (ACL users live in memory only) are made again with the same passwords,
so the services reconnect with the URLs they hold. A server that dies again soon after, or
that cannot be started, ends `up` with the reason and the server's log (`ServerLost`): starting
it in a loop would only hide the cause.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from services.runtime.processes import ServerLost
from services.runtime.users import EmbeddedUsers
from services.runtime.valkey import EmbeddedValkey

# A server that dies again this soon after a restart is not restarted (`hexlog up --help`
# says "within a minute").
GIVE_UP_WITHIN_S = 60.0


@dataclass
class StartAgain:
    """`Server.revive` for the single embedded server a command started (shared.py)."""

    server: EmbeddedValkey
    users: EmbeddedUsers
    started: float = field(default_factory=time.monotonic)
    restarts: int = 0

    def __call__(self) -> list[str]:
        if not self.server.died():
            return []
        ran = time.monotonic() - self.started
        log = self.server.log_path
        if self.restarts and ran < GIVE_UP_WITHIN_S:
            raise ServerLost(f"the embedded Valkey stopped again {ran:.0f} s after it was "
                             f"started again: not starting it a third time; its log: {log}")
        try:
            ended = self.server.start_again()
            made = self.users.make_again()
        except Exception as exc:
            raise ServerLost(f"the embedded Valkey stopped and could not be started again "
                             f"({exc}); its log: {log}") from exc
        self.started = time.monotonic()
        self.restarts += 1
        kept = ("every acknowledged write is back" if self.server.appendfsync == "always"
                else f"appendfsync {self.server.appendfsync}: the last second of writes may "
                     "be lost")
        return [f"the embedded Valkey stopped ({ended or 'how: unknown'}) after {ran:.0f} s"
                f"; started again from its AOF in {self.server.data_dir} "
                f"({kept}), with its {made} users: the services reconnect (its log: {log})"]
