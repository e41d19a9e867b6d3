"""The options of `reportgen report` for evidence spans: chunk maps, the documents, the
coverage that makes a chunk relevant, and which questions the drill-down explains.

Kept apart from cli_options.py so that each module stays short; `report_options`
places them after --manifest-format.
"""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.analyse.drilldown import EXPLAIN_MODES
from reportgen.load.evidence.chunks import CHUNK_MAP_FORMATS
from reportgen.measure.spans import DEFAULT_MIN_COVERAGE

CHUNK_MAP_OPTIONS = (
    click.option(
        "--chunks",
        multiple=True,
        metavar="[NAME=]PATH",
        help="Chunk map (JSONL, CSV or Parquet: chunk_id, doc, start, end, optionally text "
        "and the manifest's metadata) of every run, or NAME=PATH of one run; repeatable, to "
        "compare chunkings. The gold set's evidence spans are judged through it; shared by "
        "every run, it also serves as the manifest.",
    ),
    click.option(
        "--chunks-format",
        type=click.Choice(CHUNK_MAP_FORMATS),
        default=None,
        help="Force the chunk maps' format instead of reading it from the extension.",
    ),
    click.option(
        "--docs",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Folder of the documents the evidence names (doc paths are relative to it): "
        "locates quotes, and shows the text sent for failed questions.",
    ),
)
"""The chunk maps and the documents: `report`, and `merge` (the shards' maps, again)."""

MIN_COVERAGE_OPTION = click.option(
    "--min-coverage",
    type=float,
    default=DEFAULT_MIN_COVERAGE,
    show_default=True,
    help="A chunk is relevant when it holds this share of an evidence range, or this "
    "share of the chunk is evidence.",
)

EXPLAIN_OPTION = click.option(
    "--explain",
    type=click.Choice(EXPLAIN_MODES),
    default="failures",
    show_default=True,
    help="Which questions get a folded panel with the text of the chunks sent (needs "
    "chunk text: a text column or --docs): the generation and retrieval failures, all, "
    "or none.",
)

SPAN_OPTIONS = (*CHUNK_MAP_OPTIONS, MIN_COVERAGE_OPTION, EXPLAIN_OPTION)
