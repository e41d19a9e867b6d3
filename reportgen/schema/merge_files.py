"""The names of the files a shard writes into its merge/ folder.

Kept at the bottom floor because two layers read them: the merge data's reader and
writer (load/previous, report/) and the report folder's manifest (render/), which may
remove only files with reportgen's own names and may not import the loaders."""

from __future__ import annotations

MERGE_FOLDER = "merge"
FRAMES = (
    *("scores", "results", "gold_rows", "questions", "judgments", "forbidden", "evidence"),
    "attributes",
)
"""Written by every shard."""
OPTIONAL_FRAMES = ("returned", "sent", "verdicts", "verdict_trials", "replicate_scores")
"""Written when shard.json calls for them (see load/previous/merge_data.read_merge_data)."""
PPI_FRAMES = ("ppi_judgments", "ppi_values", "ppi_audit")
"""With --judgments (shard.json's ``judgments`` names the file): the shard's part of the
judge's grades, every run's values on them and the audit's marks."""
