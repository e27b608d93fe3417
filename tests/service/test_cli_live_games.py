"""The CLI on live games: `hexlog replay GAME --follow` shows the board so far, then each new
event as it is appended, as the viewer may see it, until the game ends. A seat's private view
of a live game needs that seat's credential; the referee's view and an audit of a live game
need the referee credential (the audit then uses the secret seed)."""

from __future__ import annotations

import argparse
import asyncio

import pytest
from service_helpers import Script, create_game, create_request, created_outcome, pump, send

from services.audit.audit import audit
from services.cli.archives import live_for_audit
from services.cli.replay import CliError, replay_live
from services.render.replay import Viewer
from services.rules.service import RulesService


def args(game: str, credential: str = "") -> argparse.Namespace:
    return argparse.Namespace(source=game, at=None, tail=0, follow=True, credential=credential,
                              board=False)


async def test_follow_streams_new_events_until_the_end(
    service: RulesService, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    req = create_request("g-follow", controllers=("human",) * 3, turn_limit=2)
    script = Script.start(req, await create_game(service, req))
    for env, _ in script.moves(4):
        await send(service.redis, env)
    await pump(service)
    following = asyncio.create_task(replay_live(url, args("g-follow", script.credentials[1]), Viewer(seat=1)))
    await asyncio.sleep(0.3)
    while not script.state.finished:
        env, _ = script.next()
        await send(service.redis, env)
        await pump(service)
    await asyncio.wait_for(following, 10)
    out = capsys.readouterr().out
    before, _, after = out.partition("-- following; Ctrl-C stops --")
    assert "events 1..5:" in before
    assert "as seat 1" in before
    streamed = [line for line in after.splitlines() if line.startswith("v")]
    assert streamed[0].startswith("v6 ")
    assert "Game over" in streamed[-1]
    assert len(streamed) == script.state.version - 5


async def test_a_private_view_of_a_live_game_needs_the_credential(service: RulesService, url: str) -> None:
    req = create_request("g-private", controllers=("human",) * 3)
    creds = await create_game(service, req)
    with pytest.raises(CliError, match="seat 2's credential"):
        await replay_live(url, args("g-private", creds[1]), Viewer(seat=2))
    with pytest.raises(CliError, match="referee credential"):
        await replay_live(url, args("g-private", creds[0]), Viewer(referee=True))
    referee = (await created_outcome(service.store, req) or {})["referee"]
    await replay_live(url, argparse.Namespace(source="g-private", at=None, tail=0, follow=False,
                                              credential=referee, board=False),
                      Viewer(referee=True))


async def test_the_referee_audits_a_live_game_with_the_secret_seed(service: RulesService, url: str) -> None:
    req = create_request("g-live-audit", controllers=("human",) * 3)
    script = Script.start(req, await create_game(service, req))
    for env, _ in script.moves(40):
        await send(service.redis, env)
    await pump(service)
    referee = (await created_outcome(service.store, req) or {})["referee"]
    with pytest.raises(CliError, match="referee credential"):
        await live_for_audit(url, args("g-live-audit", script.credentials[0]), None)
    record, seed = await live_for_audit(url, args("g-live-audit", referee), None)
    assert seed == bytes.fromhex(script.dealer.seed_hex())
    report = audit(record, seed)
    assert (report.exit_code, report.seed, report.finished) == (0, "referee", False)
    assert report.chance > 0
    assert audit(record).exit_code == 3  # without the seed: incomplete, never "ok"
