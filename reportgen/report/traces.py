"""report.json's account of what reached the model: the chunks sent, and the traces read.

A trace or span export says more than a ranked list (which chunks were sent, which
traces matched no question); these sections keep that visible beside the numbers.
"""

from __future__ import annotations

from typing import Any

from reportgen.core.model import Run


def context_section(run: Run, context_k: int) -> dict[str, Any]:
    """The top k_ctx or the trace's context, and whether every list is shorter than k_ctx."""
    longest = run.longest_list
    return {
        "source": "top_k" if run.sent is None else "trace",
        "traced_questions": 0 if run.sent is None else run.sent.height,
        "longest_list": longest,
        "shorter_than_context_k": longest < context_k,
        "sent_not_retrieved": list(run.sent_unretrieved),
    }


def traces_section(run: Run) -> dict[str, Any] | None:
    """For a run read from spans: how many traces, how many had hops that started
    together, and every one left unmatched, with why."""
    if run.traces is None:
        return None
    return {
        "traces": run.traces,
        "tied_hops": len(run.tied_hops),
        "unmatched": [
            {"trace_id": u.trace_id, "reason": u.reason, "line": u.line}
            for u in run.unmatched_traces
        ],
    }
