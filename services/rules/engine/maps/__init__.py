"""Maps as data (TOML), validated at load; the schema is in services/rules/engine/mapdata.py."""
