"""Fixtures for the attack tests: Redis users with exactly the rights the services get
(services/runtime/acl.py), on the session's real Valkey.

Every test in this directory performs one attack a hostile bot, projection or chat user could
try, and asserts that it fails *and* that the service goes on answering other games."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from redis.asyncio import Redis

from services.runtime.acl import acl_words, pool_rules, rules_for
from services.runtime.valkey import EmbeddedValkey
from services.store.connect import connect, on_every_node, user_url

PASSWORD = "attack-test"


@pytest.fixture
async def user(valkey_server: EmbeddedValkey, redis_client: Redis
               ) -> AsyncIterator[Callable[..., Awaitable[Redis]]]:
    """`await user("bot", "random")`, `await user("projections")`: a client logged in as a
    user made with the rules hexlog gives that role."""
    clients: list[Redis] = []

    async def make(role: str, *pools: str) -> Redis:
        name = f"{role}-{'-'.join(pools)}" if pools else f"test-{role}"
        rules = pool_rules(*pools) if role == "bot" else rules_for(role)
        words = acl_words(f"user {name} on resetpass resetkeys resetchannels -@all "
                          f">{PASSWORD} {rules}")
        await on_every_node(redis_client, "ACL", "SETUSER", *words)
        client = connect(user_url(valkey_server.url, name, PASSWORD))
        clients.append(client)
        return client

    yield make
    for c in clients:
        await c.aclose()
