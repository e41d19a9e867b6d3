"""The published site: versions installed without loss, one publisher at a time, trends."""
