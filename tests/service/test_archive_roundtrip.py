"""A game with every base event type (and undo, a contest, a forfeit) played through the rules
service: export → import → audit round trips, the archive exports back byte for byte, and the
CLI replays and audits it without Redis."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from redis.asyncio import Redis
from service_helpers import create_game, create_request, created_outcome, envelope, pump, send

import events.events as base_events
from bots.local import next_prompt
from bots.sdk import random_discard
from events.commands import (
    AcceptTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    Command,
    ConfirmTrade,
    DiscardResources,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    ProposeTrade,
    RejectTrade,
)
from events.disputes import ApproveUndo, ContestRuling, ProposeUndo, RejectUndo
from events.events import Event, ModuleSpec
from events.prompts import Prompt
from events.types import RESOURCES
from services.audit.archive import dump_lines, read_lines
from services.audit.audit import audit
from services.audit.importer import import_record
from services.client import Client
from services.rules.engine import pending
from services.rules.engine.state import ROLL, State
from services.rules.record import load_record
from services.rules.service import RulesService

GAME = "g-every-event"
SEED = b"cov13"
WANT = (PlayKnight, PlayRoadBuilding, PlayMonopoly, PlayYearOfPlenty, BuyDevelopmentCard, BuildCity,
        BuildRoad, BuildSettlement, MaritimeTrade)


class Coverage:
    """Prefers every kind of move (cards, cities, maritime trade), makes two domestic offers
    (one confirmed, one cancelled after an acceptance) and robs someone when it can."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.trades = 0

    def choose(self, state: State, prompt: Prompt) -> Command:
        opts = prompt.options
        if prompt.stage == "trade_answer":
            accept = [o for o in opts if isinstance(o, AcceptTrade)]
            return accept[0] if accept else next(o for o in opts if isinstance(o, RejectTrade))
        if prompt.stage == "trade":
            confirm = [o for o in opts if isinstance(o, ConfirmTrade)]
            if self.trades == 1 and confirm:
                return confirm[0]
            return next(o for o in opts if isinstance(o, CancelTrade))
        hand = state.players[prompt.seat].hand
        if prompt.may_trade and prompt.stage == "main" and self.trades < 2:
            theirs = [r for r in range(5) if any(p.hand[r] for p in state.players if p.seat != prompt.seat)]
            deal = [(g, w) for g in range(5) if hand[g] for w in theirs if w != g]
            if deal:  # an offer someone can accept
                self.trades += 1
                give, get = deal[0]
                return ProposeTrade(seat=prompt.seat, give={RESOURCES[give]: 1}, get={RESOURCES[get]: 1})
        for kind in WANT:
            wanted = [o for o in opts if isinstance(o, kind)]
            if wanted:
                return self.rng.choice(wanted)
        robs = [o for o in opts if isinstance(o, MoveRobber) and o.victim is not None]
        if robs:
            return self.rng.choice(robs)
        if opts:
            return self.rng.choice(opts)
        assert prompt.discard
        assert prompt.hand is not None
        return DiscardResources(seat=prompt.seat, resources=random_discard(self.rng, list(hand), prompt.discard))


async def play_every_event(service: RulesService, redis: Redis) -> None:
    req = create_request(GAME, seed=SEED, controllers=("human",) * 3, turn_limit=80,
                         modules=(ModuleSpec(name="undo", params={"policy": "consent"}),))
    creds = await create_game(service, req)
    referee = (await created_outcome(service.store, req) or {})["referee"]
    chooser = Coverage(13)
    n = 0

    async def command(cmd: Command) -> None:
        nonlocal n
        n += 1
        version = await service.store.version(GAME)
        await send(redis, envelope(GAME, f"m{n}", creds[cmd.seat], version, cmd))
        await pump(service)

    extras_done: set[str] = set()
    while not (state := service.slots[GAME].state).finished if GAME in service.slots else False:
        if state.phase == ROLL and state.turn >= 5 and "undo" not in extras_done:
            extras_done.add("undo")
            s = state.current
            await command(ProposeUndo(seat=s, to_version=state.version - 1))
            for other in range(3):
                if other != s:
                    await command(ApproveUndo(seat=other))
            state = service.slots[GAME].state
            await command(EndTurn(seat=state.current))  # the undone turn end, again
            s = service.slots[GAME].state.current
            await command(ProposeUndo(seat=s, to_version=service.slots[GAME].state.version - 1))
            await command(RejectUndo(seat=(s + 1) % 3))
            await command(EndTurn(seat=s))  # refused: roll first
            await command(ContestRuling(seat=s, command_id=f"m{n}", claim="I may end it"))
            continue
        if state.turn >= 60 and "forfeit" not in extras_done:
            extras_done.add("forfeit")
            await Client(redis).forfeit(GAME, 2, referee, "left", command_id="forfeit-2")
            await pump(service)
            continue
        prompt = next_prompt(state, pending(state))
        await command(chooser.choose(state, prompt))


def base_event_types() -> set[str]:
    return {c.__name__ for c in Event.__subclasses__() if c.__module__ == base_events.__name__}


async def test_every_event_type_round_trips_through_an_archive(
    service: RulesService, redis_client: Redis, tmp_path: Path, url: str
) -> None:
    await play_every_event(service, redis_client)
    record = await load_record(service.store, GAME)
    seen = {type(r.event).__name__ for r in record.events}
    wanted = base_event_types() | {"UndoProposed", "UndoApproved", "UndoRejected", "Reverted",
                                   "RulingReviewed"}
    assert wanted - seen == set()
    assert record.rulings, "a rejection is on the rulings stream"

    first = list(dump_lines(record, "finished"))
    live = audit(record)
    assert live.exit_code == 0, live.to_dict()

    await redis_client.flushall()
    _, from_file = read_lines(first)
    assert await import_record(redis_client, from_file) == len(record.rulings)
    imported = await load_record(service.store, GAME)
    again = list(dump_lines(imported, "finished"))
    assert again[1:] == first[1:]  # byte for byte, but for the header's export time
    report = audit(imported)
    assert report.exit_code == 0, report.to_dict()
    assert (report.commands, report.chance, report.rulings) == (live.commands, live.chance, live.rulings)
    assert report.commands == sum(1 for b in record.batches[1:] if b.command is not None)

    # The CLI, from the file (no Redis) and from the imported game.
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(first))
    out = hexlog("audit", str(path), url=url)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "OK:" in out.stdout
    out = hexlog("audit", GAME, "--json", url=url)
    assert out.returncode == 0
    assert json.loads(out.stdout)["ok"] is True
    out = hexlog("replay", str(path), "--at", "120", "--as", "1", url=url)
    assert out.returncode == 0
    assert "events 1..120:" in out.stdout
    exported = hexlog("export", GAME, url=url)
    assert exported.stdout.splitlines()[1:] == [line.decode().rstrip("\n") for line in first[1:]]
    refused = hexlog("import", str(path), url=url)
    assert refused.returncode != 0  # the game exists


def hexlog(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli.main", *args], capture_output=True,
                          text=True, env={**os.environ, "REDIS_URL": url}, timeout=120)
