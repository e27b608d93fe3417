"""docs/ladder.md is all a bot author reads: every route it names is one the gateway serves
(its OpenAPI document), every ladder route the gateway serves is in it, and the fields it gives
the registration's answer and a bot are the code's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from services.gateway.app import build_app
from services.gateway.ladder_messages import Registered
from services.ladder.records import PublicBot

DOC = (Path(__file__).parents[2] / "docs" / "ladder.md").read_text(encoding="utf-8")
ROUTE = re.compile(r"`(GET|POST|DELETE) (/[a-z0-9/{}._-]+)")


def openapi() -> dict[str, Any]:
    spec: dict[str, Any] = build_app("redis://unused").openapi_schema.to_schema()
    return spec


def served() -> set[tuple[str, str]]:
    out = set()
    for path, methods in openapi()["paths"].items():
        if "ladder" in path:
            generic = re.sub(r"\{\w+\}", "{id}", path).replace("{id}/commands", "{game}/commands")
            for method in methods:
                out.add((method.upper(), generic))
    return out


def documented() -> set[tuple[str, str]]:
    out = set()
    for method, path in ROUTE.findall(DOC):
        out.add((method, re.sub(r"\{\w+\}", "{id}", path).rstrip("/.")))
    return out


def test_every_route_the_doc_names_is_served_and_every_ladder_route_is_named() -> None:
    norm = {(m, re.sub(r"\{\w+\}", "{id}", p)) for m, p in served()}
    doc = {(m, p.split("?")[0]) for m, p in documented()}
    assert doc - norm == set(), "documented but not served"
    missing = norm - doc
    # `…/events` and `…/stream` of a game, and the pages, are named in the tables by their
    # shorter forms (`…/events`, `/ladder.html`): every served one must still appear.
    for method, path in sorted(missing):
        tail = path.rsplit("/", 1)[-1]
        assert f"/{tail}`" in DOC or f"…/{tail}" in DOC, (method, path)


def test_the_registration_answer_and_a_bot_have_the_documented_fields() -> None:
    assert set(Registered.__struct_fields__) == {"bot", "token"}
    shown = re.search(r'\{"bot": \{("id".+?)\},\n "token"', DOC, re.S)
    assert shown is not None
    named = set(re.findall(r'"(\w+)":', shown.group(1)))
    assert named == set(PublicBot.__struct_fields__)
