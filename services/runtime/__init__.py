"""Process runtime helpers: the embedded Valkey used when no external Redis is configured."""
