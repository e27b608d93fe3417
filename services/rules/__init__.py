"""The rules: a pure decider (`engine`) and the service that runs it over Redis."""

import os

from services.rules import build as _build

# The compiled engine (scripts/build_engine.py) is used unless HEXLOG_ENGINE=interpreted asks
# for the source, or the source changed since the build (old rules must not run).
if os.environ.get("HEXLOG_ENGINE") == "interpreted" or _build.stale():
    _build.install_interpreted_finder()
