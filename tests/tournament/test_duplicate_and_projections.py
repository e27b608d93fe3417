"""On one finished tournament (`baseline`, random vs heuristic, 3 duplicate sets): the rotations
of a set really share the board, the dice and the development deck; the same command again
gives the same standings game for game; the projections rebuilt from zero equal the live ones."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest
from tournament_helpers import BASELINE, Finished, dump_keys, events, standings_of

from events.events import DevelopmentCardBought, DiceRolled, GameCreated, GameFinished
from services.cli.projections import shipped
from services.projections.projector import Projector, results_key, standings_key
from services.store.connect import connect
from services.tournament.report import JSON_KEYS

pytestmark = pytest.mark.slow


async def test_the_rotations_of_a_set_share_board_dice_and_deck(baseline: Finished) -> None:
    ids = baseline.result["game_ids"]
    assert len(ids) == 12
    redis = connect(baseline.url)
    try:
        dice_compared = cards_compared = 0
        for s in range(3):
            rotations = ids[4 * s: 4 * s + 4]
            dice: dict[int, set[tuple[int, int]]] = defaultdict(set)
            cards: dict[int, set[str]] = defaultdict(set)
            dice_seen: dict[int, int] = defaultdict(int)
            cards_seen: dict[int, int] = defaultdict(int)
            boards, seats = set(), []
            for game_id in rotations:
                log = [env.event for env in await events(redis, game_id)]
                created = log[0]
                assert isinstance(created, GameCreated)
                assert isinstance(log[-1], GameFinished)
                boards.add((created.tiles, created.harbors, created.robber, created.seed_sha256))
                seats.append(created.names)
                rolls = [e for e in log if isinstance(e, DiceRolled)]
                assert [r.n for r in rolls] == list(range(len(rolls))) or \
                    [r.n for r in rolls] == list(range(1, len(rolls) + 1))
                for r in rolls:
                    dice[r.n].add((r.d1, r.d2))
                    dice_seen[r.n] += 1
                for e in log:
                    if isinstance(e, DevelopmentCardBought):
                        assert e.card is not None  # the log keeps what views hide
                        cards[e.n].add(str(e.card))
                        cards_seen[e.n] += 1
            # One board and seed per set; the bots sit in a different order in each rotation.
            assert len(boards) == 1
            assert len({tuple(n.split("@")[0] for n in names) for names in seats}) == 4
            # The k-th roll and the k-th card drawn are the same in every rotation that got
            # that far, though different bots rolled and bought them in different situations.
            for n, outcomes in dice.items():
                assert len(outcomes) == 1, (s, n, outcomes)
                dice_compared += dice_seen[n] > 1
            for n, drawn in cards.items():
                assert len(drawn) == 1, (s, n, drawn)
                cards_compared += cards_seen[n] > 1
        assert dice_compared > 100  # dozens of rolls per game are compared
        assert cards_compared > 0
        # And sets differ: not one seed for the whole tournament.
        firsts = [(await events(redis, ids[4 * s]))[0].event for s in range(3)]
        assert len({e.seed_sha256 for e in firsts if isinstance(e, GameCreated)}) == 3
    finally:
        await redis.aclose()


async def test_the_same_command_again_gives_the_same_standings_game_for_game(baseline: Finished) -> None:
    again = standings_of(baseline.hexlog.run(*BASELINE, timeout=150).stdout())
    first = baseline.result
    assert again["tournament"] != first["tournament"]  # a new run, with new game ids ...
    assert again["standings"] == first["standings"]  # ... and the very same table
    redis = connect(baseline.url)
    try:
        def games(raw: dict[bytes, bytes]) -> list[dict[str, Any]]:
            out = sorted((json.loads(v) for v in raw.values()), key=lambda g: g["index"])
            return [{k: v for k, v in g.items() if k != "game_id"} for g in out]

        one = games(await redis.hgetall(results_key(first["tournament"])))
        two = games(await redis.hgetall(results_key(again["tournament"])))
        assert len(one) == 12
        assert one == two  # every game: same seats, scores, winner
        for a, b in zip(first["game_ids"], again["game_ids"], strict=True):
            ea, eb = await events(redis, a), await events(redis, b)
            assert [type(e.event).__name__ for e in ea] == [type(e.event).__name__ for e in eb]
    finally:
        await redis.aclose()


async def test_projection_rebuilt_from_zero_equals_the_live_projection(baseline: Finished) -> None:
    redis = connect(baseline.url)
    try:
        live = await dump_keys(redis, "hexlog:proj:*")
        tid = baseline.result["tournament"]
        assert standings_key(tid) in live
        assert results_key(tid) in live
        assert len([k for k in live if k.startswith("hexlog:proj:game:")]) >= 12
        # The command's table is the projection's (read, not recomputed by the runner).
        table = json.loads(live[standings_key(tid)])
        assert table["games"] == 12
        assert [{k: row[k] for k in JSON_KEYS} for row in table["standings"]] == \
            baseline.result["standings"]
        applied = await Projector(redis, shipped()).rebuild()
        assert applied >= 12
        assert await dump_keys(redis, "hexlog:proj:*") == live
        # Idempotent by version: applying what was applied changes nothing.
        projector = Projector(redis, shipped())
        for game_id in baseline.result["game_ids"]:
            await projector.apply(game_id, 1)
            await projector.apply(game_id, 10**9)
        assert await dump_keys(redis, "hexlog:proj:*") == live
    finally:
        await redis.aclose()
