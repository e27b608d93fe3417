"""The rules: a pure decider (`engine`) and the service that runs it over Redis."""

import os

from services.rules import build as _build

# The compiled engine (scripts/build_engine.py) is used unless HEXLOG_ENGINE=interpreted asks
# for the source, or the source changed since the build (old rules must not run). STALE names
# those sources, looked up once per process (`hexlog` reports them: services/cli/main.py).
STALE: tuple[str, ...] = tuple(_build.stale())
if os.environ.get("HEXLOG_ENGINE") == "interpreted" or STALE:
    _build.install_interpreted_finder()
