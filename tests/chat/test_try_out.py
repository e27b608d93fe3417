"""`--homeserver local` without matrix-synapse installed says what to install, in one line
(the module is hidden from the import system here, as if it were not installed)."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

import pytest

from services.chat.local_synapse import missing


class Hidden(importlib.abc.MetaPathFinder):
    """Finds `names` nowhere, as if they were not installed."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] in self.names:
            raise ModuleNotFoundError(name)
        return None


def test_a_missing_synapse_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    assert missing() == ""  # the dev environment has it
    monkeypatch.delitem(sys.modules, "synapse", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Hidden("synapse"), *sys.meta_path])
    assert missing() == ("--homeserver local needs matrix-synapse: "
                         "pip install 'hexlog[chat-local]'")
