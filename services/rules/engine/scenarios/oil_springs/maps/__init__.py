"""Oil Springs' map files."""
