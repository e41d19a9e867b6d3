"""Text formats every reader shares: CSV, JSON(L), fields, ids, OTLP and Phoenix spans."""
