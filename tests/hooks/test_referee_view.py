"""`referee_ext`: a module's secrets kept in its own state reach the referee's view, and only it."""

from __future__ import annotations

from typing import Any

from toy import toy

from services.rules.engine import view
from services.rules.engine.state import Rules, State


def test_a_modules_secrets_reach_the_referee_view_only() -> None:
    def install(rules: Rules) -> None:
        rules.ext("toy-secrets", lambda state, created: [3, 1], list)

        def public(state: State, seat: int | None) -> dict[str, Any]:
            secrets: list[int] = state.ext["toy-secrets"]
            return {"count": len(secrets), "mine": None if seat is None else secrets[seat]}

        rules.view_ext["toy-secrets"] = public
        rules.referee_ext["toy-secrets"] = lambda state: {"all": list(state.ext["toy-secrets"])}

    t = toy("toy-secrets", install, seats=2)
    assert view(t.state, 0).ext["toy-secrets"] == {"count": 2, "mine": 3}
    assert view(t.state, None).ext["toy-secrets"] == {"count": 2, "mine": None}
    assert view(t.state, None, referee=True).ext["toy-secrets"] == {
        "count": 2, "mine": None, "all": [3, 1]}
