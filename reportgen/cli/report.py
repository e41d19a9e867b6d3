"""`reportgen report`: measure runs against a gold set and write the report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from reportgen.cli.command import command
from reportgen.cli.options import takes
from reportgen.cli.options.inputs import (
    CHUNK_MAPS,
    CONFIG,
    GOLD_FORMAT,
    QUESTION_META,
    READ_VERDICTS,
    RUN_FORMAT,
    SPAN_DOC_KEY,
    TRACE_QUESTION_KEY,
    VERDICTS_FILE,
    VERDICTS_RUN,
)
from reportgen.cli.options.labelling import JUDGMENTS
from reportgen.cli.options.measuring import (
    COMPARISONS,
    COST_PER_1K_CHARS,
    GATE,
    MIN_COVERAGE,
    SCORING,
    SLICES,
)
from reportgen.cli.options.outputs import (
    EXPLAIN,
    INDEX_VERSIONS,
    MANIFEST,
    MERGE_DATA,
    OUT,
    WRITTEN,
)
from reportgen.cli.request import report_request
from reportgen.cli.results import check_summary_wanted, run_request
from reportgen.errors import UsageError, printable
from reportgen.load.formats.vocabulary import is_trace_file

MEASURE = (OUT, *SCORING, *WRITTEN)
"""What `report` shares with `demo`: how to measure and what to write."""


@command
@takes(
    click.argument("gold", type=click.Path(path_type=Path)),
    click.argument("runs", nargs=-1),
    *MEASURE,
    GOLD_FORMAT,
    RUN_FORMAT,
    TRACE_QUESTION_KEY,
    SPAN_DOC_KEY,
    CONFIG,
    *CHUNK_MAPS,
    MIN_COVERAGE,
    COST_PER_1K_CHARS,
    VERDICTS_FILE,
    VERDICTS_RUN,
    *READ_VERDICTS,
    JUDGMENTS,
    *COMPARISONS,
    *GATE,
    *SLICES,
    QUESTION_META,
    EXPLAIN,
    *INDEX_VERSIONS,
    *MANIFEST,
    MERGE_DATA,
)
def report(gold: Path, runs: tuple[str, ...], **options: Any) -> None:
    """Measure RUNS against the GOLD set and write the report.

    Each RUN is NAME=PATH or PATH (named after the file): a ranked list, a trace
    file or a span export. With --verdicts, each judged question lands in one of
    four cells at --context-k; a failed quality rule exits 1 after the report is
    written.

    \b
    Examples:
      reportgen report gold.jsonl bm25=runs/bm25.trec rerank=runs/rerank.jsonl --out report/
      reportgen report gold.jsonl rerank=run.jsonl --baseline site/ --max-drop recall@5=0.02
      reportgen report gold.jsonl rerank=runs/rerank.jsonl --verdicts verdicts.jsonl

    \b
    More examples:
      reportgen report traces.jsonl --retrieved-when all --out report/
      reportgen report gold.jsonl spans.jsonl --trace-question-key metadata.question_id
      reportgen report gold.jsonl bm25=runs/bm25.trec rerank=runs/rerank.jsonl \\
        --verdicts verdicts.jsonl --verdicts-run rerank --context-k 5
      reportgen report gold.jsonl rerank=runs/rerank.jsonl --verdicts ragas.csv \\
        --verdict-metric faithfulness --verdict-threshold 0.7
      reportgen report gold.jsonl rerank=runs/rerank.jsonl --manifest index/manifest.jsonl \\
        --run-index-version rerank=kb-2026-11-02 --audience public --strict
      reportgen report gold.jsonl small=runs/small.jsonl large=runs/large.jsonl \\
        --chunks small=maps/small.parquet --chunks large=maps/large.parquet --docs docs/

    A trace file (JSON Lines whose lines carry retrieved) as GOLD is the gold set, a
    run and its verdicts at once: no RUN is then needed. The four cells are retrieval
    failure, generation failure, answered from memory, and working as designed.
    """
    request = report_request(gold, runs, options)  # the config file's errors come first
    refuse_missing_runs(gold, runs, options["gold_format"])
    check_summary_wanted(options["github_summary"], options["formats"])
    run_request(request, options)


def refuse_missing_runs(gold: Path, runs: tuple[str, ...], gold_format: str | None) -> None:
    """Only a trace file as GOLD brings its own run (a missing GOLD file is said later)."""
    if runs or not gold.is_file() or (gold_format is None and is_trace_file(gold)):
        return
    raise UsageError(
        f"reportgen report: missing argument RUNS ({printable(gold)} is a gold set, not "
        "a trace file)",
        "the usage is reportgen report [OPTIONS] GOLD RUNS...; a trace file as GOLD "
        "needs no RUNS (see reportgen report --help)",
    )
