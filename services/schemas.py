"""JSON Schemas of what travels between hexlog and a bot (or any client), made from the
msgspec types themselves, so the documents cannot say other than the code.

`docs/schemas/` holds them (`hexlog schemas --out docs/schemas` writes them again; a test fails
when the committed files and the code differ). One self-contained file per message, each with
its own `$defs`:

    prompt.schema.json            the `prompt` field of a prompt entry (events.prompts.Prompt)
    view.schema.json              the `view` field (events.prompts.View)
    command.schema.json           any command (tagged union on `type`, events.commands + modules)
    command-envelope.schema.json  the `__data__` of a command entry (events.envelope)
    event.schema.json             any event (tagged union on `type`)
    event-envelope.schema.json    an entry of a game's log (`__data__` of hexlog:{p}:g:<game>:ev)
    board-base.json               the standard map's hex, vertex and edge ids (not a schema: the
                                  reference a bot needs to read `BuildRoad(edge=74)`)

docs/protocol.md's tables of stages, command types and View fields are made from the code
too, by services/protocol_doc.py (the same command writes them).

The Python types name a base class (`Command`, `Event`) where any command or event may stand
(a prompt's options, an envelope's command); the schemas put the union of every concrete type
there, as the codec decodes it.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

import services.rules.engine  # noqa: F401  (loads every module, so every message type exists)
from events.codec import codec
from events.envelope import CommandEnvelope, EventEnvelope
from events.prompts import Prompt, View

DIALECT = "https://json-schema.org/draft/2020-12/schema"
REF = "#/$defs/{name}"


def _unions() -> dict[str, Any]:
    c = codec()
    return {"Command": c.command_union, "Event": c.event_union}


def _messages() -> dict[str, tuple[Any, str]]:
    unions = _unions()
    return {
        "prompt": (Prompt, "What a seat must decide: its legal commands and the default."),
        "view": (View, "A seat's picture of the game (hidden information removed)."),
        "command": (unions["Command"], "Any command, tagged by `type` (the class name)."),
        "command-envelope": (CommandEnvelope, "A command as sent: `__data__` of a command "
                                              "stream entry, signed by its `mac` field."),
        "event": (unions["Event"], "Any event, tagged by `type` (the class name)."),
        "event-envelope": (EventEnvelope, "One entry of a game's log, as stored."),
    }


def schema(kind: type | Any, title: str, description: str) -> dict[str, Any]:
    """One self-contained JSON Schema document for `kind`."""
    (root,), defs = msgspec.json.schema_components([kind], ref_template=REF)
    unions = _unions()
    while bases := [b for b in unions if b in defs and "anyOf" not in defs[b]]:
        for base in bases:
            (union,), more = msgspec.json.schema_components([unions[base]], ref_template=REF)
            defs.update({k: v for k, v in more.items() if k not in unions})
            defs[base] = {"title": base, "description": defs[base].get("description", ""),
                          **union}
    if "$ref" in root and "anyOf" not in root:
        root = {"$ref": root["$ref"]}
    return {"$schema": DIALECT, "$id": f"{title}.schema.json", "title": title,
            "description": description, **root, "$defs": dict(sorted(defs.items()))}


def board_reference() -> str:
    """The ids of the standard map (docs/rules/README.md §0.1 says how they are made): one
    line per hex, vertex and edge, with its hexes `[q, r]`."""
    from services.rules.engine import layout
    from services.rules.engine.board import Board

    topo = Board(*layout.beginner()).topo
    hexes = [{"id": i, "hex": list(h), "land": topo.hex_is_land[i]} for i, h in enumerate(topo.hexes)]
    vertices = [{"id": i, "hexes": [list(h) for h in v], "land": topo.vertex_is_land[i],
                 "coastal": topo.vertex_is_coastal[i], "edges": list(topo.vertex_edges[i])}
                for i, v in enumerate(topo.vertices)]
    edges = [{"id": i, "hexes": [list(h) for h in e], "land": topo.edge_is_land[i],
              "vertices": list(topo.edge_vertices[i])} for i, e in enumerate(topo.edges)]

    def rows(items: list[dict[str, Any]]) -> str:
        return "[\n" + ",\n".join("    " + json.dumps(x) for x in items) + "\n  ]"

    return ('{\n  "map": "base",\n  "about": "ids of hexes, vertices and edges on the standard '
            'map; hexes are axial [q, r]; see docs/rules/README.md section 0.1",\n'
            f'  "hexes": {rows(hexes)},\n  "vertices": {rows(vertices)},\n'
            f'  "edges": {rows(edges)}\n}}\n')


def generate() -> dict[str, str]:
    """File name -> text of every file of docs/schemas/."""
    files = {f"{name}.schema.json": json.dumps(schema(kind, name, text), indent=2) + "\n"
             for name, (kind, text) in _messages().items()}
    files["board-base.json"] = board_reference()
    return files
