"""The observation: every part of every module's view is encoded or left out with a reason; the
vector stays inside its space; the dict holds the same numbers as the flat vector; seats are
relative (a seat sees itself in slot 0)."""

from __future__ import annotations

import numpy as np
import pytest
from rl_cases import CASES, IDS, Case

from bots.env import aec_env
from bots.env.features import lookup
from bots.env.match import Match, Setup
from bots.env.module_features import EXT_KEYS, FEATURES, IGNORED, features
from bots.env.observation import SEAT_SLOTS
from bots.env.spaces import HIGH, observation_space, shaped
from bots.random_bot import RandomBot
from services.rules.engine import MODULES

VIEW_KEYS = {"board", "resources"}  # the view's own ext entries: the map, module resources


def test_every_module_has_its_features_declared() -> None:
    assert set(MODULES) <= set(FEATURES)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_key_of_a_modules_view_is_encoded_or_ignored_with_a_reason(case: Case) -> None:
    setup = Setup(case.config())
    space = observation_space(setup, "flat")["observation"]
    match = Match(setup, b"keys:" + case.id.encode())
    bots = [RandomBot(s) for s in range(case.seats)]
    seen: dict[str, set[str]] = {}
    decisions = 0
    while not match.finished and decisions < 4000:
        prompt = match.prompt
        assert prompt is not None
        view = match.view(prompt.seat)
        for key, data in view.ext.items():
            if key not in VIEW_KEYS:
                seen.setdefault(key, set()).update(data)
        if decisions % 7 == 0:
            obs, mask = match.observe(prompt.seat, acting=True)
            assert space.contains(obs), (obs.min(), obs.max())
            assert mask.any()
        match.play(bots[prompt.seat].choose(view, prompt))
        decisions += 1
    names = {EXT_KEYS.get(m, m): m for m in MODULES}
    for key, keys in seen.items():
        module = names[key]
        encoded = {f.path.split(".")[0] for f in features(module)}
        left = keys - encoded - set(IGNORED.get(module, {}))
        assert not left, f"{module}: ext keys neither encoded nor ignored: {sorted(left)}"


def test_module_features_read_real_values() -> None:
    """Paths name what the views hold: in a fishermen game, the seat's own fish hand."""
    setup = Setup(Case("fishermen", (), 4).config())
    match = Match(setup, b"fish")
    bots = [RandomBot(s) for s in range(4)]
    while match.state.turn < 15:
        assert match.prompt is not None
        match.play(bots[match.prompt.seat].choose(None, match.prompt))
    view = match.view(0)
    assert lookup(view.ext["fishermen"], "hand") is not None
    assert lookup(view.ext["fishermen"], "prices.devcard") == 7


def test_the_dict_observation_holds_the_flat_numbers() -> None:
    setup = Setup(Case(None, (), 4).config())
    match = Match(setup, b"dict")
    assert match.prompt is not None
    obs, mask = match.observe(match.prompt.seat, acting=True)
    parts = shaped(setup, "dict", obs, mask)["observation"]
    flat = np.concatenate([parts[name].ravel() for name in setup.layout.sections])
    assert np.array_equal(flat, obs)
    assert parts["hexes"].shape == (37, setup.layout.sections["hexes"].width)
    assert parts["players"].shape == (SEAT_SLOTS, setup.layout.sections["players"].width)
    assert obs.max() <= HIGH


def test_each_seat_sees_itself_in_slot_zero() -> None:
    env = aec_env(seed=9)
    env.reset(seed=9)
    match = env.match
    assert match is not None
    players = match.setup.layout.sections["players"]
    vertices = match.setup.layout.sections["vertices"]
    while match.state.turn < 1:  # through the set-up: every seat has two settlements
        obs, *_ = env.last()
        env.step(int(obs["action_mask"].nonzero()[0][0]))
    for seat in range(4):
        obs, _ = match.observe(seat, acting=False)
        rows = obs[vertices.start:vertices.stop].reshape(vertices.rows, vertices.width)
        mine = set(np.nonzero(rows[:, 0])[0])  # settlements in slot 0
        assert mine == set(match.view(seat).players[seat].settlements)
        nxt = set(np.nonzero(rows[:, 1])[0])  # slot 1: the next seat
        assert nxt == set(match.view(seat).players[(seat + 1) % 4].settlements)
        assert obs[players.start] == 1.0  # slot 0 is present


def test_two_games_of_one_environment_are_observed_each_on_its_own_board() -> None:
    """The encoder keeps each board's fixed features: a second game (the same id, another
    layout) is not seen with the first one's terrain."""
    setup = Setup(Case(None, (), 4).config())
    hexes = setup.layout.sections["hexes"]
    first = Match(setup, b"board:1", game_id="same")
    one, _ = first.observe(0, acting=False)
    second = Match(setup, b"board:2", game_id="same")
    two, _ = second.observe(0, acting=False)
    fresh, _ = Match(Setup(Case(None, (), 4).config()), b"board:2", game_id="same").observe(0, False)
    assert not np.array_equal(one[hexes.start:hexes.stop], two[hexes.start:hexes.stop])
    assert np.array_equal(two, fresh)
