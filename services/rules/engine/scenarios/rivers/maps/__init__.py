"""The Rivers of Catan map (rivers.toml)."""
