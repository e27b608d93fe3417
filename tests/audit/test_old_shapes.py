"""Logs written in the wire shapes of before 2026-12 (tests/corpus/old-shapes/) still load and
fold to the table they had, through the retired types' upcasters (events/oil_springs.py,
events/rivers.py, events/gold_trades.py).

The frozen corpus (test_corpus.py) holds games of those shapes that also audit clean: Oil
Springs' robbery, Year of Plenty, Monopoly and trades with oil, Rivers' declined gold offers,
Traders & Barbarians' gold offers. These three files hold the three old shapes whose events the
merged rules record in fewer events, so re-deciding those commands cannot give the recorded
events (docs/design.md, "Retired shapes"):
* a 7's discard naming oil (`DiscardWithOil`: `OilDiscarded`, then `ResourcesDiscarded`; one
  `ResourcesDiscarded` now);
* a Rivers gold offer accepted (`AcceptGoldTrade` completed it at once; the base trade's
  acceptance waits for the proposer's confirmation);
* a gold deal confirmed in Traders & Barbarians (`GoldTraded`, then `TradeCompleted`; one
  `TradeCompleted` now).
Each still folds to the same state (the table below is the one recorded with the old code); the
audit checks a merged command by the state it leaves, and says the one retired rule it cannot
check (a Rivers gold offer completed on acceptance) as skipped.

The files were recorded once on 2026-12-04 with the code of that day (random and heuristic
bots, a chooser that made these commands whenever they were legal) and are never re-recorded.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from test_corpus import summarize

from services.audit.archive import read_file
from services.audit.audit import audit

OLD = Path(__file__).resolve().parent.parent / "corpus" / "old-shapes"
SUMMARY = json.loads((OLD / "summary.json").read_text())

# file: (the retired command whose batches re-decide to fewer events, what it is read as)
MERGED = {
    "oil-springs-oil-discards-4": ("DiscardWithOil", "DiscardResources"),
    "rivers-gold-offers-accepted-3": ("AcceptGoldTrade", "AcceptTrade"),
    "traders-and-barbarians-gold-deals-3": (None, "ConfirmTrade"),
}


def old_commands(path: Path) -> Counter[str]:
    """The command types as stored (before any upcasting) and the retired event types."""
    seen: Counter[str] = Counter()
    for line in path.read_text().splitlines()[1:]:
        entry = json.loads(line)
        if entry.get("command"):
            seen["command:" + entry["command"]["type"]] += 1
        seen["event:" + entry["envelope"]["event"]["type"]] += 1
    return seen


def test_every_old_shape_file_is_listed() -> None:
    assert set(MERGED) == {p.stem for p in OLD.glob("*.jsonl")} == set(SUMMARY)


@pytest.mark.parametrize("name", sorted(MERGED))
def test_an_old_log_folds_to_the_table_it_had(name: str) -> None:
    _, record = read_file(str(OLD / f"{name}.jsonl"))
    got = summarize(record)
    assert got["final"] == SUMMARY[name]["final"]
    assert got["digest"] == SUMMARY[name]["digest"]
    assert got["version"] == SUMMARY[name]["version"]


@pytest.mark.parametrize("name", sorted(MERGED))
def test_an_old_log_audits_by_the_state_its_merged_commands_leave(name: str) -> None:
    """Re-decided today, a merged command gives other events; the audit then compares the
    state the recorded events leave with the state today's events leave (services/audit/
    audit.py `same_fold`): the same for the oil discards and the gold deals, so those logs audit
    clean. A Rivers gold offer completed on acceptance follows a rule today's rules no longer
    have (an acceptance now waits for the proposer's confirmation): those commands are not
    checkable, said as skipped (exit 3, never a clean 0), and nothing else diverges."""
    path = OLD / f"{name}.jsonl"
    stored, _ = MERGED[name]
    seen = old_commands(path)
    _, record = read_file(str(path))
    report = audit(record)
    old = SUMMARY[name]["audit"]
    assert report.divergences == []
    assert (report.chance, report.rulings) == (old["chance"], old["rulings"])
    if name.startswith("rivers"):
        assert report.exit_code == 3
        assert len(report.skipped) == seen[f"command:{stored}"] > 0
        assert all("AcceptGoldTrade" in s for s in report.skipped)
        assert report.commands + len(report.skipped) == old["commands"]
        return
    assert report.exit_code == 0
    merged = seen[f"command:{stored}"] if stored else seen["event:GoldTraded"]
    assert report.translated == merged > 0
    assert report.commands == old["commands"]
    assert any("retired" in note for note in report.notes)


def test_the_old_shapes_are_really_old() -> None:
    """The files hold the retired types (the test is about them, not about today's shapes)."""
    discards = old_commands(OLD / "oil-springs-oil-discards-4.jsonl")
    assert discards["event:OilDiscarded"] > 0
    rivers = old_commands(OLD / "rivers-gold-offers-accepted-3.jsonl")
    assert rivers["command:OfferGoldTrade"] > 0
    assert rivers["event:GoldTradeCompleted"] > 0
    deals = old_commands(OLD / "traders-and-barbarians-gold-deals-3.jsonl")
    assert deals["command:ProposeGoldTrade"] > 0
    assert deals["event:GoldTradeProposed"] > 0
