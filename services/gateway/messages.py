"""The gateway's request and response bodies (msgspec Structs: Litestar decodes and documents
them as they are). Requests refuse unknown fields; sizes and ranges are bounded here, nesting
before decoding (limits.nested_deeper).

Every lobby answer has one shape: an object whose `table` is the table as anyone sees it now
(`tables` for the listing), beside the route's own fields (`owner_token`; `seat` and `token`;
`seat` and `forfeited`). A client reads a table from the same place whichever route it called."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from events.events import ModuleSpec
from services.gateway.tables import Name, Pool, Table

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=r"^[!-~]+$")]


class CreateTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    seats: Annotated[int, msgspec.Meta(ge=2, le=4)] = 4
    modules: Annotated[list[ModuleSpec], msgspec.Meta(max_length=16)] = []
    bots: Annotated[dict[int, Pool], msgspec.Meta(max_length=4)] = {}  # seat -> bot pool
    deadline_ms: Annotated[int, msgspec.Meta(ge=0, le=86_400_000)] = 0  # 0: the service's
    turn_limit: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0  # 0: the service's


class TableCreated(msgspec.Struct, kw_only=True):
    """`POST /v1/tables`: the new table and the token that owns it."""

    table: Table
    owner_token: str


class TableAnswer(msgspec.Struct, kw_only=True):
    """`GET /v1/tables/{id}`, `POST …/start`, `DELETE …/seats/{seat}`: the table now."""

    table: Table


class TableList(msgspec.Struct, kw_only=True):
    """`GET /v1/tables`: the newest tables, newest first."""

    tables: list[Table]


class JoinTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: Name
    seat: Annotated[int, msgspec.Meta(ge=0, le=3)] | None = None


class Joined(msgspec.Struct, kw_only=True):
    """`POST …/join`: the table with the new holder, the seat taken and its seat token."""

    table: Table
    seat: int
    token: str


class StartTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    fill: Pool = "heuristic"  # the bot pool that takes every open seat


class CommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    command: dict[str, Any]  # a Command (docs/schemas/command.schema.json), `seat` = yours
    expected_version: Annotated[int, msgspec.Meta(ge=0)]
    command_id: CommandId | None = None  # default: a new id; give one to retry safely


class CommandResult(msgspec.Struct, kw_only=True, omit_defaults=True):
    status: Literal["accepted", "rejected", "pending"]
    command_id: str
    version: int = 0  # accepted: the game's version after it; rejected: the version judged
    rule_id: str = ""
    message: str = ""


class Left(msgspec.Struct, kw_only=True):
    """`POST …/leave`: the table now, the seat given back, and whether that forfeited it
    (after the start)."""

    table: Table
    seat: int
    forfeited: bool


class Health(msgspec.Struct, kw_only=True):
    status: Literal["ok", "unavailable"]
    redis: bool = True
    rules: bool = True


class ErrorBody(msgspec.Struct):
    """Every error: one line, `<field>: <why>`."""

    error: str
