"""docs/protocol.md §10 says what `<data dir>/valkey.url` holds and how a client in another
language connects with it: a Unix socket path, a user and a password, taken apart by the
pattern of its Node example (Node's `new URL` refuses the line). Checked here against a real
embedded server: the file's form and mode, and that those three parts, and only with the
password, reach the server.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path
from urllib.parse import unquote

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from services.runtime.valkey import URLFILE_NAME, EmbeddedValkey

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
FORM = "unix://:PASSWORD@/absolute/path/valkey.sock"


def documented_pattern() -> re.Pattern[str]:
    """The regular expression of the Node example (a JavaScript literal, `\\/` for `/`)."""
    found = re.search(r"= /(\^unix:.+?\$)/\.exec\(line\)", DOC)
    assert found, "docs/protocol.md §10: the Node example's pattern is gone"
    return re.compile(found[1].replace("\\/", "/"))


@pytest.mark.single_server
def test_the_url_file_has_the_documented_form_and_its_parts_connect(
        fresh_valkey: EmbeddedValkey) -> None:
    fresh_valkey.secure()
    path = fresh_valkey.data_dir / URLFILE_NAME
    assert f"\n{FORM}\n" in DOC
    assert "mode 0600" in DOC
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    assert text.count("\n") == 1  # one line
    parts = documented_pattern().fullmatch(text.strip())
    assert parts is not None, text.split("@")[-1]
    user, password, socket = parts.groups()
    assert user == ""  # the `default` user, the admin
    assert password
    assert socket == str(fresh_valkey.socket_path)
    assert Path(socket).is_absolute()
    client = redis.Redis(unix_socket_path=socket, username="default", password=unquote(password))
    try:
        assert client.ping()
    finally:
        client.close()
    stranger = redis.Redis(unix_socket_path=socket, retry=Retry(NoBackoff(), 0))  # fail at once
    try:
        with pytest.raises(redis.exceptions.AuthenticationError):
            stranger.ping()
    finally:
        stranger.close()
