"""A real Matrix homeserver for tests: Synapse (pip `matrix-synapse`, a dev dependency) with a
fresh SQLite database on a free port, users registered through its admin API with the shared
secret (HMAC-SHA1 of `nonce\\0user\\0password\\0admin|notadmin`), which returns an access token.
Federation is off and the rate limits are raised: the test's clients are all local."""

from __future__ import annotations

import hashlib
import hmac
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml

HIGH = {"per_second": 1000, "burst_count": 1000}


@dataclass
class Synapse:
    url: str
    secret: str
    proc: subprocess.Popen[bytes]
    log: Path

    def register(self, user: str, password: str, admin: bool = False) -> dict[str, Any]:
        """Register `user` (localpart); the answer holds `user_id` and `access_token`."""
        nonce = httpx.get(f"{self.url}/_synapse/admin/v1/register", timeout=10).json()["nonce"]
        mac = hmac.new(self.secret.encode(), digestmod=hashlib.sha1)
        mac.update(b"\x00".join([nonce.encode(), user.encode(), password.encode(),
                                 b"admin" if admin else b"notadmin"]))
        r = httpx.post(f"{self.url}/_synapse/admin/v1/register", timeout=30,
                       json={"nonce": nonce, "username": user, "password": password,
                             "admin": admin, "mac": mac.hexdigest()})
        r.raise_for_status()
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


def start_synapse(root: Path, port: int, timeout: float = 90.0) -> Synapse:
    root.mkdir(parents=True, exist_ok=True)
    config = root / "homeserver.yaml"
    subprocess.run([sys.executable, "-m", "synapse.app.homeserver", "--server-name", "localhost",
                    "--config-path", str(config), "--data-directory", str(root),
                    "--generate-config", "--report-stats=no"],
                   check=True, cwd=root, capture_output=True)
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
    proc = subprocess.Popen([sys.executable, "-m", "synapse.app.homeserver", "-c", str(config)],
                            stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, cwd=root, start_new_session=True,
                            env={**os.environ, "SYNAPSE_ASYNC_IO_REACTOR": "0"})
    url = f"http://127.0.0.1:{port}"
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if proc.poll() is not None:
            raise AssertionError(f"synapse exited:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return Synapse(url, str(cfg["registration_shared_secret"]), proc, log)
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"synapse did not answer in {timeout}s:\n{log.read_text()[-3000:]}")


def write_log_config(root: Path) -> Path:
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
