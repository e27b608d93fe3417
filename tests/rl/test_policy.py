"""A policy saved as numpy weights is a bot: it loads, decides legal moves from views and
prompts alone, falls back to the heuristic where it was not trained, and is seated by name in
a tournament through the real service (`--pod policy=PATH,…`), served by the bot worker."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import Hexlog

from bots.env.config import GameConfig
from bots.env.match import Setup
from bots.local import play
from bots.policy import PolicyBot
from bots.policy_net import PolicyFileError, PolicyNet, load_policy
from bots.random_bot import RandomBot
from bots.registry import SHIPPED, make_bot, parse_bot_spec
from services.rules.engine.chance import SeededDealer


def random_policy(path: Path, config: GameConfig, seed: int = 0) -> Path:
    """A policy file of the example's format with random weights."""
    setup = Setup(config)
    rng = np.random.default_rng(seed)
    sizes = [setup.layout.size, 32, setup.space.n]
    hidden = [(rng.normal(0, 0.1, (sizes[0], sizes[1])).astype(np.float32),
               np.zeros(sizes[1], np.float32))]
    head = (rng.normal(0, 0.1, (sizes[1], sizes[2])).astype(np.float32),
            np.zeros(sizes[2], np.float32))
    meta = {"config": config.to_dict(), "trade_offers": False,
            "space_digest": setup.space.digest, "actions": setup.space.n,
            "observation": setup.layout.size}
    PolicyNet(hidden, head, "tanh", meta).save(path)
    return path


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    return random_policy(tmp_path / "policy.npz", GameConfig.of())


def test_a_saved_policy_loads_with_the_same_weights(policy_file: Path) -> None:
    net = load_policy(policy_file)
    obs = np.random.default_rng(1).random(net.hidden[0][0].shape[0], dtype=np.float32)
    again = load_policy(policy_file)
    assert np.array_equal(net.logits(obs), again.logits(obs))
    assert net.meta["config"]["seats"] == 4
    with pytest.raises(PolicyFileError):
        load_policy(policy_file.with_name("missing.npz"))


def test_the_policy_bot_plays_whole_games(policy_file: Path) -> None:
    config = GameConfig.of(turn_limit=200)
    for g in range(2):
        seed = f"policy:{g}".encode()
        bot = PolicyBot(policy_file, g)
        bots = [bot if s == g else RandomBot(s) for s in range(4)]
        game = play(config.create(f"p{g}", seed), bots, SeededDealer(seed), keep_log=False)
        assert game.state.finished
        assert bot.fallbacks == 0


def test_a_game_it_was_not_trained_for_is_played_by_the_heuristic(policy_file: Path) -> None:
    config = GameConfig.of("fishermen", turn_limit=60)
    bot = PolicyBot(policy_file, 0)
    seed = b"policy:other"
    game = play(config.create("other", seed), [bot, *(RandomBot(s) for s in range(3))],
                SeededDealer(seed), keep_log=False)
    assert game.state.finished
    assert bot.fallbacks > 0


def test_the_registry_names_a_policy_by_its_path(policy_file: Path) -> None:
    spec = f"policy={policy_file}"
    assert parse_bot_spec(spec) == ("policy", str(policy_file))
    assert str(policy_file) in SHIPPED  # served by hexlog's own worker, like a shipped bot
    assert spec not in SHIPPED
    assert isinstance(make_bot(spec, 0), PolicyBot)
    with pytest.raises(ValueError, match="no policy file"):
        make_bot(f"policy={policy_file.with_name('missing.npz')}", 0)


def test_a_policy_is_seated_in_a_tournament(hexlog: Hexlog, policy_file: Path) -> None:
    result = hexlog.run("tournament", "--pod", f"policy={policy_file},random,random,random",
                        "--games", "4", "--turn-limit", "60", "--seed", "rl-policy", "--json",
                        timeout=300)
    assert result.code == 0, result.err[-3000:]
    report = json.loads(result.out)
    assert report["games"] == 4, report
    assert {row["bot"] for row in report["standings"]} == {"policy", "random"}
