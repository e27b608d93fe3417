"""Read models rebuilt from the log: game summaries and tournament standings."""
