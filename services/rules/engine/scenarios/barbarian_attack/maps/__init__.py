"""The Barbarian Attack map (barbarian-attack.toml)."""
