"""Key layout: every key of a game (and its commands and feed) shares one Cluster hash tag."""

from __future__ import annotations

import zlib

import pytest

from services.store.keys import (
    PARTITIONS,
    commands_key,
    dlq_key,
    feed_key,
    game_keys,
    outcome_field,
    partition,
)


def hash_tag(key: str) -> str:
    return key[key.index("{") + 1 : key.index("}")]


def test_partition_is_crc32_mod_128() -> None:
    for g in ("g1", "game-2", "ünïcode"):
        assert partition(g) == zlib.crc32(g.encode()) % PARTITIONS


def test_game_keys_follow_the_documented_layout() -> None:
    k = game_keys("abc")
    p = f"{partition('abc'):03d}"
    assert k.ev == f"hexlog:{{{p}}}:g:abc:ev"
    assert k.meta == f"hexlog:{{{p}}}:g:abc:meta"
    assert k.snap == f"hexlog:{{{p}}}:g:abc:snap"
    assert k.rulings == f"hexlog:{{{p}}}:g:abc:rulings"
    assert k.prompts == f"hexlog:{{{p}}}:g:abc:prompts"
    assert k.feed == f"hexlog:{{{p}}}:feed"
    assert k.secret == f"hexlog:{{{p}}}:g:abc:secret"
    assert k.outcomes == f"hexlog:{{{p}}}:g:abc:outcomes"
    assert outcome_field("s0", "c1") == "s0:c1"
    assert commands_key(int(p)) == f"hexlog:{{{p}}}:cmds"
    assert commands_key(int(p), "bot:random") == f"hexlog:{{{p}}}:cmds:bot:random"
    assert dlq_key(int(p)) == f"hexlog:{{{p}}}:cmds:dlq"


def test_all_keys_of_a_game_share_one_hash_tag() -> None:
    for g in ("a", "b{x}", "game:with:colons"):
        k = game_keys(g)
        keys = [k.ev, k.meta, k.snap, k.secret, k.rulings, k.prompts, k.feed, k.outcomes]
        keys += [commands_key(k.partition), commands_key(k.partition, "bot:x"),
                 dlq_key(k.partition), feed_key(k.partition)]
        assert {hash_tag(key) for key in keys} == {f"{k.partition:03d}"}


@pytest.mark.parametrize("bad", ["", "has space", "tab\t", "x" * 201])
def test_bad_ids_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="game id"):
        game_keys(bad)
