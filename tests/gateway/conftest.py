"""The gateway tests' fixtures live in gateway_fixtures.py (tests/chat uses them too)."""

from gateway_fixtures import gateway, services, start_gateway  # noqa: F401
