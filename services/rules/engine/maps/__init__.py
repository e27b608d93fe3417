"""Maps as data (TOML), validated at load."""
