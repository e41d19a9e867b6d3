"""The options that say how to measure, what to compare and what fails the run."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.analyse.baseline import GOLD_CHANGE_POLICIES
from reportgen.analyse.ppi import ESTIMATES
from reportgen.cli.errors import OptionValueError
from reportgen.cli.options import COMPARING, MEASURING, declare
from reportgen.core.model import RETRIEVED_RULES
from reportgen.load.previous.baseline import BASELINE_FALLBACKS
from reportgen.measure.scoring import DEFAULT_CONTEXT_K, DEFAULT_KS, MAX_CUTOFF, MAX_GRADE
from reportgen.measure.spans import DEFAULT_MIN_COVERAGE

K_FIX = "e.g. --k 1,3,5,10"


def _int_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        ks = tuple(int(part) for part in value.split(",") if part.strip())
    except ValueError:
        problem = "not a comma-separated list of whole numbers"
        raise OptionValueError(value, problem, K_FIX) from None
    if not ks or min(ks) < 1 or max(ks) > MAX_CUTOFF:
        raise OptionValueError(value, f"every k must be from 1 to {MAX_CUTOFF:,}", K_FIX)
    return ks


TREC_EVAL = declare(
    MEASURING,
    "--trec-eval/--no-trec-eval",
    help="trec_eval's conventions: questions with no relevant chunk count as 0.",
)
SCORING = (
    declare(
        MEASURING,
        "--k",
        "ks",
        default=",".join(map(str, DEFAULT_KS)),
        show_default=True,
        callback=_int_list,
        everyday=True,
        help="Cutoffs k, comma-separated.",
    ),
    declare(
        MEASURING,
        "--context-k",
        type=click.IntRange(min=1, max=MAX_CUTOFF),
        default=None,
        everyday=True,
        help=f"Chunks sent to the model: the k of the headline (added to --k). Default "
        f"{DEFAULT_CONTEXT_K}, and the report says it was assumed.",
    ),
    declare(
        MEASURING,
        "--retrieved-when",
        type=click.Choice(RETRIEVED_RULES),
        default="any",
        show_default=True,
        everyday=True,
        help="In the four cells, a question counts as retrieved when any of its gold "
        "chunks reached the model, or only when all of them did (multi-hop questions).",
    ),
    declare(
        MEASURING,
        "--relevance-threshold",
        type=click.IntRange(min=1, max=MAX_GRADE),
        default=1,
        show_default=True,
        help="Lowest grade that counts as relevant (TREC Deep Learning uses 2).",
    ),
    TREC_EVAL,
)
"""How to measure: `report` and `demo` (a merge takes the shards')."""

MIN_COVERAGE = declare(
    MEASURING,
    "--min-coverage",
    type=float,
    default=DEFAULT_MIN_COVERAGE,
    show_default=True,
    help="A chunk is relevant when it holds this share of an evidence range, or this "
    "share of the chunk is evidence.",
)

COST_PER_1K_CHARS = declare(
    MEASURING,
    "--cost-per-1k-chars",
    type=click.FloatRange(min=0),
    default=None,
    help="A question's cost: this price per 1,000 characters sent to the model (at "
    "--context-k; needs --chunks or --docs), for runs that give no cost of their own.",
)

COMPARISONS = (
    declare(
        COMPARING,
        "--reference-run",
        default=None,
        help="Compare every run with this one instead of every pair.",
    ),
    declare(
        COMPARING,
        "--compare-measures",
        default=None,
        help="Measures to test, comma-separated, or 'all' (default: those at --context-k "
        "and the whole-list ones). Beyond hit and recall at --context-k and the gate's "
        "measures (the primary family), each is exploratory: Holm-corrected among them.",
    ),
    declare(
        COMPARING,
        "--cluster-by",
        default=None,
        metavar="FIELD",
        help="Questions that are not independent (several written from one document): a "
        "gold field such as group or source, or 'document' (the document of each "
        "question's gold evidence). Intervals and tests then resample whole clusters.",
    ),
    declare(
        COMPARING,
        "--baseline",
        type=click.Path(path_type=Path),
        default=None,
        everyday=True,
        help="A previous report (its report.json or its folder), or a published site (its "
        "folder or history.jsonl: the newest version on the same gold set, else the "
        "newest), to compare each run with its namesake there.",
    ),
    declare(
        COMPARING,
        "--baseline-version",
        default=None,
        metavar="LABEL",
        help="With a site as --baseline: compare with this version instead.",
    ),
    declare(
        COMPARING,
        "--baseline-commit",
        default=None,
        metavar="SHA",
        help="With a site as --baseline: compare with the version published for this "
        "commit (a pull request's base), else for its nearest first-parent ancestor that "
        "has one, never another branch's. Ancestry is read with git in the current "
        "directory's repository: a shallow clone needs `fetch-depth: 0` (or `git fetch "
        "--deepen`).",
    ),
    declare(
        COMPARING,
        "--baseline-fallback",
        type=click.Choice(BASELINE_FALLBACKS),
        default=None,
        help="With --baseline-commit: when git does not know the commit (a shallow clone) "
        "or no ancestor has a version, compare with the site's newest instead of exiting 2 "
        "(every output says so).",
    ),
    declare(
        COMPARING,
        "--estimate",
        type=click.Choice(ESTIMATES),
        default="human",
        show_default=True,
        help="What the gate reads: the gold set alone (human), or the prediction-powered "
        "means (ppi: the --judgments judge over all its questions, corrected by the gold "
        "set as a random human audit; the runs are then also compared by them; refused "
        "when the audit is not random, under 30 questions, or kappa < 0.4).",
    ),
    declare(
        COMPARING,
        "--on-gold-change",
        type=click.Choice(GOLD_CHANGE_POLICIES),
        default="refuse",
        show_default=True,
        help="When the baseline's gold set differs: refuse, or compare on the shared questions.",
    ),
)
"""Which runs and measures the comparisons test, and against what: `report` and `merge`."""

SLICES = (
    declare(
        COMPARING,
        "--slice-by",
        multiple=True,
        metavar="FIELD",
        help="Every number per slice of the questions: a gold field (a JSON Lines key, a CSV "
        "column, a --question-meta field, or kind) whose values cut them; a list field puts "
        "a question in the slice of each item, a question without a value in '(missing)'. "
        "Repeatable.",
    ),
    declare(
        COMPARING,
        "--slice-gate",
        default=None,
        metavar="FIELD",
        help="Hold every slice of FIELD (of at least --min-slice-n questions) to each "
        "--min, --max-drop and --max rule, as the whole run is: a regression confined to "
        "one slice fails the gate. Implies --slice-by FIELD.",
    ),
    declare(
        COMPARING,
        "--min-slice-n",
        type=click.IntRange(min=1),
        default=10,
        show_default=True,
        help="Slices with fewer questions are listed, not gated (--slice-gate).",
    ),
)
"""Slices of the questions by their fields, and the gate per slice: `report` and `merge`."""

GATE = (
    declare(
        COMPARING,
        "--min",
        "minimums",
        multiple=True,
        metavar="[RUN/]MEASURE[:KIND]=VALUE",
        everyday=True,
        help="Fail (exit 1) when a mean is below VALUE, e.g. --min recall@5=0.80. Repeatable.",
    ),
    declare(
        COMPARING,
        "--max-drop",
        "max_drops",
        multiple=True,
        metavar="[RUN/]MEASURE[:KIND]=VALUE",
        everyday=True,
        help="Fail (exit 1) when a mean fell by more than VALUE since --baseline. "
        "Repeatable. Without --baseline (a first run) it is skipped with a notice.",
    ),
    declare(
        COMPARING,
        "--max",
        "maximums",
        multiple=True,
        metavar="[RUN/]MEASURE=VALUE",
        help="Fail (exit 1) when a mean or a latency or cost summary is above VALUE, e.g. "
        "--max latency_p95_ms=250, --max latency_p95_ms=rerank:250, --max context_chars@5=4000. "
        "Repeatable.",
    ),
    declare(
        COMPARING,
        "--max-rise",
        "max_rises",
        multiple=True,
        metavar="[RUN/]MEASURE=VALUE",
        help="Fail (exit 1) when a value rose by more than the share VALUE since --baseline, "
        "e.g. --max-rise latency_p95_ms=0.2 (at most 20%% more). Repeatable. Without "
        "--baseline, or a baseline without it, it is skipped with a notice.",
    ),
    declare(
        COMPARING,
        "--significant-only/--no-significant-only",
        help="A drop fails only when it is significant (Holm-adjusted p < 0.05, interval below 0).",
    ),
    declare(
        COMPARING,
        "--strict/--no-strict",
        help="Fail (exit 1, after writing the report) when there is any warning.",
    ),
)
"""What fails the run (exit 1, the report written): `report` and `merge`."""
