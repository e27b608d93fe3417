"""The public rule-test kit: a table with a fixed board, scripted chance, and pieces, cards,
the robber and the bank put in place — for anyone testing rules from outside the engine.

    t = Table(seats=3)                       # beginner board, set-up done by defaults
    t.give(0, brick=1, lumber=1)
    t.when(BuildRoad(seat=0, edge=t.edge("(0,0)/(1,0)")))
    t.rejects(BuildRoad(...), "base.build.road_connect")   # and nothing changed

Given/when/then over the real decider: `when` runs decide + evolve and returns the events;
`rejects` asserts the rule id and that the state is untouched. Chance is scripted per kind
(`t.script("dice", (3, 4))`) with the seeded dealer behind it.

Setting up a position (none of these checks a rule or pays a cost):
    Table(modules=[ModuleSpec(...)], map="name")   a module's rules and map; its fixed layout
    t.place(seat, vertex, city=True)     a settlement or city      t.road(seat, edge)
    t.piece(seat, "ship", "(1,0)/(2,0)") any piece kind of the ruleset, by place name or id
    t.remove(seat, "settlement", v)      a piece taken off (routes, harbors recomputed)
    t.give(seat, oil=2) / t.take_all(seat) / t.give_dev(seat, "knight")
    t.set_robber("(0,0)") / t.set_robber(None)   the robber on a hex, or off the board
    t.set_bank(ore=0)                    the bank's stock of a resource
    t.turn_of(seat, rolled=True)         whose turn, before or after the roll
"""

from __future__ import annotations

from collections.abc import Sequence

from events.commands import Command
from events.events import Event, ModuleSpec, RoadBuilt, SettlementBuilt
from services.rules.engine import decide, evolve, initial_state, new_game, pending, pieces
from services.rules.engine.chance import ScriptedDealer, SeededDealer
from services.rules.engine.rules import Rejected
from services.rules.engine.state import CITY, MAIN, NO_ONE, ROLL, SETUP, State


class Table:
    def __init__(
        self,
        seats: int = 4,
        modules: Sequence[ModuleSpec] = (),
        beginner: bool = True,
        seed: bytes = b"table",
        setup: bool = True,
        ruleset: str = "base",
        map: str = "",
    ) -> None:
        self.created = new_game("test", seats, seed, modules=modules, beginner=beginner,
                                ruleset=ruleset, map=map)
        self.state: State = initial_state(self.created)
        self.dealer = ScriptedDealer({}, SeededDealer(seed))
        self.log: list[Event] = [self.created]
        if setup:
            self.finish_setup()

    # --- places by their human names ------------------------------------------------------

    def vertex(self, text: str) -> int:
        return self.state.board.parse_vertex(text)

    def edge(self, text: str) -> int:
        return self.state.board.parse_edge(text)

    def hex(self, text: str) -> int:
        return self.state.board.parse_hex(text)

    # --- arranging the table ----------------------------------------------------------------

    def script(self, kind: str, *outcomes: object) -> Table:
        self.dealer.queues.setdefault(kind, []).extend(outcomes)
        return self

    def finish_setup(self) -> None:
        """Play set-up with each seat's default placements, then empty every hand."""
        while self.state.phase == SETUP:
            prompt = pending(self.state)[0]
            self.when(prompt.default)
        for p in self.state.players:
            self.take_all(p.seat)

    def give(self, seat: int, **cards: int) -> None:
        hand = self.state.players[seat].hand
        for name, n in cards.items():
            r = self.state.rules.vocab.resource_index[name]
            hand[r] += n
            self.state.bank[r] -= n

    def take_all(self, seat: int) -> None:
        hand = self.state.players[seat].hand
        for r in range(len(hand)):
            self.state.bank[r] += hand[r]
            hand[r] = 0

    def hand(self, seat: int) -> dict[str, int]:
        return self.state.rules.vocab.bundle(self.state.players[seat].hand)

    def place(self, seat: int, vertex: int, city: bool = False) -> None:
        """A settlement (or city) put on the board without cost or checks."""
        self.apply(SettlementBuilt(seat=seat, vertex=vertex, free=True))
        if city:
            p = self.state.players[seat]
            p.settlements.discard(vertex)
            p.cities.add(vertex)
            self.state.vertex_level[vertex] = CITY

    def road(self, seat: int, edge: int) -> None:
        self.apply(RoadBuilt(seat=seat, edge=edge, free=True))

    def piece(self, seat: int, kind: str, where: str | int) -> int:
        """A piece of any kind of the ruleset (vocab.py) put down; returns its site id."""
        site = where if isinstance(where, int) else self.state.board.place(where)[1]
        pieces.place(self.state, seat, kind, site)
        return site

    def remove(self, seat: int, kind: str, site: int) -> None:
        """A piece taken off the board, with routes and harbors recomputed (no awards:
        those come from derivers, i.e. from a `when`)."""
        pieces.remove(self.state, seat, kind, site)

    def set_robber(self, where: str | None) -> None:
        """The robber on a hex (by name), or off the board (None)."""
        self.state.robber = NO_ONE if where is None else self.hex(where)

    def set_bank(self, **counts: int) -> None:
        for name, n in counts.items():
            self.state.bank[self.state.rules.vocab.resource_index[name]] = n

    def give_dev(self, seat: int, card: str, new: bool = False) -> None:
        c = self.state.rules.vocab.dev_index[card]
        self.state.deck[c] -= 1
        self.state.players[seat].dev[c] += 1
        if new:
            self.state.players[seat].dev_new[c] += 1

    def turn_of(self, seat: int, rolled: bool = True) -> None:
        """Make it `seat`'s turn, before or after its roll."""
        self.state.current = seat
        self.state.phase = MAIN if rolled else ROLL
        self.state.rolled = rolled

    # --- when / then ------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        evolve(self.state, event)
        self.log.append(event)

    def when(self, command: Command) -> list[Event]:
        events = decide(self.state, command, self.dealer)
        for e in events:
            self.apply(e)
        return events

    def rejects(self, command: Command, rule_id: str) -> Rejected:
        before = self.state.to_dict()
        try:
            decide(self.state, command, self.dealer)
        except Rejected as exc:
            assert exc.rule_id == rule_id, f"rejected by {exc.rule_id} ({exc.message}), not {rule_id}"  # noqa: PT017
            assert self.state.to_dict() == before, "a rejected command changed the state"
            return exc
        raise AssertionError(f"{command!r} was accepted; expected {rule_id}")
