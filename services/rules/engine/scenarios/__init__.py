"""Scenario rule modules: each file exports `MODULE`, a `Module` instance."""
