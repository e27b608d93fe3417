"""A throwaway Matrix homeserver on this machine, to try the chat adapter without one of your
own (`hexlog up --matrix --homeserver local`) and for the tests: Synapse (pip
`matrix-synapse`, the `chat-local` extra) with a fresh SQLite database, listening on
127.0.0.1 only, federation off and its rate limits raised (every client is local).

Users are registered through Synapse's admin API with the shared secret (HMAC-SHA1 of
`nonce\\0user\\0password\\0admin|notadmin`), which answers an access token. `local_matrix` makes
what a try-out needs: the bot's account, one player's account with a password to type into a
Matrix client, and a room `#catan:localhost` with the player in it and the bot invited (the
adapter joins the rooms it is invited to).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from services.runtime.die_with_parent import DIE_WITH

SERVER_NAME = "localhost"
PORT = 8008  # Synapse's usual port, when it is free
ROOM_ALIAS = "catan"
HIGH = {"per_second": 1000, "burst_count": 1000}
EXTRA = "pip install 'hexlog[chat-local]'"


class SynapseError(RuntimeError):
    """Synapse did not start, or refused what was asked of it; the text says why."""


NEEDED = {"synapse": "matrix-synapse", "yaml": "pyyaml", "nio": "matrix-nio", "httpx": "httpx"}


def missing() -> str:
    """Why a local homeserver cannot start here ('' when it can): checked before this module's
    users import anything of Synapse's."""
    absent = [name for module, name in NEEDED.items() if not installed(module)]
    return f"--homeserver local needs {', '.join(absent)}: {EXTRA}" if absent else ""


def installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken install is none
        return False


def free_port(preferred: int = 0) -> int:
    """`preferred` when it is free on 127.0.0.1, else a port the system picks."""
    for port in ((preferred, 0) if preferred else (0,)):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise SynapseError("no free TCP port on 127.0.0.1")


@dataclass
class Synapse:
    url: str
    secret: str
    proc: subprocess.Popen[bytes]
    log: Path

    def register(self, user: str, password: str, admin: bool = False) -> dict[str, Any]:
        """Register `user` (localpart); the answer holds `user_id` and `access_token`."""
        import httpx

        nonce = httpx.get(f"{self.url}/_synapse/admin/v1/register", timeout=10).json()["nonce"]
        mac = hmac.new(self.secret.encode(), digestmod=hashlib.sha1)
        mac.update(b"\x00".join([nonce.encode(), user.encode(), password.encode(),
                                 b"admin" if admin else b"notadmin"]))
        r = httpx.post(f"{self.url}/_synapse/admin/v1/register", timeout=30,
                       json={"nonce": nonce, "username": user, "password": password,
                             "admin": admin, "mac": mac.hexdigest()})
        if r.status_code != 200:
            raise SynapseError(f"registering {user}: {r.status_code} {r.text[:300]}")
        answer: dict[str, Any] = r.json()
        return answer

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# Synapse's own entry point, run after asking to stop when the process that started it dies
# (`die_with_parent`): a `hexlog up --homeserver local` killed with kill -9 left its Synapse
# running for good, on a port and a folder nobody looks at again. Call from the main thread.
DYING_HOMESERVER = (
    "import runpy, sys; from services.runtime.die_with_parent import die_with_parent; "
    "die_with_parent(); sys.argv[0] = 'synapse.app.homeserver'; "
    "runpy.run_module('synapse.app.homeserver', run_name='__main__', alter_sys=True)"
)


def start_synapse(root: Path, port: int, timeout: float = 120.0) -> Synapse:
    """Synapse on 127.0.0.1:`port` with its config and data in `root` (made if need be)."""
    import httpx
    import yaml  # type: ignore[import-untyped]  # (Synapse brings it; no stubs here)

    root.mkdir(parents=True, exist_ok=True)
    config = root / "homeserver.yaml"
    made = subprocess.run([sys.executable, "-m", "synapse.app.homeserver", "--server-name",
                           SERVER_NAME, "--config-path", str(config), "--data-directory",
                           str(root), "--generate-config", "--report-stats=no"],
                          cwd=root, capture_output=True, check=False)
    if made.returncode != 0:
        raise SynapseError(f"synapse could not write its config: {made.stderr.decode()[-500:]}")
    cfg = yaml.safe_load(config.read_text())
    cfg["listeners"] = [{"port": port, "tls": False, "type": "http", "x_forwarded": False,
                         "bind_addresses": ["127.0.0.1"],
                         "resources": [{"names": ["client"], "compress": False}]}]
    cfg["trusted_key_servers"] = []
    cfg["suppress_key_server_warning"] = True
    cfg["federation_domain_whitelist"] = []
    cfg["report_stats"] = False
    for key in ("rc_message", "rc_registration", "rc_admin_redaction", "rc_3pid_validation"):
        cfg[key] = HIGH
    cfg["rc_login"] = {"address": HIGH, "account": HIGH, "failed_attempts": HIGH}
    cfg["rc_joins"] = {"local": HIGH, "remote": HIGH}
    cfg["rc_invites"] = {"per_room": HIGH, "per_user": HIGH, "per_issuer": HIGH}
    cfg["log_config"] = str(write_log_config(root))
    config.write_text(yaml.safe_dump(cfg))
    log = root / "synapse.out"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", DYING_HOMESERVER, "-c", str(config)],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=root,
            start_new_session=True,  # stopped by whoever started it, after the adapter
            env={**os.environ, "SYNAPSE_ASYNC_IO_REACTOR": "0", DIE_WITH: str(os.getpid())})
    url = f"http://127.0.0.1:{port}"
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if proc.poll() is not None:
            raise SynapseError(f"synapse exited:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return Synapse(url, str(cfg["registration_shared_secret"]), proc, log)
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    proc.wait(5)
    raise SynapseError(f"synapse did not answer in {timeout:g} s:\n{log.read_text()[-3000:]}")


def write_log_config(root: Path) -> Path:
    import yaml  # type: ignore[import-untyped]  # (Synapse brings it; no stubs here)

    path = root / "log.yaml"
    path.write_text(yaml.safe_dump({
        "version": 1,
        "formatters": {"plain": {"format": "%(asctime)s %(name)s %(levelname)s %(message)s"}},
        "handlers": {"file": {"class": "logging.FileHandler", "formatter": "plain",
                              "filename": str(root / "synapse.log")}},
        "root": {"level": "WARNING", "handlers": ["file"]},
        "disable_existing_loggers": False,
    }))
    return path


@dataclass
class LocalMatrix:
    """What a try-out gets: the homeserver, the bot's account, a player's, and the room."""

    synapse: Synapse
    bot: str  # the bot's user id
    bot_token: str
    player: str  # the player's user id
    password: str
    room: str  # the room's alias
    room_id: str
    player_token: str

    @property
    def url(self) -> str:
        return self.synapse.url

    def how_to_play(self) -> list[str]:
        """What to tell the user: where to log in, as whom, and where to play."""
        return [f"Matrix homeserver (local, throwaway: made anew each time): {self.url}",
                f"log in with a Matrix client (Element, or any other): homeserver {self.url}, "
                f"user {self.player}, password {self.password}",
                f"room: {self.room} (you are in it; the bot {self.bot} is invited)"]

    def bot_joined(self) -> bool:
        """Whether the bot has joined the room (the adapter is up and listening)."""
        import httpx

        try:
            r = httpx.get(f"{self.url}/_matrix/client/v3/rooms/{quote(self.room_id)}"
                          "/joined_members", timeout=5,
                          headers={"Authorization": f"Bearer {self.player_token}"})
        except httpx.HTTPError:
            return False
        return r.status_code == 200 and self.bot in r.json().get("joined", {})

    def wait_for_bot(self, say: Callable[[str], None], timeout: float = 600.0) -> None:
        """Say that the room is ready once the bot has joined it (for a thread of `up`)."""
        until = time.monotonic() + timeout
        while time.monotonic() < until and self.synapse.proc.poll() is None:
            if self.bot_joined():
                say(f"the bot {self.bot} is in {self.room}: send `!catan new` there "
                    "(`!catan help` lists the commands)")
                return
            time.sleep(0.5)


def make_room(synapse: Synapse, token: str, invite: str) -> tuple[str, str]:
    """A public room `#catan:localhost` made by the holder of `token`, `invite` invited; its
    alias and id."""
    import httpx

    r = httpx.post(f"{synapse.url}/_matrix/client/v3/createRoom", timeout=30,
                   headers={"Authorization": f"Bearer {token}"},
                   json={"name": "catan", "room_alias_name": ROOM_ALIAS,
                         "preset": "public_chat", "invite": [invite]})
    if r.status_code != 200:
        raise SynapseError(f"making the room: {r.status_code} {r.text[:300]}")
    return f"#{ROOM_ALIAS}:{SERVER_NAME}", str(r.json()["room_id"])


@contextlib.contextmanager
def local_matrix(root: Path, port: int = PORT) -> Iterator[LocalMatrix]:
    """A fresh Synapse in `root` (what was there is removed) with the try-out's accounts and
    room; stopped when the block ends."""
    shutil.rmtree(root, ignore_errors=True)
    synapse = start_synapse(root, free_port(port))
    try:
        bot = synapse.register("catan", secrets.token_urlsafe(18))
        password = secrets.token_urlsafe(9)
        player = synapse.register("player", password)
        alias, room_id = make_room(synapse, str(player["access_token"]), str(bot["user_id"]))
        yield LocalMatrix(synapse, str(bot["user_id"]), str(bot["access_token"]),
                          str(player["user_id"]), password, alias, room_id,
                          str(player["access_token"]))
    finally:
        synapse.stop()
