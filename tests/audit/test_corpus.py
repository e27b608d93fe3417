"""The frozen corpus: archived games of every ruleset (tests/corpus/*.jsonl) must replay and
audit identically forever. Each is read with today's codec (upcasters included), audited
(every command, die and ruling re-run), folded to its end and compared with the summary
recorded when it was frozen (tests/corpus/summary.json): version, scores, the final table.

A change that breaks this test changes how old games load or what the rules give for them.
If an event's shape changed: give it a new schema version and an upcaster (events/schema.py).
If a rule changed on purpose: keep the old behaviour for logs pinned to the old rules version.
Never re-record an existing file; to freeze a game of a new ruleset, add it to GAMES and run
`python tests/audit/test_corpus.py` (it writes only the files that do not exist yet).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from recording import Recorder, bot_chooser

from events.disputes import REFEREE, ApproveUndo, ContestRuling, ProposeUndo, RejectUndo, RevertTo
from events.events import GameFinished, ModuleSpec
from services.audit.archive import dump_lines, read_file
from services.audit.audit import audit
from services.rules.engine import MODULES, Rejected, score
from services.rules.engine.state import State
from services.rules.record import GameRecord

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
SUMMARY = CORPUS / "summary.json"

# name: (modules, seats, bots, turn limit). Five more files were frozen on 2026-12-04 by a
# chooser that made the oil and gold commands of that day whenever they were legal (robbing for
# oil, Year of Plenty and Monopoly on oil, offers with oil, gold offers declined or cancelled,
# bridges with Catan for Two): oil-springs-oil-choices-4, oil-springs-oil-cards-3,
# rivers-gold-offers-declined-3, rivers-catan-for-two-bridges-2,
# traders-and-barbarians-gold-offers-3. Those commands are retired (read through their
# upcasters), so that recipe cannot run again; tests/audit/test_old_shapes.py has the rest.
GAMES: dict[str, tuple[tuple[ModuleSpec, ...], int, tuple[str, ...], int]] = {
    "base-4": ((), 4, ("heuristic", "random", "heuristic", "random"), 30),
    "friendly-robber-3": ((ModuleSpec(name="friendly-robber"),), 3, ("heuristic", "random", "random"), 25),
    "event-cards-4": ((ModuleSpec(name="event-cards"),), 4, ("random",) * 4, 20),
    "harbormaster-3": ((ModuleSpec(name="harbormaster"),), 3, ("heuristic",) * 3, 25),
    "catan-for-two-2": ((ModuleSpec(name="catan-for-two"),), 2, ("random", "random"), 25),
    "base-disputes-3": ((ModuleSpec(name="undo", params={"policy": "consent"}),), 3,
                        ("random",) * 3, 20),
    # Frozen on 2026-12-04, before oil and gold rode in the base commands and before the
    # scenarios asked for Catan for Two's and Event Cards' capabilities (their pair rules
    # moved to engine/combinations/): the old wire shapes and the pairs' rules as they were.
    "oil-springs-4": ((ModuleSpec(name="oil-springs"),), 4,
                      ("heuristic", "random", "random", "heuristic"), 30),
    "rivers-3": ((ModuleSpec(name="rivers"),), 3, ("random", "heuristic", "random"), 30),
    "rivers-catan-for-two-2": ((ModuleSpec(name="rivers"), ModuleSpec(name="catan-for-two")), 2,
                               ("random", "random"), 30),
    "fishermen-catan-for-two-2": ((ModuleSpec(name="fishermen"), ModuleSpec(name="catan-for-two")),
                                  2, ("random", "heuristic"), 30),
    "fishermen-event-cards-3": ((ModuleSpec(name="fishermen"), ModuleSpec(name="event-cards")), 3,
                                ("random",) * 3, 30),
    "barbarian-attack-catan-for-two-2": ((ModuleSpec(name="barbarian-attack"),
                                          ModuleSpec(name="catan-for-two")), 2,
                                         ("random", "heuristic"), 25),
    "barbarian-attack-harbormaster-3": ((ModuleSpec(name="barbarian-attack"),
                                         ModuleSpec(name="harbormaster")), 3, ("random",) * 3, 20),
    "traders-and-barbarians-catan-for-two-2": ((ModuleSpec(name="traders-and-barbarians"),
                                                ModuleSpec(name="catan-for-two")), 2,
                                               ("random", "heuristic"), 25),
    "traders-and-barbarians-event-cards-3": ((ModuleSpec(name="traders-and-barbarians"),
                                              ModuleSpec(name="event-cards")), 3,
                                             ("random",) * 3, 25),
    "catan-for-two-event-cards-2": ((ModuleSpec(name="catan-for-two"),
                                     ModuleSpec(name="event-cards")), 2, ("random", "random"), 30),
    # Frozen on 2026-12-05, when every scenario got a game here (with the typed module state).
    "caravans-3": ((ModuleSpec(name="caravans"),), 3, ("heuristic", "random", "heuristic"), 30),
    "pirate-islands-4": ((ModuleSpec(name="pirate-islands"),), 4,
                         ("random", "heuristic", "random", "heuristic"), 30),
    "victory-points-3": ((ModuleSpec(name="victory-points", params={"target": 7}),), 3,
                         ("heuristic", "heuristic", "random"), 30),
}


def table_summary(state: State) -> dict[str, Any]:
    """The final table in game terms (not the engine's in-memory layout, which may change)."""
    return {
        "version": state.version,
        "phase": state.phase,
        "turn": state.turn,
        "current": state.current,
        "winner": state.winner,
        "finished": state.finished,
        "robber": state.robber,
        "bank": list(state.bank),
        "longest_road": [state.longest_holder, state.longest_length],
        "largest_army": state.army_holder,
        "scores": list(score(state)),
        "players": [
            {"hand": list(p.hand), "dev": list(p.dev), "knights": p.knights,
             "roads": sorted(p.roads), "settlements": sorted(p.settlements),
             "cities": sorted(p.cities)}
            for p in state.players
        ],
    }


def summarize(record: GameRecord) -> dict[str, Any]:
    final = table_summary(record.state_at(record.version))
    report = audit(record)
    end = record.events[-1].event
    return {
        "version": record.version,
        "rulings": len(record.rulings),
        "scores": list(end.scores) if isinstance(end, GameFinished) else None,
        "audit": {"exit_code": report.exit_code, "commands": report.commands,
                  "chance": report.chance, "rulings": report.rulings},
        "digest": hashlib.sha256(json.dumps(final, sort_keys=True).encode()).hexdigest(),
        "final": final,
    }


def files() -> list[str]:
    return sorted(p.stem for p in CORPUS.glob("*.jsonl"))


def test_the_corpus_holds_a_game_of_every_ruleset() -> None:
    assert set(GAMES) <= set(files())
    assert set(files()) == set(json.loads(SUMMARY.read_text()))


def test_every_module_of_the_catalogue_has_a_frozen_game() -> None:
    """A new scenario or variant is not done until a game of it is frozen here (GAMES, then
    `python tests/audit/test_corpus.py`; docs/adding-a-scenario.md)."""
    played = {spec.name for modules, *_ in GAMES.values() for spec in modules}
    missing = sorted(name for name in MODULES if name not in played)
    assert not missing, f"no frozen game of {', '.join(missing)}: add one to GAMES"


@pytest.mark.parametrize("name", files())
def test_a_frozen_game_replays_and_audits_as_it_did(name: str) -> None:
    expected = json.loads(SUMMARY.read_text())[name]
    path = CORPUS / f"{name}.jsonl"
    _, record = read_file(str(path))
    got = summarize(record)
    assert got["audit"]["exit_code"] == 0, audit(record).to_dict()["divergences"][:3]
    assert got["final"] == expected["final"]
    assert got == expected
    # Reading and writing an archive changes nothing but the header's export time.
    lines = path.read_bytes().splitlines(keepends=True)
    assert list(dump_lines(record))[1:] == lines[1:]


# --- freezing new games ---------------------------------------------------------------------


def record_game(name: str) -> GameRecord:
    modules, seats, bots, turn_limit = GAMES[name]
    rec = Recorder.new(f"corpus-{name}", f"corpus:{name}".encode(), seats=seats, modules=modules,
                       turn_limit=turn_limit)
    choose = bot_chooser(bots)
    if name == "base-disputes-3":
        disputes(rec, choose)
    rec.play(choose)
    return rec.record()


def disputes(rec: Recorder, choose: Any) -> None:
    """An undo approved, one rejected, a refused command contested, a referee's revert."""

    def until_turn(turn: int) -> None:
        rec.play(choose, until=lambda r: r.state.turn >= turn and r.state.phase == "roll")

    def last_command_start() -> int:
        return rec.record().batches[-1].first - 1

    until_turn(3)
    seat = rec.state.current
    rec.send(ProposeUndo(seat=seat, to_version=last_command_start()))
    for other in range(3):
        if other != seat:
            rec.send(ApproveUndo(seat=other))
    until_turn(5)
    seat = rec.state.current
    rec.send(ProposeUndo(seat=seat, to_version=last_command_start()))
    rec.send(RejectUndo(seat=(seat + 1) % 3))
    refused = rec.send(ContestRuling(seat=seat, command_id="none", claim="?"), "c-unknown")
    assert isinstance(refused, Rejected)
    rec.send(ContestRuling(seat=(seat + 1) % 3, command_id="c-unknown", claim="it was mine"))
    until_turn(7)
    rec.send(RevertTo(seat=REFEREE, to_version=last_command_start()))


def freeze() -> None:
    CORPUS.mkdir(exist_ok=True)
    summary = json.loads(SUMMARY.read_text()) if SUMMARY.exists() else {}
    for name in GAMES:
        path = CORPUS / f"{name}.jsonl"
        if path.exists():
            continue  # frozen: never re-recorded
        record = record_game(name)
        path.write_bytes(b"".join(dump_lines(record, "finished")))
        _, again = read_file(str(path))
        summary[name] = summarize(again)
        print(f"froze {path.name}: {record.version} events", file=sys.stderr)
    SUMMARY.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    freeze()
