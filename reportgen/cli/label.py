"""`reportgen label`: send the unjudged pairs to be labelled, and fold the labels back."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from reportgen.cli.command import ReportgenGroup, command
from reportgen.cli.echo import say
from reportgen.cli.options import takes
from reportgen.cli.options.inputs import (
    CHUNK_MAPS,
    GOLD_FORMAT,
    READ_VERDICTS,
    RUN_FORMAT,
    VERDICTS_FILE,
    VERDICTS_RUN,
)
from reportgen.cli.options.labelling import (
    JUDGMENTS,
    LABELS_FORMAT,
    LIMIT,
    NEW_VERSION,
    PER_QUESTION,
    QUEUE_FORMAT,
    SAMPLE,
    SEED,
)
from reportgen.cli.options.measuring import SCORING
from reportgen.cli.options.outputs import OUT, QUIET

CONTEXT_K = next(d for d in SCORING if "--context-k" in d.decls)
CHUNKS, _, DOCS = CHUNK_MAPS


@click.group("label", cls=ReportgenGroup)
def label() -> None:
    """Grow the gold set: queue the chunks nobody judged, then fold the labels back.

    \b
    The loop (docs/gold.md):
      reportgen label export gold.jsonl bm25=runs/bm25.trec dense=runs/dense.trec \\
          --verdicts verdicts.jsonl --chunks chunks.jsonl --out queue.csv
      (grade the rows: 0 not relevant, 1 relevant, 2 highly relevant)
      reportgen label import gold.jsonl queue.csv --out gold-v2.jsonl --version v2
    """


@command
@takes(
    click.argument("gold", type=click.Path(exists=True, dir_okay=False, path_type=Path)),
    click.argument("runs", nargs=-1),
    OUT.but(
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        required=True,
        show_default=False,
        help="The queue file to write (.jsonl, .csv, or .json for Label Studio).",
    ),
    QUEUE_FORMAT,
    LIMIT,
    PER_QUESTION,
    CONTEXT_K.but(help="Chunks sent to the model: the pool is the top k of every run (default 5)."),
    VERDICTS_FILE.but(
        multiple=False,
        default=None,
        help="End-to-end verdicts: questions answered correctly with no relevant chunk "
        "sent (missed_correct) are queued first.",
    ),
    VERDICTS_RUN,
    *READ_VERDICTS,
    CHUNKS.but(
        multiple=False,
        metavar="PATH",
        help="Chunk map with a text column (or with --docs): each chunk's text goes in the queue.",
    ),
    DOCS,
    JUDGMENTS.but(
        help="An LLM judge's grades (JSONL or CSV: qid, chunk_id, grade): with "
        "--sample, the questions the audit is drawn from."
    ),
    SAMPLE,
    SEED,
    GOLD_FORMAT,
    RUN_FORMAT,
    QUIET,
)
def export(gold: Path, runs: Sequence[str], **options: Any) -> None:
    """Write the unjudged (question, chunk) pairs of the top --context-k of any of RUNS.

    \b
    Examples:
      reportgen label export gold.jsonl bm25=bm25.trec dense=dense.trec --out queue.jsonl
      reportgen label export gold.jsonl runs/*.trec --verdicts v.jsonl --out queue.csv \\
          --chunks chunks.jsonl --per-question 3 --limit 200
      reportgen label export gold.jsonl runs/*.trec --judgments judge.jsonl \\
          --sample 60 --seed 7 --out audit.csv

    GOLD may be a trace file (gold set, run and verdicts in one); its texts, and those
    of trace files among RUNS, go in the queue. Each pair once, questions in
    missed_correct first, then the pairs more runs returned. Fill the grade column and
    give the file to `reportgen label import`.
    """
    from reportgen.api import export_labels

    queued = export_labels(
        gold,
        runs,
        options["out_dir"],
        context_k=options["context_k"] or 5,
        queue_format=options["queue_format"],
        limit=options["limit"],
        per_question=options["per_question"],
        gold_format=options["gold_format"],
        run_format=options["run_format"],
        verdicts=options["verdicts"],
        verdict_format=options["verdict_format"],
        verdicts_run=options["verdicts_run"],
        chunks=options["chunks"],
        docs=options["docs"],
        judgments=options["judgments"],
        sample=options["sample"],
        seed=options["seed"],
    )
    if not options["quiet"] and queued.sample is not None:
        whole = (
            f"; {queued.graded_whole} drawn question(s) the gold set already grades whole"
            if queued.graded_whole
            else ""
        )
        say(
            f"{queued.path}: {queued.pairs} pair(s) of {queued.questions} question(s) to "
            f"label, the audit {queued.sample}{whole}"
        )
    elif not options["quiet"]:
        first = (
            f", {queued.first} first: questions answered correctly with no relevant chunk sent"
            if queued.first
            else ""
        )
        say(
            f"{queued.path}: {queued.pairs} pair(s) of {queued.questions} question(s) to "
            f"label, of {queued.pool} unjudged in the pool{first}"
        )


@command
@takes(
    click.argument("gold", type=click.Path(exists=True, dir_okay=False, path_type=Path)),
    click.argument("labels", type=click.Path(exists=True, dir_okay=False, path_type=Path)),
    OUT.but(
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        required=True,
        show_default=False,
        help="The new gold file to write (never the input's own path).",
    ),
    NEW_VERSION,
    GOLD_FORMAT,
    LABELS_FORMAT,
    QUIET,
)
def import_(gold: Path, labels: Path, **options: Any) -> None:
    """Write a new gold version: GOLD with the graded pairs of LABELS added.

    \b
    Example:
      reportgen label import gold.jsonl queue.csv --out gold-v2.jsonl --version v2

    LABELS is the exported queue with grades filled in (rows left blank are skipped)
    or Label Studio's JSON export. Grade 0 is kept: judged, not relevant. judged_by
    and judged_at are kept as provenance. Two labels of one pair that disagree are
    refused; only the labelled questions change.
    """
    from reportgen.api import import_labels

    done = import_labels(
        gold,
        labels,
        options["out_dir"],
        version=options["new_version"],
        gold_format=options["gold_format"],
        labels_format=options["labels_format"],
    )
    for note in done.notes:
        say(f"note: {note}", err=True)
    if not options["quiet"]:
        version = f" (version {done.version})" if done.version else ""
        say(
            f"{done.path}{version}: {len(done.questions_changed)} question(s) changed, "
            f"{done.pairs_added} judgment(s) added of {done.labels_read} label(s); "
            f"gold fingerprint {done.fingerprint_before} -> {done.fingerprint_after}"
        )


label.add_command(export)
label.add_command(import_, "import")
