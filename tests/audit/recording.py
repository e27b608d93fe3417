"""Games recorded in-process exactly as the rules service stores them (envelopes, each batch's
command, rulings with their rule ids), without Redis: for the audit, replay and corpus tests.

`Recorder.send` is `RulesService.apply` without the transport: a command is judged (the
engine's decide, or services/rules/disputes.py), accepted events are encoded in envelopes and
folded, a rejection becomes a rulings-stream entry. `record()` gives the GameRecord, and
`services.audit.archive.dump_lines(record)` the archive.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.local import next_prompt
from bots.registry import make_bot
from bots.sdk import reseed
from events.codec import codec
from events.commands import Command
from events.envelope import EventEnvelope, schema_of
from events.events import Event, GameCreated, ModuleSpec
from events.prompts import Prompt
from services.rules import disputes
from services.rules.engine import (
    RULES_VERSION,
    Rejected,
    decide,
    evolve,
    initial_state,
    new_game,
    pending,
    view,
)
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import State
from services.rules.record import GameRecord, decode_entries, decode_rulings
from services.store.results import LogEntry

Chooser = Callable[["Recorder", Prompt], Command]


@dataclass
class Recorder:
    created: GameCreated
    seed: bytes
    state: State = field(init=False)
    dealer: SeededDealer = field(init=False)
    entries: list[LogEntry] = field(default_factory=list)
    rulings: list[dict[str, str]] = field(default_factory=list)
    live: dict[int, dict[str, Any]] = field(default_factory=dict)  # state.to_dict() per version
    keep_states: bool = False

    def __post_init__(self) -> None:
        self.state = initial_state(self.created)
        self.dealer = SeededDealer(self.seed)
        env = EventEnvelope(game_id=self.game_id, version=1, at=_at(1),
                            command_id=f"create-{self.game_id}", event=self.created,
                            schema=schema_of(self.created), rules_version=RULES_VERSION)
        self.entries.append(LogEntry(1, codec().encode(env), env.command_id, None))
        if self.keep_states:
            self.live[1] = self.state.to_dict()

    @classmethod
    def new(cls, game_id: str, seed: bytes, seats: int = 4, modules: Sequence[ModuleSpec] = (),
            turn_limit: int = 0, keep_states: bool = False) -> Recorder:
        created = new_game(game_id, seats, seed, modules=modules, turn_limit=turn_limit)
        return cls(created, seed, keep_states=keep_states)

    @property
    def game_id(self) -> str:
        return self.created.game_id

    def record(self) -> GameRecord:
        return GameRecord(self.game_id, decode_entries(self.game_id, self.entries),
                          decode_rulings(self.rulings))

    def send(self, command: Command, command_id: str = "") -> list[Event] | Rejected:
        """Judge `command` on the current state: its events (appended and folded), or the
        rejection (recorded on the rulings stream)."""
        c = codec()
        v = self.state.version
        command_id = command_id or f"c{v}-{command.seat}-{type(command).__name__}"
        try:
            if disputes.needs_record(command):
                events = disputes.judge(self.state, command, self.dealer, self.record())
            else:
                events = decide(self.state, command, self.dealer)
        except Rejected as r:
            self.rulings.append({"command_id": command_id, "seat": str(command.seat),
                                 "version": str(v), "rule_id": r.rule_id, "message": r.message,
                                 "command": c.encode(command).decode(),
                                 "expected_version": str(v)})
            return r
        body = c.encode(command)
        for i, e in enumerate(events):
            env = EventEnvelope(game_id=self.game_id, version=v + i + 1, at=_at(v + i + 1),
                                command_id=command_id, event=e, schema=schema_of(e),
                                rules_version=RULES_VERSION)
            self.entries.append(LogEntry(v + i + 1, c.encode(env), command_id, body if i == 0 else None))
        for e in events:
            evolve(self.state, e)
            if self.keep_states:  # the live state after every event, as the service holds it
                self.live[self.state.version] = self.state.to_dict()
        return events

    def prompt(self) -> Prompt:
        return next_prompt(self.state, pending(self.state))

    def play(self, chooser: Chooser | None = None, max_decisions: int = 5000,
             until: Callable[[Recorder], bool] | None = None) -> Recorder:
        """Bots (random by default) answer the prompts until the end (or `until`)."""
        choose = chooser or bot_chooser(("random",) * self.state.n)
        for _ in range(max_decisions):
            if self.state.finished or (until is not None and until(self)):
                return self
            prompt = self.prompt()
            result = self.send(choose(self, prompt))
            assert not isinstance(result, Rejected), result
        raise AssertionError("the game did not end")


def bot_chooser(bots: Sequence[str]) -> Chooser:
    made = [make_bot(b, 0) for b in bots]

    def choose(rec: Recorder, prompt: Prompt) -> Command:
        bot = made[prompt.seat]
        reseed(bot, rec.game_id, prompt.seat, rec.state.version)
        seen = view(rec.state, prompt.seat) if bot.needs_view else None
        return bot.choose(seen, prompt)

    return choose


def rng_chooser(seed: int) -> Chooser:
    """Uniformly random options (discards by the random bot), from one seeded generator."""
    rng = random.Random(seed)
    fallback = bot_chooser(("random",) * 4)

    def choose(rec: Recorder, prompt: Prompt) -> Command:
        if prompt.options:
            return prompt.options[rng.randrange(len(prompt.options))]
        return fallback(rec, prompt)

    return choose


def _at(version: int) -> str:
    return f"2026-01-01T00:{version // 60 % 60:02d}:{version % 60:02d}+00:00"
