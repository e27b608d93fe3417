"""docs/protocol.md names the keys, groups and fields the code uses: a rename in the code that
leaves the document behind fails here (the plain bot, written from the document, would too).
Its tables of stages, command types and View fields (§12) are made from the code by `hexlog
schemas`: they fail here when they differ from what the code makes now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from events.auth import MAC_FIELD
from events.prompts import View
from events.registry import COMMANDS, load
from services.cli.main import main
from services.protocol import (
    DATA,
    PROMPT_GROUP,
    SENT,
    SERVICE_TTL_S,
    alive_key,
    heartbeat_key,
    pool_key,
    prompts_key,
)
from services.protocol_doc import SECTION, DocError, fill
from services.rules.engine.modules import declared_stages
from services.store.keys import PARTITIONS, commands_key

ROOT = Path(__file__).parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
AGAIN = "run `hexlog schemas --out docs/schemas`, which makes them again"


def generic(name: str) -> str:
    """`hexlog:{007}:prompts:bot:X` -> `hexlog:{p}:prompts:bot:<pool>`."""
    return name.replace("{007}", "{p}").replace(":X", ":<pool>").replace(":C", ":<consumer>")


def test_every_key_a_bot_uses_is_documented_by_its_name() -> None:
    for key in (prompts_key(7, "bot:X"), commands_key(7, "bot:X"), pool_key("bot:X"),
                alive_key("bots:X"), heartbeat_key("bots:X", "C"), commands_key(7)):
        assert f"`{generic(key)}" in DOC, generic(key)


def test_the_group_fields_and_numbers_are_the_codes() -> None:
    assert f"consumer group `{PROMPT_GROUP}`" in DOC
    assert f"XGROUP CREATE hexlog:{{p}}:prompts:bot:<pool> {PROMPT_GROUP} 0 MKSTREAM" in DOC
    assert f"* {DATA} <data> {MAC_FIELD} <mac>" in DOC
    assert f"`{SENT}`" in DOC
    assert f"EX {SERVICE_TTL_S}" in DOC
    assert f"{PARTITIONS} partitions" in DOC


def sections(text: str) -> dict[str, str]:
    return {name: body for name, body in SECTION.findall(text)}


def test_the_generated_sections_are_the_codes() -> None:
    made = sections(fill(DOC))
    for name, body in sections(DOC).items():
        assert body == made[name], f"docs/protocol.md, section {name!r} differs from the code: {AGAIN}"


def test_the_tables_name_every_stage_command_and_view_field() -> None:
    """What the tables must hold, read from the code by other means than the generator."""
    tables = sections(DOC)
    load()  # every wire module, so COMMANDS holds every command type
    for stage, (module, _) in declared_stages().items():
        assert f"| `{stage}` | {module} |" in tables["stages"], stage
    listed = set(re.findall(r"`([A-Za-z]+)`", tables["commands"]))
    assert set(COMMANDS) <= listed, sorted(set(COMMANDS) - listed)
    for field in View.__struct_fields__:
        assert f"| `{field}` |" in tables["view"], field
    assert "| `robber` | integer | the id of the hex the robber stands on" in tables["view"]


def test_a_stale_section_is_made_again_and_the_rest_left_as_it_is() -> None:
    stale = DOC.replace("| `setup_road` |", "| `setup` |").replace("| `robber` | integer |",
                                                                   "| `robber` | string |")
    assert stale != DOC
    hand_written = SECTION.sub("", DOC)
    assert fill(stale) == DOC
    assert SECTION.sub("", fill(stale)) == hand_written


@pytest.mark.parametrize(("markers", "why"), [
    ("<!-- generated: players -->\nx\n<!-- end generated -->\n", "unknown players"),
    ("<!-- generated: view -->\nx\n<!-- end generated -->\n", "twice view"),
], ids=["unknown", "twice"])
def test_markers_the_code_does_not_make_are_refused(markers: str, why: str) -> None:
    with pytest.raises(DocError, match=why):
        fill(DOC + markers)


def test_a_document_without_a_section_is_refused() -> None:
    without = DOC.replace("<!-- generated: commands -->", "<!-- commands -->")
    with pytest.raises(DocError, match="without markers commands"):
        fill(without)


def test_schemas_check_fails_on_a_stale_document_and_says_how_to_remake_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "protocol.md"
    doc.write_text(DOC.replace("| `trade_answer` |", "| `answer` |"), encoding="utf-8")
    schemas = str(ROOT / "docs" / "schemas")
    assert main(["schemas", "--check", "--out", schemas, "--doc", str(doc)]) == 1
    assert f"{doc} differ from the code; run `hexlog schemas --out {schemas} --doc {doc}`" \
        in capsys.readouterr().err
    assert main(["schemas", "--out", str(tmp_path / "schemas"), "--doc", str(doc)]) == 0
    assert doc.read_text(encoding="utf-8") == DOC
    assert main(["schemas", "--check", "--out", schemas, "--doc", str(doc)]) == 0
