"""Whether a comparison may be about the gold set rather than the runs.

A run that surfaces chunks nobody judged loses on every measure for it, relevant or
not. When the two sides of a comparison differ by more than UNJUDGED_GAP in
judged@k_ctx (on the questions both count), their difference may reflect unjudged
chunks, and every output says so next to the comparison's label.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from reportgen.analyse.compare import round_value

UNJUDGED_GAP = 0.10
UNJUDGED_NOTE = "may reflect unjudged chunks"


def judged_gap(before: pl.DataFrame, after: pl.DataFrame, context_k: int) -> dict[str, Any] | None:
    """judged@k_ctx on each side over the questions both count, and whether the gap
    warrants the note; None when a side has no judged@k (a baseline made before it)."""
    key = f"judged@{context_k}"
    if key not in before.columns or key not in after.columns:
        return None
    paired = (
        after.lazy()
        .select("qid", key)
        .join(before.lazy().select("qid", pl.col(key).alias("_before")), on="qid", how="inner")
    )
    count, then, now = (
        paired.select(pl.len(), pl.col("_before").mean(), pl.col(key).mean()).collect().row(0)
    )
    if count == 0:
        return None
    # rounded first, so that 0.5 against 0.4 is exactly 0.1, not a float above it
    difference = round_value(float(now) - float(then))
    return {
        "key": key,
        "before": round_value(then),
        "after": round_value(now),
        "difference": difference,
        "unjudged": abs(difference) > UNJUDGED_GAP,
    }
