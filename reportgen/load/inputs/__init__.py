"""The readers of a user's inputs: gold sets, runs, verdicts, traces, spans, manifests, config."""
