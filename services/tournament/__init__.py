"""Bot tournaments: fair pods, every seat rotation on one seed (duplicate format), ratings."""
