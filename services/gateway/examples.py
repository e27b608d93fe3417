"""What the OpenAPI document shows of each lobby route's answer: its body type and one example
built from the same types (so an example cannot drift from the body it illustrates; a test
checks both against real answers)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example

from events.events import ModuleSpec
from services.gateway.messages import Joined, Left, TableAnswer, TableCreated, TableList
from services.gateway.tables import Seat, Table

CREATED_AT = 1767225600.0  # 2026-01-01T00:00:00Z
TABLE_ID = "t-5f0c9a1e2b3d"
TOKEN = "kqB0v9bq1xkq0K4y0vQpZ9sH8m3yX2c1dE5fG6hJ7kA"  # 43 characters, like every token

MODULES = (ModuleSpec(name="victory-points", params={"target": 8}),)


def table(*seats: Seat, live: bool = False) -> Table:
    """The example table: four seats as given (open ones for the rest), open or live."""
    filled = [*seats, *(Seat() for _ in range(4 - len(seats)))]
    return Table(id=TABLE_ID, status="live" if live else "open", seats=filled, modules=MODULES,
                 deadline_ms=60_000, created_at=CREATED_AT,
                 expires_at=None if live else CREATED_AT + 1800,
                 game_id=TABLE_ID if live else "")


ANN = Seat(kind="human", name="ann")
BOTS = [Seat(kind="bot", name=f"heuristic{i}", pool="heuristic") for i in (1, 2, 3)]

EXAMPLES: dict[str, msgspec.Struct] = {
    "list": TableList(tables=[table(ANN)]),
    "create": TableCreated(table=table(), owner_token=TOKEN),
    "get": TableAnswer(table=table(ANN)),
    "join": Joined(table=table(ANN), seat=0, token=TOKEN),
    "remove": TableAnswer(table=table()),
    "leave": Left(table=table(), seat=0, forfeited=False),
    "start": TableAnswer(table=table(ANN, *BOTS, live=True)),
}


def documented(route: str, status: int, description: str) -> dict[int, ResponseSpec]:
    """The route's success answer for the OpenAPI document: its type, what it is, an example."""
    body = EXAMPLES[route]
    value: Any = msgspec.to_builtins(body)
    return {status: ResponseSpec(data_container=type(body), description=description,
                                 generate_examples=False,
                                 examples=[Example(summary=f"{route}: {description}",
                                                   value=value)])}
