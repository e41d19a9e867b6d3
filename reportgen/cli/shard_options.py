"""The options of `reportgen shard` and `reportgen merge`: beyond one machine.

merge takes `report`'s option groups (cli_options.py) for all it shares with it: what
to write, compare and check; how to measure is the shards'. Kept apart so that each
module stays short.
"""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.cli.options import (
    baseline_options,
    check_options,
    compare_options,
    config_option,
    gate_options,
    manifest_options,
    options,
    out_option,
    verdicts_run_option,
    written_options,
)
from reportgen.cli.span_options import CHUNK_MAP_OPTIONS, EXPLAIN_OPTION
from reportgen.load import GOLD_FORMATS, RUN_FORMATS, VERDICT_FORMATS

merge_options = options(
    click.argument("shards", nargs=-1, required=True, type=click.Path(path_type=Path)),
    out_option,
    click.option(
        "--trec-eval/--no-trec-eval",
        default=None,
        help="Keep questions with no relevant chunk in the means (default: as the shards "
        "say; needed only when the shards have no report.json).",
    ),
    click.option(
        "--allow-partial",
        is_flag=True,
        help="Merge the shards given even when some shards of their cut are missing; "
        "every output then says how many questions it holds, of how many.",
    ),
    written_options,
    verdicts_run_option,
    compare_options,
    baseline_options,
    gate_options,
    config_option,
    manifest_options,
    *CHUNK_MAP_OPTIONS,
    EXPLAIN_OPTION,
    check_options,
)
"""`merge`: how to measure is the shards'; what to compare, check and write, as `report`."""

shard_options = options(
    click.argument("gold", type=click.Path(path_type=Path)),
    click.argument("runs", nargs=-1, required=True),
    click.option("--shards", "count", type=int, required=True, help="How many shards to cut."),
    click.option(
        "--out",
        "out_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("shards"),
        show_default=True,
        help="Folder to write shard-0 .. shard-(N-1) and shards.json into.",
    ),
    click.option(
        "--verdicts",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=None,
        help="End-to-end verdicts to cut with the questions (any format `report` reads).",
    ),
    click.option(
        "--gold-format",
        type=click.Choice(GOLD_FORMATS),
        default=None,
        help="Force the gold set's format instead of detecting it.",
    ),
    click.option(
        "--run-format",
        type=click.Choice(RUN_FORMATS),
        default=None,
        help="Force every run's format instead of detecting it.",
    ),
    click.option(
        "--verdict-format",
        type=click.Choice(VERDICT_FORMATS),
        default=None,
        help="Force the verdicts' format instead of detecting it.",
    ),
    click.option(
        "--verdict-metric",
        default=None,
        help="ragas: the score column (needed to read, and so to cut, its file).",
    ),
    click.option(
        "--verdict-threshold",
        type=float,
        default=None,
        help="ragas: a score at or above this is a correct answer.",
    ),
    click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors."),
)
