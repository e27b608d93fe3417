"""Hook `end_of_turn`: steps before the turn passes (a Caravans vote, Barbarian Attack's
expulsion, Oil Springs' disaster check); a step that opens a stage holds the turn."""

from toy import toy

from events.commands import EndTurn
from events.events import Event, TurnEnded
from services.rules.engine import hook_keys as hk
from services.rules.engine.state import Rules


class Tick(Event, frozen=True, kw_only=True):
    """A toy event (not registered on the wire)."""

    seat: int


class Vote(Event, frozen=True, kw_only=True):
    seat: int


def test_an_end_of_turn_step_runs_before_the_turn_passes() -> None:
    def install(rules: Rules) -> None:
        rules.add_hook(hk.END_OF_TURN, lambda state, seat, dealer: [Tick(seat=seat)])
        rules.evolve_with(Tick, lambda state, e: None)

    t = toy("toy-end-tick", install)
    t.turn_of(0)
    assert [type(e) for e in t.when(EndTurn(seat=0))] == [Tick, TurnEnded]


def test_a_step_that_opens_a_stage_holds_the_turn() -> None:
    def install(rules: Rules) -> None:
        rules.add_hook(hk.END_OF_TURN, lambda state, seat, dealer: [Vote(seat=seat)])

        def open_vote(state, e):  # type: ignore[no-untyped-def]
            state.phase = "toy.vote"

        rules.evolve_with(Vote, open_vote)
        rules.prompt("toy.vote", lambda state: [])

    t = toy("toy-end-vote", install)
    t.turn_of(0)
    assert [type(e) for e in t.when(EndTurn(seat=0))] == [Vote]
    assert t.state.phase == "toy.vote"
    assert t.state.current == 0
