"""docs/protocol.md §11 says what the gateway answers: its table of lobby answers (route,
status, fields), the fields of a table and the line the gateway says when it listens are the
code's (the OpenAPI document the app makes, the Table type, `listening_line`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from services.gateway.app import build_app
from services.gateway.limits import retry_text
from services.gateway.listening import listening_line
from services.gateway.service import COMMAND_RATE
from services.gateway.tables import Table

ROOT = Path(__file__).parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SECTION = PROTOCOL[PROTOCOL.index("## §11"):PROTOCOL.index("## §12")]
ROW = re.compile(r"^\| `(GET|POST|DELETE) (/v1/\S+)` \| (\d{3}) \| (.+) \|$", re.M)


def openapi() -> dict[str, Any]:
    spec: dict[str, Any] = build_app("redis://unused").openapi_schema.to_schema()
    return spec


def test_the_lobby_answers_of_section_11_are_the_documented_ones() -> None:
    spec = openapi()
    rows = ROW.findall(SECTION)
    assert len(rows) == 7, rows
    for method, path, status, fields in rows:
        route = spec["paths"][path.replace("{id}", "{table_id}")][method.lower()]
        success = sorted(code for code in route["responses"] if code.startswith("2"))
        assert success == [status], (method, path, success)
        ref = route["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        named = set(re.findall(r"`(\w+)`", fields))
        assert named == set(spec["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]), (
            method, path, named)


def test_section_11_names_every_field_of_a_table() -> None:
    said = SECTION[SECTION.index("A table has "):]
    said = said[:said.index(".\n")]
    named = [n for n in re.findall(r"`(\w+)`", said)
             if n not in ("open", "starting", "live", "finished", "human", "bot", "kind",
                          "name", "pool")]
    assert named == list(Table.__struct_fields__), named


def test_the_listening_line_quoted_is_the_gateways() -> None:
    quoted = re.search(r"`(hexlog: gateway listening on [^`]+)`", " ".join(SECTION.split()))
    assert quoted is not None
    assert quoted.group(1) == f"hexlog: {listening_line('127.0.0.1', 8080)}"
    operations = " ".join((ROOT / "docs" / "operations.md").read_text().split())
    assert f"`hexlog: {listening_line('0.0.0.0', 8080)}`" in operations


def test_the_rate_refusal_quoted_is_the_gateways() -> None:
    assert f"(`{COMMAND_RATE}; {retry_text(0.04)}`)" in " ".join(SECTION.split())
