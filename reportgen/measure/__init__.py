"""The engine: runs x gold -> per-question measures."""
