"""Beyond one process: shards cut by question, merged back, and runs read in blocks."""
