"""`module_state(referee=...)`: a module's secrets kept in its own state reach the referee's view, and only it."""

from __future__ import annotations

from typing import Any

import msgspec
from toy import toy

from services.rules.engine import view
from services.rules.engine.modstate import StateKey
from services.rules.engine.state import Rules, State


class Secrets(msgspec.Struct):
    values: list[int]


SECRETS = StateKey("toy-secrets", Secrets)


def test_a_modules_secrets_reach_the_referee_view_only() -> None:
    def install(rules: Rules) -> None:
        def public(state: State, seat: int | None) -> dict[str, Any]:
            secrets = SECRETS.of(state).values
            return {"count": len(secrets), "mine": None if seat is None else secrets[seat]}

        rules.module_state(SECRETS, lambda state, created: Secrets([3, 1]), view=public,
                           referee=lambda state: {"all": list(SECRETS.of(state).values)})

    t = toy("toy-secrets", install, seats=2)
    assert view(t.state, 0).ext["toy-secrets"] == {"count": 2, "mine": 3}
    assert view(t.state, None).ext["toy-secrets"] == {"count": 2, "mine": None}
    assert view(t.state, None, referee=True).ext["toy-secrets"] == {
        "count": 2, "mine": None, "all": [3, 1]}
