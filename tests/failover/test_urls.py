"""The URL forms of a replicated deployment (services/store/connect.py): a primary under
Sentinel, `redis+sentinel://host:port,…/NAME`, and a cluster named by several nodes. Checked
without a server: what `check_url` accepts and refuses (in one line naming the fault), and that
a service's URL keeps the Sentinels' login and never prints a password."""

from __future__ import annotations

import pytest

from services.runtime.shared import redact
from services.store.connect import (
    BadUrlError,
    check_url,
    cluster_nodes,
    parse_sentinel_url,
    plain_url,
    user_url,
)

ADMIN = ("redis+sentinel://:s3cret@127.0.0.1:26379,127.0.0.1:26380,127.0.0.1:26381/hexlog"
         "?sentinel_password=s3cret")


def test_a_sentinel_url_names_the_sentinels_the_primary_and_both_logins() -> None:
    s = parse_sentinel_url("rediss+sentinel://rules:p%40ss@a:1,b:2/hexlog/3"
                           "?sentinel_username=rules&sentinel_password=p%40ss")
    assert s.sentinels == (("a", 1), ("b", 2))
    assert (s.service, s.db, s.username, s.password) == ("hexlog", 3, "rules", "p@ss")
    assert (s.sentinel_username, s.sentinel_password, s.tls) == ("rules", "p@ss", True)
    assert check_url(ADMIN) == ADMIN


@pytest.mark.parametrize(("url", "fault"), [
    ("redis+sentinel://a/hexlog", "'a' is not host:port"),
    ("redis+sentinel://a:1,b:x/hexlog", "'b:x' is not host:port"),
    ("redis+sentinel://a:1/", "the name the sentinels monitor"),
    ("redis+sentinel://a:1/hexlog/zero", "database 'zero'"),
    ("redis+sentinel://a:1/hexlog?password=x", "unknown option 'password'"),
    ("redis+sentinal://a:1/hexlog", "redis+sentinel://"),  # the accepted schemes are named
])
def test_a_bad_sentinel_url_is_refused_naming_its_fault(url: str, fault: str) -> None:
    with pytest.raises(BadUrlError) as refused:
        check_url(url)
    assert fault in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_services_url_logs_in_to_the_nodes_and_the_sentinels_as_its_user() -> None:
    url = user_url(ADMIN, "rules", "pw/1")
    s = parse_sentinel_url(url)
    assert (s.username, s.password) == ("rules", "pw/1")
    assert (s.sentinel_username, s.sentinel_password) == ("rules", "pw/1")
    assert s.sentinels == parse_sentinel_url(ADMIN).sentinels


def test_no_password_of_a_sentinel_url_is_printed() -> None:
    shown = redact(user_url(ADMIN, "rules", "hunter2"))
    assert "hunter2" not in shown
    assert "s3cret" not in redact(ADMIN)
    assert "127.0.0.1:26380" in shown


def test_a_cluster_may_be_named_by_several_nodes() -> None:
    url = "redis+cluster://:pw@127.0.0.1:7000,127.0.0.1:7001/0"
    assert check_url(url) == url
    assert cluster_nodes(url) == [("127.0.0.1", 7000), ("127.0.0.1", 7001)]
    assert plain_url(url) == "redis://:pw@127.0.0.1:7000/0"
    assert user_url(url, "rules", "x") == "redis+cluster://rules:x@127.0.0.1:7000,127.0.0.1:7001/0"
    with pytest.raises(BadUrlError):
        check_url("redis+cluster://127.0.0.1:7000,127.0.0.1/0")
