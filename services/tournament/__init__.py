"""Bot tournaments: fair pods, every seat rotation on one seed (duplicate format), ratings."""

from services.tournament import projection  # noqa: E402,F401  (registers the standings projection)
