"""The options of `reportgen label`: how much of the pool to queue, in which shape, and
the new gold version the labels make."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.cli.options import INPUTS, OUTPUTS, declare
from reportgen.load.inputs.labels import LABEL_FORMATS
from reportgen.report.labelling import QUEUE_FORMATS

QUEUE_FORMAT = declare(
    OUTPUTS,
    "--queue-format",
    type=click.Choice(QUEUE_FORMATS),
    default=None,
    help="The queue's shape (default: from --out's extension: .csv CSV, .json Label "
    "Studio's task import, else JSON Lines).",
)
LIMIT = declare(
    OUTPUTS,
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Queue at most N pairs, the first in the pool's order.",
)
PER_QUESTION = declare(
    OUTPUTS,
    "--per-question",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Queue at most N pairs of each question.",
)
LABELS_FORMAT = declare(
    INPUTS,
    "--labels-format",
    type=click.Choice(LABEL_FORMATS),
    default=None,
    help="Force the labels' format (default: .jsonl, .csv, or .json for Label Studio's "
    "JSON export).",
)
NEW_VERSION = declare(
    OUTPUTS,
    "--version",
    "new_version",
    default=None,
    metavar="VERSION",
    everyday=True,
    help="The new gold set's version, written in its _meta line (default: the old "
    "version's last number plus one, v3 -> v4).",
)
JUDGMENTS = declare(
    INPUTS,
    "--judgments",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Secondary judgments (JSONL or CSV: qid, chunk_id, grade[, source, model, "
    "prompt_hash]), e.g. an LLM judge's: kept apart from the gold set (the gated numbers "
    "never change); the report shows each run human-only and with them, and their "
    "agreement with the gold set (Cohen's kappa).",
)
SAMPLE = declare(
    OUTPUTS,
    "--sample",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Queue the human audit of the judge instead: N of the --judgments questions drawn "
    "at random (reproducibly, with --seed), each whole (every pair the judge graded and "
    "the top --context-k of every run); rows are marked `audit`, and `label import` "
    "keeps the mark, so that `report --judgments` can trust the audit as a random sample.",
)
SEED = declare(
    OUTPUTS,
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="With --sample: the draw's seed (the same seed draws the same questions anywhere).",
)
