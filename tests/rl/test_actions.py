"""The action space: every command type of every module is in it or left out with a reason; its
ids come from the command, not from where a prompt lists it; every option of every prompt has a
path of its own, and walking that path gives back exactly that option."""

from __future__ import annotations

import random

import pytest
from rl_cases import CASES, IDS, Case

from bots.env.actions import ActionSpace
from bots.env.catalogue import LEFT_OUT, entries, module_of
from bots.env.decision import Decision, IllegalAction
from bots.env.match import Match, Setup
from bots.random_bot import RandomBot
from events.codec import codec
from events.commands import BuildRoad, DiscardResources, EndTurn, MoveRobber, PlaceSettlement
from events.prompts import Prompt
from events.registry import COMMANDS
from services.protocol_doc import command_owners
from services.rules.engine import MODULES

BASE_SIZES = {"vertex": 96, "edge": 132, "hex": 37, "hex_or_supply": 38}


def test_every_command_type_is_in_the_space_or_left_out_with_a_reason() -> None:
    codec()
    everything = entries(sorted(MODULES), trade_offers=False)
    playable = {e.name for e in everything}
    for tag in COMMANDS:
        assert (tag in playable) != (tag in LEFT_OUT), tag


def test_each_command_belongs_to_the_module_that_handles_it() -> None:
    """The catalogue's module (the command's wire file) is the one the rules give it to, or one
    of the two a command needs together."""
    for tag, owners in command_owners().items():
        if tag in LEFT_OUT:
            continue
        mine = module_of(COMMANDS[tag])  # type: ignore[arg-type]
        assert any(mine == o or mine in o.split(" + ") for o in owners), (tag, mine, owners)


def test_ids_come_from_the_command_and_the_map() -> None:
    space = ActionSpace([], BASE_SIZES)
    road = space.path(BuildRoad(seat=2, edge=17), 2, 4)
    assert road == space.path(BuildRoad(seat=0, edge=17), 0, 4)
    assert road is not None
    assert len(road) == 1
    assert space.path(BuildRoad(seat=0, edge=18), 0, 4) == (road[0] + 1,)
    assert space.label(road[0]) == "BuildRoad edge=17"
    settle = space.path(PlaceSettlement(seat=0, vertex=0), 0, 4)
    assert settle is not None
    assert space.label(settle[0]) == "PlaceSettlement vertex=0"
    # A victim is named relative to the robbing seat: "the next seat" is one id for any seat.
    rob = space.path(MoveRobber(seat=3, hex=9, victim=0), 3, 4)
    assert rob == space.path(MoveRobber(seat=1, hex=9, victim=2), 1, 4)
    assert rob is not None
    assert space.label(rob[0]).startswith("MoveRobber")
    assert space.label(rob[0]).endswith(" hex=9 victim=+1")
    # The same modules and map give the same space: its digest names it.
    assert ActionSpace([], BASE_SIZES).digest == space.digest
    assert ActionSpace(["fishermen"], BASE_SIZES).digest != space.digest
    labels = space.labels()
    assert len(set(labels)) == len(labels) == space.n


def test_a_prompts_option_order_does_not_change_the_ids() -> None:
    space = ActionSpace([], BASE_SIZES)
    options = [EndTurn(seat=0), BuildRoad(seat=0, edge=5), BuildRoad(seat=0, edge=40)]
    one = Decision(space, Prompt(seat=0, stage="main", options=options, default=options[0]), 4)
    other = Decision(space, Prompt(seat=0, stage="main", options=options[::-1],
                                   default=options[0]), 4)
    assert one.legal() == other.legal()
    road = space.path(options[2], 0, 4)
    assert road is not None
    assert one.choose(road[0]) == options[2] == other.choose(road[0])


def test_a_discard_is_chosen_card_by_card_in_resource_order() -> None:
    space = ActionSpace([], BASE_SIZES)
    prompt = Prompt(seat=1, stage="discard", options=[],
                    default=DiscardResources(seat=1, resources={"ore": 4}),
                    discard=4, hand={"lumber": 1, "wool": 3, "ore": 4})
    d = Decision(space, prompt, 4)
    block = space.steps[DiscardResources][0]
    assert [space.label(a) for a in d.legal()] == [
        "DiscardResources resources+lumber", "DiscardResources resources+wool",
        "DiscardResources resources+ore"]
    assert d.choose(block.offset + 2) is None  # a wool
    assert block.offset not in d.legal()  # no lumber after a wool: one order per discard
    with pytest.raises(IllegalAction):
        d.choose(block.offset)
    assert d.choose(block.offset + 2) is None
    assert d.choose(block.offset + 4) is None
    assert d.cards_left() == 1
    assert d.choose(block.offset + 4) == DiscardResources(seat=1, resources={"wool": 2, "ore": 2})


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_option_has_a_path_of_its_own_that_gives_it_back(case: Case) -> None:
    setup = Setup(case.config(), trade_offers=True)
    match = Match(setup, b"paths:" + case.id.encode())
    bots = [RandomBot(s + 1) for s in range(case.seats)]
    rng = random.Random(0)
    prompts = multi = 0
    while not match.finished and prompts < 3000:
        prompt = match.prompt
        assert prompt is not None
        decision = match.decide_for(prompt.seat)
        assert not decision.unplayable, decision.unplayable
        paths = [path for path, _ in decision.live]
        assert len(set(paths)) == len(paths), "two options share a path"
        for path, option in decision.live:
            walk = Decision(setup.space, prompt, match.seats,
                            hand=match.view(prompt.seat).players[prompt.seat].hand,
                            offer_menu=True)
            got = None
            for action in path:
                assert action in walk.legal()
                got = walk.choose(action)
                if got is not None:  # at its path's end, or once no other option agrees
                    break
            assert got == option
            multi += len(path) > 1
        prompts += 1
        if prompt.options and rng.random() < 0.7:
            match.play(rng.choice(prompt.options))
        else:
            match.play(bots[prompt.seat].choose(None, prompt))
    assert prompts > 100
