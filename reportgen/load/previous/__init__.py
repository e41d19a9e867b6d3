"""What reportgen wrote before, read back: baselines, sites' history, shards, merge data."""
