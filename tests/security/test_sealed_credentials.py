"""A game's credentials reach only the requester that created it.

Once, a creation's outcome held every seat's credential and the referee's in the clear, in the
game's outcomes hash, under `org:<create command id>` (an id public in GameCreated); the
gateway and the organiser may read outcomes, so each could read the other's games' credentials
and forge a move for a human's seat or a forfeit. Now the outcome carries them sealed with a
key that only travelled on the requester's own command stream (events/sealed.py).

Each test is the attack, as the attacker's role on the suite's real server: read everything
the role may read, then try to act with whatever it found.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError
from service_helpers import dead_letters, log, pump

from events.auth import sign, turn_key
from events.codec import codec
from events.commands import EndTurn
from events.envelope import CommandEnvelope
from events.requests import CreateGame, ForfeitSeat
from events.sealed import SealError, new_reply_key, seal, unseal
from services.client import Client, Credentials
from services.protocol import DATA, KIND, MAC
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import GATEWAY, ORGANISER, commands_key, game_keys, partition

SEED = "5eed" * 8


async def created(service: RulesService, client: Client, game_id: str,
                  controllers: tuple[str, ...] = ("human",) * 4) -> tuple[CreateGame, Credentials]:
    """Create a game through `client` (its own stream), pumping the in-process service."""
    req = CreateGame(command_id=f"create-{game_id}", game_id=game_id, controllers=controllers,
                     seed=SEED, reply_key=new_reply_key())
    await client.redis.xadd(client.stream(game_id), {DATA: codec().encode(req), KIND: "create"})
    await pump(service)
    creds = await client.credentials_of(req)
    assert creds is not None
    return req, creds


async def everything_readable(attacker: Redis, admin: Redis) -> str:
    """All the attacker's user may read, as text: every key (listed by the administrator,
    since no role may list keys) read with the reads its type allows."""
    seen: list[Any] = []
    async for key in admin.scan_iter(match="hexlog:*"):
        kind = (await admin.type(key)).decode()
        reads = {"stream": lambda k: attacker.xrange(k), "hash": lambda k: attacker.hgetall(k),
                 "string": lambda k: attacker.get(k), "zset": lambda k: attacker.zrange(k, 0, -1),
                 "set": lambda k: attacker.smembers(k)}
        try:
            seen.append(await reads[kind](key))
        except NoPermissionError:
            continue
    return repr(seen)  # bytes print as their text: a credential or seed shows as itself


@pytest.mark.parametrize(("attacker", "creator"), [
    ("gateway", "organiser"), ("organiser", "gateway"), ("projections", "organiser"),
    ("bot", "gateway"),
])
async def test_no_other_role_can_read_a_games_credentials(
    attacker: str, creator: str, service: RulesService, redis_client: Redis, store: EventStore,
    user: Callable[..., Awaitable[Redis]],
) -> None:
    source = GATEWAY if creator == "gateway" else ""
    owner = Client(await user(creator), source=source)
    req, creds = await created(service, owner, "g-sealed",
                               ("human", "bot:random", "human", "bot:heuristic"))
    spy = await user("bot", "random") if attacker == "bot" else await user(attacker)
    text = await everything_readable(spy, redis_client)
    for secret in (*creds.seats, creds.referee, SEED, req.reply_key):
        assert secret not in text
    if attacker in ("gateway", "organiser"):  # it does read the outcome: sealed, unopenable
        outcome = await Client(spy).store.get_outcome(req.command_id, req.game_id,
                                                      scope=ORGANISER)
        assert outcome is not None
        assert set(outcome) == {"status", "game", "sealed", "version"}
        with pytest.raises(SealError):
            unseal(new_reply_key(), req.game_id, req.command_id, outcome["sealed"])


async def test_what_the_gateway_reads_forges_neither_a_move_nor_a_forfeit(
    service: RulesService, redis_client: Redis, store: EventStore,
    user: Callable[..., Awaitable[Redis]],
) -> None:
    """The issue's attack, end to end: the gateway reads a tournament game's outcome and tries
    to act for a human's seat and to forfeit a seat with every string it could read."""
    organiser = Client(await user("organiser"))
    req, creds = await created(service, organiser, "g-organised")
    gateway = await user("gateway")
    outcome = await Client(gateway).store.get_outcome(req.command_id, req.game_id, scope=ORGANISER)
    assert outcome is not None
    candidates = [str(v) for v in outcome.values()] + [req.command_id, req.game_id]
    p = partition(req.game_id)
    for i, guess in enumerate(candidates):
        move = CommandEnvelope(command_id=f"forged-{i}", game_id=req.game_id, expected_version=1,
                               command=EndTurn(seat=0))
        body = codec().encode(move)
        await gateway.xadd(commands_key(p, GATEWAY), {
            DATA: body, MAC: sign(turn_key(guess, req.game_id, 0, 1), body)})
        forfeit = codec().encode(ForfeitSeat(command_id=f"ff-{i}", game_id=req.game_id, seat=0))
        await gateway.xadd(commands_key(p, GATEWAY), {
            DATA: forfeit, KIND: "forfeit", MAC: sign(turn_key(guess, req.game_id, -1, 0), forfeit)})
    await pump(service)
    assert [e.command_id for e in await log(store, req.game_id)] == [req.command_id]
    reasons = [f[b"reason"] for f in await dead_letters(redis_client, p)]
    assert len(reasons) == 2 * len(candidates)
    assert all(r.startswith(b"service.seat.credential") for r in reasons)
    # The requester itself opens its reply and plays.
    assert len(creds.seats) == 4
    assert creds.referee
    assert await redis_client.hexists(game_keys(req.game_id).secret, "credentials")


def test_a_sealed_reply_opens_only_with_its_key_for_its_request() -> None:
    key = new_reply_key()
    sealed = seal(key, "g-1", "c-1", {"credentials": ["a"], "referee": "r"})
    assert unseal(key, "g-1", "c-1", sealed) == {"credentials": ["a"], "referee": "r"}
    for args in ((new_reply_key(), "g-1", "c-1"), (key, "g-2", "c-1"), (key, "g-1", "c-2")):
        with pytest.raises(SealError):
            unseal(*args, sealed)
    tampered = sealed[:-4] + ("AAAA" if not sealed.endswith("AAAA") else "BBBB")
    with pytest.raises(SealError):
        unseal(key, "g-1", "c-1", tampered)
    with pytest.raises(ValueError, match="reply_key"):
        seal("not hex", "g-1", "c-1", {})
