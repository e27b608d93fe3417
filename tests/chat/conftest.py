"""The chat tests run a real gateway (tests/gateway/gateway_fixtures.py) and a real Synapse."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "gateway"))

from gateway_fixtures import gateway, services, start_gateway  # noqa: E402, F401
