"""Each test's toy modules (toy.py) leave the catalogue when the test ends: a toy adds what a
shipped module adds too (oil, a second roll), and a later test that plays every module and
every pair of modules (tests/protocol/test_stages.py, in the same process on the compiled pass)
must not play it beside them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.rules.engine.modules import MODULES


@pytest.fixture(autouse=True)
def toys_leave_the_catalogue() -> Iterator[None]:
    before = dict(MODULES)
    yield
    for name in set(MODULES) - set(before):
        del MODULES[name]
