"""report.json: its sections assembled from findings, and merged from shards."""
