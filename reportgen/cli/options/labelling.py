"""The options of `reportgen label`: how much of the pool to queue, in which shape, and
the new gold version the labels make."""

from __future__ import annotations

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
    help="The new gold set's version, written in its _meta line (default: the old "
    "version's last number plus one, v3 -> v4).",
)
