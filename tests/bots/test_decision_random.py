"""A bot reseeded for every decision draws the same numbers whether it seeds at once or only
when it draws (`bots.sdk.DecisionRandom`): the games a tournament plays do not change, and
a decision that draws nothing costs no seeding."""

from __future__ import annotations

import random

import pytest

from bots.random_bot import RandomBot
from bots.sdk import DecisionRandom, decision_seed, reseed
from events.commands import EndTurn, RollDice
from events.prompts import Prompt


def test_a_pending_seed_gives_the_numbers_of_a_seed_set_at_once() -> None:
    lazy, eager = DecisionRandom(1), random.Random(1)
    for version in range(50):
        lazy.seed_later("game", 2, version)
        eager.seed(decision_seed("game", 2, version))
        assert [lazy.random(), lazy.getrandbits(37), lazy.choice("abcdefg"),
                lazy.sample(range(40), 5), lazy.uniform(1, 2)] == \
               [eager.random(), eager.getrandbits(37), eager.choice("abcdefg"),
                eager.sample(range(40), 5), eager.uniform(1, 2)]


def test_state_reads_and_writes_settle_the_pending_seed_first() -> None:
    lazy = DecisionRandom(0)
    lazy.seed_later("game", 0, 99)
    assert lazy.getstate() == random.Random(decision_seed("game", 0, 99)).getstate()
    lazy.seed_later("game", 0, 7)
    lazy.setstate(random.Random(5).getstate())  # the state set wins over the seed pending
    assert lazy.random() == random.Random(5).random()
    lazy.seed_later("game", 0, 7)
    lazy.seed(3)  # so does a seed set at once
    assert lazy.random() == random.Random(3).random()


def test_a_decision_that_draws_nothing_never_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    seeded: list[object] = []
    original = random.Random.seed

    def counting(self: random.Random, a: object = None, version: int = 2) -> None:
        seeded.append(a)
        original(self, a, version)  # type: ignore[arg-type]

    bot = RandomBot(0)
    monkeypatch.setattr(random.Random, "seed", counting)
    only = EndTurn(seat=1)
    reseed(bot, "game", 1, 10)
    assert bot.choose(None, Prompt(seat=1, stage="main", options=[only], default=only)) == only
    assert seeded == []  # one legal command: no draw, no seeding
    two = [RollDice(seat=1), EndTurn(seat=1)]
    reseed(bot, "game", 1, 11)
    picked = bot.choose(None, Prompt(seat=1, stage="main", options=two, default=two[0]))
    assert seeded == [decision_seed("game", 1, 11)]
    eager = random.Random(decision_seed("game", 1, 11))
    assert picked == eager.choice(two)


def test_a_bot_drawing_from_one_stream_still_draws_for_one_option() -> None:
    """Without reseeding (a whole game from one seed: `hexlog bench engine`), every decision's
    draw moves the stream, so the one-option draw is kept and later choices stay the same."""
    bot, eager = RandomBot(4), random.Random(4)
    only = EndTurn(seat=1)
    two = [RollDice(seat=1), EndTurn(seat=1)]
    for _ in range(20):
        assert bot.choose(None, Prompt(seat=1, stage="main", options=[only], default=only)) == only
        eager.choice([only])
        assert bot.choose(None, Prompt(seat=1, stage="main", options=two, default=two[0])) \
            == eager.choice(two)
