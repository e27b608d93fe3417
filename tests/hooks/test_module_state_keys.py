"""Module state is declared by type (engine/modstate.py): a msgspec Struct or a plain value. The
engine copies, dumps and loads it from the type, so no module writes that code by hand, and a
class that would need it is refused when the key is made."""

from __future__ import annotations

import msgspec
import pytest

from events.events import ModuleSpec
from services.rules.engine.modstate import StateKey
from services.rules.engine.modules import MODULES, build_ruleset


class Tower(msgspec.Struct):
    lit: list[list[int]]
    beacons: set[int] = msgspec.field(default_factory=set)
    owners: dict[int, int] = msgspec.field(default_factory=dict)


class HandMade:
    """A state class with its own copy: what modules wrote before state had to be a Struct."""

    def copy(self) -> HandMade:
        return HandMade()


def test_a_class_that_is_not_a_struct_is_refused_with_the_reason() -> None:
    with pytest.raises(TypeError, match="towers: a module state is a msgspec Struct or a plain"):
        StateKey("towers", HandMade)


def test_a_struct_state_is_copied_deep_and_dumped_canonically() -> None:
    key = StateKey("towers", Tower)
    tower = Tower(lit=[[3, 1], []], beacons={9, 2}, owners={5: 1})
    copy = key.copy(tower)
    assert isinstance(copy, Tower)
    assert copy == tower
    copy.lit[0].append(7)
    assert tower.lit == [[3, 1], []], "a copy shares no list with the original"
    dumped = key.dump(tower)
    assert dumped == {"lit": [[3, 1], []], "beacons": [2, 9], "owners": {"5": 1}}
    assert msgspec.json.decode(msgspec.json.encode(dumped)) == dumped
    assert key.load(dumped) == tower


def test_a_plain_state_is_kept_as_it_is() -> None:
    key = StateKey("holder", int)
    assert key.copy(3) == 3
    assert key.dump(3) == 3
    assert key.load(3) == 3


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_shipped_module_state_is_typed(name: str) -> None:
    """No shipped module keeps a state the engine cannot copy, dump and load from its type."""
    rules = build_ruleset("base", (ModuleSpec(name),))
    for key_name, key in rules.states.keys.items():
        kind = key.kind
        assert key.plain or issubclass(kind, msgspec.Struct), f"{name}: {key_name} is {kind}"
