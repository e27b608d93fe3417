"""The lobby answers in one shape, and says so: every lobby route's 2xx body is a documented
type with an example in the OpenAPI document, each example fits its schema, and real answers
have exactly the documented fields (the table always under `table`, the listing under
`tables`). A route that needs a token refuses a request without one (or with another kind of
Authorization) with 401, before it reads the body: an empty POST gets 401, not 400."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest
from helpers import call, error, new_table

from services.gateway.routes import ROUTES, token_needed

# (method, path in the document, success status)
LOBBY = [
    ("get", "/v1/tables", "200"),
    ("post", "/v1/tables", "201"),
    ("get", "/v1/tables/{table_id}", "200"),
    ("post", "/v1/tables/{table_id}/join", "201"),
    ("delete", "/v1/tables/{table_id}/seats/{seat}", "200"),
    ("post", "/v1/tables/{table_id}/leave", "200"),
    ("post", "/v1/tables/{table_id}/start", "200"),
]


def openapi(base: str) -> dict[str, Any]:
    spec: dict[str, Any] = call(base, "GET", "/v1/openapi/openapi.json").json()
    return spec


def documented(spec: dict[str, Any], method: str, path: str, status: str) -> dict[str, Any]:
    """The JSON body a route documents for `status`: its schema (refs resolvable) and examples."""
    answer = spec["paths"][path][method]["responses"][status]
    body: dict[str, Any] = answer["content"]["application/json"]
    return body


def check(spec: dict[str, Any], schema: dict[str, Any], value: Any, example: bool = False) -> None:
    """`value` fits `schema` (its refs resolved in the document) and has exactly the fields the
    schema names, at the top and in each table. An example may leave out a null field: the
    OpenAPI document drops nulls from every value it holds."""
    jsonschema.validate(value, {**schema, "components": spec["components"]})
    name = schema["$ref"].rsplit("/", 1)[1]
    same_fields(spec, name, value, example)
    for table in [value["table"]] if "table" in value else value["tables"]:
        same_fields(spec, "Table", table, example)


def same_fields(spec: dict[str, Any], name: str, value: dict[str, Any], example: bool) -> None:
    fields = spec["components"]["schemas"][name]["properties"]
    left_out = set(fields) - set(value)
    if example:
        left_out = {f for f in left_out if {"type": "null"} not in fields[f].get("oneOf", [])}
    assert set(value) <= set(fields), (name, sorted(value), sorted(fields))
    assert not left_out, (name, sorted(left_out))


def test_every_lobby_route_documents_its_answer_with_an_example(gateway: str) -> None:
    spec = openapi(gateway)
    for method, path, status in LOBBY:
        body = documented(spec, method, path, status)
        assert "$ref" in body["schema"], (path, body)
        examples = list(body.get("examples", {}).values())
        assert examples, f"{method} {path}: no example"
        for example in examples:
            check(spec, body["schema"], example["value"], example=True)
        wrapped = "tables" if path == "/v1/tables" and method == "get" else "table"
        assert wrapped in examples[0]["value"], (path, examples[0])


def test_real_lobby_answers_have_the_documented_shape(gateway: str) -> None:
    spec = openapi(gateway)

    def answered(r: httpx.Response, method: str, path: str) -> dict[str, Any]:
        status = next(s for m, p, s in LOBBY if (m, p) == (method, path))
        assert str(r.status_code) == status, (path, r.status_code, r.text)
        body: dict[str, Any] = r.json()
        check(spec, documented(spec, method, path, status)["schema"], body)
        return body

    made = answered(call(gateway, "POST", "/v1/tables", {"seats": 3, "deadline_ms": 60_000}),
                    "post", "/v1/tables")
    table, owner = made["table"]["id"], made["owner_token"]
    shown = answered(call(gateway, "GET", f"/v1/tables/{table}"), "get", "/v1/tables/{table_id}")
    assert shown["table"] == made["table"]
    ann = answered(call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann"}),
                   "post", "/v1/tables/{table_id}/join")
    assert ann["table"]["seats"][ann["seat"]] == {"kind": "human", "name": "ann", "pool": ""}
    bob = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "bob"}).json()
    cid = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "cid"}).json()
    freed = answered(call(gateway, "DELETE", f"/v1/tables/{table}/seats/{bob['seat']}",
                          token=owner), "delete", "/v1/tables/{table_id}/seats/{seat}")
    assert freed["table"]["seats"][bob["seat"]]["kind"] == "open"
    left = answered(call(gateway, "POST", f"/v1/tables/{table}/leave", token=cid["token"]),
                    "post", "/v1/tables/{table_id}/leave")
    assert (left["seat"], left["forfeited"]) == (cid["seat"], False)
    assert left["table"]["seats"][cid["seat"]]["kind"] == "open"
    listed = answered(call(gateway, "GET", "/v1/tables"), "get", "/v1/tables")
    assert table in [t["id"] for t in listed["tables"]]
    started = answered(call(gateway, "POST", f"/v1/tables/{table}/start", {"fill": "random"},
                            token=owner), "post", "/v1/tables/{table_id}/start")
    assert started["table"]["status"] in ("live", "finished")
    assert [s["kind"] for s in started["table"]["seats"]] == ["human", "bot", "bot"]
    gone = answered(call(gateway, "POST", f"/v1/tables/{table}/leave", token=ann["token"]),
                    "post", "/v1/tables/{table_id}/leave")
    assert gone["forfeited"] is True


def token_routes() -> list[tuple[str, str]]:
    """(method, path) of every route guarded by `token_needed`, a table's id filled in."""
    found = []
    for handler in ROUTES:
        if token_needed in (handler.guards or []):
            for path in handler.paths:
                for method in handler.http_methods:
                    found.append((method, path.replace("{table_id:str}", "{table}")
                                  .replace("{seat:int}", "1")))
    return sorted(found)


def test_the_routes_that_need_a_token_are_these() -> None:
    """A route that takes a token and lost its guard would answer 400 to an empty POST again."""
    assert token_routes() == [("DELETE", "/v1/tables/{table}/seats/1"),
                              ("POST", "/v1/tables/{table}/commands"),
                              ("POST", "/v1/tables/{table}/leave"),
                              ("POST", "/v1/tables/{table}/start")]


@pytest.mark.parametrize("authorization", [None, "", "Basic YW5uOnB3", "Bearer",
                                           "Bearer two words", "Token abc"])
def test_a_missing_or_malformed_token_is_401_before_the_body(gateway: str,
                                                             authorization: str | None) -> None:
    table, _ = new_table(gateway, seats=2)
    headers = {} if authorization is None else {"Authorization": authorization}
    with httpx.Client(base_url=gateway, timeout=30) as client:
        for method, path in token_routes():
            for target in (table, "t-000000000000", "not-a-table"):  # 401 before the 404
                url = path.format(table=target)
                for content in (b"", b"{", b"x" * 40_000):  # none, broken, over the limit
                    r = client.request(method, url, content=content, headers=headers)
                    assert r.status_code == 401, (method, url, len(content), r.text)
                    said = error(r)
                    if authorization is None:
                        assert said.startswith("authorization: "), said
                        assert " is needed " in said, said
                        assert "`Authorization: Bearer <token>`" in said, said
                    else:
                        assert said == "authorization: not `Bearer <token>`", said


def test_a_stream_with_a_malformed_authorization_is_401_not_a_spectator(gateway: str) -> None:
    """Another kind of Authorization is not taken for none (a spectator's stream)."""
    table, _ = new_table(gateway, seats=2)
    with httpx.Client(base_url=gateway, timeout=30) as client:
        r = client.get(f"/v1/tables/{table}/stream", headers={"Authorization": "Basic eDp5"})
    assert r.status_code == 401
    assert error(r) == "authorization: not `Bearer <token>`"
