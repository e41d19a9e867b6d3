"""`reportgen shard`: cut the inputs by question, to measure on many machines."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from reportgen.cli.command import command
from reportgen.cli.echo import say_lines
from reportgen.cli.options import takes
from reportgen.cli.options.inputs import GOLD_FORMAT, READ_VERDICTS, RUN_FORMAT, VERDICTS_FILE
from reportgen.cli.options.outputs import OUT, QUIET, SHARD_COUNT


@command
@takes(
    click.argument("gold", type=click.Path(path_type=Path)),
    click.argument("runs", nargs=-1, required=True),
    SHARD_COUNT,
    OUT.but(
        default=Path("shards"),
        help="Folder to write shard-0 .. shard-(N-1) and shards.json into.",
    ),
    VERDICTS_FILE.but(
        help="End-to-end verdicts to cut with the questions (any format `report` reads); "
        "repeatable, for judge trials."
    ),
    GOLD_FORMAT,
    RUN_FORMAT,
    *READ_VERDICTS,
    QUIET,
)
def shard(
    gold: Path,
    runs: Sequence[str],
    count: int,
    out_dir: Path,
    verdicts: tuple[Path, ...],
    gold_format: str | None,
    run_format: str | None,
    verdict_format: str | None,
    verdict_metric: str | None,
    verdict_threshold: float | None,
    quiet: bool,
) -> None:
    """Cut GOLD, the RUNS and the verdicts into shards by question, to measure apart.

    \b
    Examples:
      reportgen shard gold.jsonl bm25=runs/bm25.trec --shards 8 --out shards/
      cd shards/shard-3 && reportgen report gold.jsonl bm25=runs/bm25.trec --out ../out-3
      reportgen merge shards/out-*/ --out report/

    A question goes to shard sha256(its id) mod N, the same on every machine; each
    shard folder holds the same file names in the inputs' own formats, so one
    `reportgen report` line measures any shard, and `reportgen merge` joins the
    shards' outputs into the report of all the questions.
    """
    from reportgen.api import make_shards
    from reportgen.render.terminal import shard_lines

    plan = make_shards(
        gold,
        runs,
        out_dir,
        count,
        verdicts=verdicts,
        gold_format=gold_format,
        run_format=run_format,
        verdict_format=verdict_format,
        verdict_metric=verdict_metric,
        verdict_threshold=verdict_threshold,
    )
    if not quiet:
        say_lines(shard_lines(plan.questions, out_dir, plan.command(["--out", "../out-N"])))
