"""The options that say what to read: the inputs' formats, the chunk maps, the verdicts."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.cli.config import read_config_defaults
from reportgen.cli.options import INPUTS, VERDICTS, declare
from reportgen.load import GOLD_FORMATS, RUN_FORMATS, VERDICT_FORMATS
from reportgen.load.evidence.chunks import CHUNK_MAP_FORMATS

GOLD_FORMAT = declare(
    INPUTS,
    "--gold-format",
    type=click.Choice(GOLD_FORMATS),
    default=None,
    help="Force the gold set's format instead of detecting it.",
)
RUN_FORMAT = declare(
    INPUTS,
    "--run-format",
    type=click.Choice(RUN_FORMATS),
    default=None,
    help="Force every run's format instead of detecting it.",
)
TRACE_QUESTION_KEY = declare(
    INPUTS,
    "--trace-question-key",
    default=None,
    metavar="ATTRIBUTE",
    help="For OpenTelemetry or Phoenix span exports given as runs: the span attribute "
    "holding the gold question id (e.g. metadata.question_id; looked up inside a JSON "
    "metadata attribute too). Traces without it are matched by exact question text.",
)
SPAN_DOC_KEY = declare(
    INPUTS,
    "--span-doc-key",
    default=None,
    metavar="KEY",
    help="For span exports whose documents carry no document.id (LangChain's "
    "OpenInference spans): where each document's chunk id is, e.g. metadata.chunk_id "
    "(looked up inside a JSON metadata attribute too).",
)
QUESTION_META = declare(
    INPUTS,
    "--question-meta",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="The questions' own fields (language, product area, tags) for --slice-by and "
    "--cluster-by, in a JSON Lines or CSV file keyed by question id: for a gold set that "
    "holds none (TREC qrels, BEIR).",
)
CONFIG = declare(
    INPUTS,
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    is_eager=True,
    callback=lambda ctx, param, value: read_config_defaults(ctx, value),
    everyday=True,
    help="Settings file: any option of `reportgen report`, without the dashes, and the "
    "gate's rules (default: ./reportgen.toml, else [tool.reportgen] of ./pyproject.toml); "
    "a command takes the options it has. The command line wins.",
)
CHUNK_MAPS = (
    declare(
        INPUTS,
        "--chunks",
        multiple=True,
        metavar="[NAME=]PATH",
        help="Chunk map (JSONL, CSV or Parquet: chunk_id, doc, start, end, optionally text "
        "and the manifest's metadata) of every run, or NAME=PATH of one run; repeatable, "
        "to compare chunkings. The gold set's evidence spans are judged through it; shared "
        "by every run, it also serves as the manifest.",
    ),
    declare(
        INPUTS,
        "--chunks-format",
        type=click.Choice(CHUNK_MAP_FORMATS),
        default=None,
        help="Force the chunk maps' format instead of reading it from the extension.",
    ),
    declare(
        INPUTS,
        "--docs",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Folder of the documents the evidence names (doc paths are relative to it): "
        "locates quotes, and shows the text sent for failed questions.",
    ),
)
"""The chunk maps and the documents: `report`, and `merge` (the shards' maps, again)."""

VERDICTS_FILE = declare(
    VERDICTS,
    "--verdicts",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    multiple=True,
    everyday=True,
    help="End-to-end verdicts (was each answer correct?): adds the four cells. JSONL or "
    "CSV with id, correct[, run, abstained], promptfoo's results.json, a DeepEval test "
    "run, or a ragas results CSV. Repeatable: the same answers judged again (judge "
    "trials); the cells come from the majority, flaky questions are listed.",
)
VERDICTS_RUN = declare(
    VERDICTS,
    "--verdicts-run",
    default=None,
    everyday=True,
    help="Run whose top --context-k chunks were sent to the model "
    "(default: the run the verdicts name, else the first run).",
)
READ_VERDICTS = (
    declare(
        VERDICTS,
        "--verdict-format",
        type=click.Choice(VERDICT_FORMATS),
        default=None,
        help="Force the verdicts' format instead of detecting it.",
    ),
    declare(
        VERDICTS,
        "--verdict-metric",
        default=None,
        help="DeepEval: the metric whose success is the verdict (default: the test "
        "case's). ragas: the score column to threshold.",
    ),
    declare(
        VERDICTS,
        "--verdict-threshold",
        type=float,
        default=None,
        help="ragas: a score at or above this is a correct answer (e.g. 0.7).",
    ),
)
"""How to read the verdicts file: `report`, and `shard` (which cuts it)."""
