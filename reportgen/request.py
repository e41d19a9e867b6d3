"""What a report is asked to do: the request `make_report` takes, in four parts.

``ReportInputs`` are the files it reads, ``ReportSettings`` how it measures, compares
and labels, ``ReportChecks`` what it holds the runs and the inputs to, and
``ReportOutputs`` what it writes where. Each option of ``reportgen report`` is one
field, nearly always of its own name: the CLI fills each part by field name and
transforms the few others (cli/request.py; tests/docs/test_python_api_parity.py checks
that every option lands), and ``reportgen demo`` is a ready-made request. The gold set,
the runs and the verdicts may be given loaded already (``reportgen.evaluate``'s
``Results.report`` gives its own), so that one path writes every report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from datetime import date
from pathlib import Path

import polars as pl

from reportgen.analyse.baseline import GOLD_CHANGE_POLICIES, GoldChangePolicy
from reportgen.analyse.drilldown import EXPLAIN_MODES, ExplainMode
from reportgen.analyse.ppi import ESTIMATES
from reportgen.core.filesystem import refuse_undecodable
from reportgen.core.git import commit_problem
from reportgen.core.labels import check_version_label
from reportgen.core.model import GoldSet, Run, VerdictSet
from reportgen.core.records import dataclass
from reportgen.errors import ParameterError, printable
from reportgen.load import (
    GOLD_FORMATS,
    MANIFEST_FORMATS,
    RUN_FORMATS,
    VERDICT_FORMATS,
    load_verdicts,
    parse_run_spec,
)
from reportgen.load.evidence.chunkings import ChunksSpec
from reportgen.load.evidence.chunks import CHUNK_MAP_FORMATS
from reportgen.load.formats.vocabulary import TRACE_FORMAT, is_trace_file
from reportgen.load.inputs.config import GateRules
from reportgen.load.inputs.question_meta import with_question_meta
from reportgen.load.inputs.run_files import load_gold_input
from reportgen.load.inputs.traces import Trace
from reportgen.load.inputs.trials import verdict_trials
from reportgen.load.previous.baseline import BASELINE_FALLBACKS, BaselineFallback
from reportgen.measure.scoring import Settings
from reportgen.render.links import check_report_url
from reportgen.render.output import FORMATS, PER_QUESTION_FORMATS

RunSpec = str | tuple[str | None, str | Path]
"""A run: ``"NAME=PATH"``, ``"PATH"`` (named by the file's stem) or ``(name, path)``."""
VerdictsSpec = str | Path | VerdictSet
"""One judge's verdicts: a file, or a set loaded already."""


@dataclass(frozen=True)
class ReportInputs:
    """The files a report reads, and how to read them (None: detect, or as the file says).
    The gold set, a run or the verdicts loaded already are taken as they are: the ways to
    read them (formats, gold version, verdict metric) apply to files only."""

    gold: str | Path | GoldSet
    runs: Sequence[RunSpec | Run]
    gold_format: str | None = None
    run_format: str | None = None
    gold_version: str | None = None
    index_version: str | None = None
    """The index version the gold ids were read from."""
    run_index_versions: Mapping[str, str] = field(default_factory=dict)
    """The index version each named run was made on, over what its file says."""
    verdicts: VerdictsSpec | Sequence[VerdictsSpec] | None = None
    """End-to-end correct/wrong per question: adds the four cells. Several: the same
    answers judged again (judge trials), the cells from their majority."""
    verdicts_run: str | None = None
    """The run the verdicts judge (default: the one the file names, else the first)."""
    verdict_format: str | None = None
    verdict_metric: str | None = None
    verdict_threshold: float | None = None
    trace_question_key: str | None = None
    """The span attribute holding the gold question id, for OpenTelemetry runs (else the
    question text is matched exactly)."""
    span_doc_key: str | None = None
    """Where a span document's chunk id is when it has no ``document.id`` (e.g.
    ``metadata.chunk_id``, LangChain's OpenInference spans)."""
    manifest: str | Path | None = None
    """The current index's chunk ids: gold ids missing from it are stale."""
    manifest_format: str | None = None
    baseline: str | Path | None = None
    """A previous report, or a published site (its newest version on the same gold set)."""
    baseline_version: str | None = None
    """With a site as baseline: the version to compare with."""
    baseline_commit: str | None = None
    """With a site as baseline: the version published for this commit, else for its
    nearest first-parent ancestor that has one (ancestry read with git in the working
    directory's repository)."""
    baseline_fallback: BaselineFallback | None = None
    """``"newest"``: when ``baseline_commit`` is unknown to git (a shallow clone) or no
    ancestor has a version, compare with the site's newest instead of refusing."""
    sources_relative_to: str | Path | None = None
    """Name the input files relative to this folder, so any machine writes the same report."""
    chunks: Sequence[ChunksSpec] = ()
    """Chunk maps, ``PATH`` (every run) or ``NAME=PATH`` (one run): evidence spans are
    judged through them and the span measures added; one map shared by every run also
    serves as the manifest."""
    chunks_format: str | None = None
    docs: str | Path | None = None
    """The folder of the documents the evidence names: locates quotes, shows text."""
    judgments: str | Path | pl.DataFrame | None = None
    """Secondary judgments (an LLM judge's; a file, or loaded already): shown beside the
    gold set's numbers, never in them, and with the gold set as their audit, the
    prediction-powered means."""
    question_meta: str | Path | None = None
    """The questions' own fields (language, tags) in a side file keyed by question id
    (JSON Lines or CSV), for a gold set that holds none (qrels, BEIR)."""


@dataclass(frozen=True)
class ReportSettings:
    """How to measure and compare, and the report's label."""

    scoring: Settings = field(default_factory=Settings)
    version: str | None = None
    reference_run: str | None = None
    """Compare every run with this one instead of every pair."""
    compare_measures: Sequence[str] | None = None
    """The measures to test (default: those at the context k and the whole-list ones)."""
    on_gold_change: GoldChangePolicy = "refuse"
    cluster_by: str | None = None
    """A gold field (or ``document``) grouping questions that are not independent."""
    slice_by: Sequence[str] = ()
    """Gold fields whose values cut the questions into slices, each with every number."""
    slice_gate: str | None = None
    """A slice field whose every slice (of at least ``min_slice_n`` questions) the gate's
    rules hold to, as they hold the whole run."""
    min_slice_n: int = 10
    """Slices smaller than this are listed as not gated."""
    commit: str | None = None
    """The commit measured, recorded in report.json (``publish`` orders versions by it)."""
    estimate: str = "human"
    """What the gate reads: ``human`` (the gold set) or ``ppi`` (the
    judge's grades over all its questions corrected by the gold set's audit; needs
    ``inputs.judgments``)."""


@dataclass(frozen=True)
class ReportChecks:
    """What the runs and the inputs are held to.

    A failed check does not stop the report: it is written, and the result says what
    failed (``ReportResult.failure``; the CLI then exits 1).
    """

    gate: GateRules | None = None
    strict: bool = False
    """Any warning fails too."""
    audience: str | None = None
    """Who reads the answers: manifest chunks labelled for another audience are leaks."""
    as_of: date | None = None
    """The date that decides which manifest chunks are out of date (default: the report's)."""


@dataclass(frozen=True)
class ReportOutputs:
    """What to write, where: report.json and the per-question file always."""

    out_dir: str | Path
    formats: Sequence[str] = FORMATS
    per_question_format: str = "csv"
    report_url: str = "index.html"
    """Where readers of summary.md find the full report (an http(s) URL or a relative path)."""
    chart_png: bool = False
    """Also a PNG of each chart, for places that show no SVG."""
    explain: ExplainMode = "failures"
    """Which questions get a drill-down panel with the text sent: failures, all, none."""
    junit: str | Path | None = None
    """Also the gate's rules and the warnings as JUnit XML at this path (any CI reads it)."""
    merge_data: bool = False
    """Also merge/: what ``reportgen merge`` needs to rebuild the whole report when these
    questions are one shard of a larger set."""


@dataclass(frozen=True)
class ReportRequest:
    """Everything one report needs: ``make_report(request)``."""

    inputs: ReportInputs
    outputs: ReportOutputs
    settings: ReportSettings = field(default_factory=ReportSettings)
    checks: ReportChecks = field(default_factory=ReportChecks)


@dataclass(frozen=True)
class MergeInputs:
    """The shards a merge reads, and the files no shard carries (one for every shard)."""

    shards: Sequence[str | Path]
    """Each shard's --out folder, or its per-question file (or ``trec_eval -q`` output)."""
    verdicts_run: str | None = None
    manifest: str | Path | None = None
    """The manifest the shards were checked against, when they were."""
    manifest_format: str | None = None
    baseline: str | Path | None = None
    baseline_version: str | None = None
    baseline_commit: str | None = None
    baseline_fallback: BaselineFallback | None = None
    trec_eval: bool | None = None
    """For shards without report.json: keep questions with no relevant chunk at 0."""
    chunks: Sequence[ChunksSpec] = ()
    """The chunk maps the shards were measured with, when they were (``--chunks``)."""
    chunks_format: str | None = None
    docs: str | Path | None = None
    """The documents the evidence names, for the drill-down's text (``--docs``)."""
    question_meta: str | Path | None = None
    """The questions' own fields in a side file (``--question-meta``)."""


@dataclass(frozen=True)
class MergeRequest:
    """Everything a merge needs: ``merge_reports(request)``. How to measure is the
    shards' (they must agree); what to compare, check and write is the merge's."""

    inputs: MergeInputs
    outputs: ReportOutputs
    checks: ReportChecks = field(default_factory=ReportChecks)
    version: str | None = None
    reference_run: str | None = None
    compare_measures: Sequence[str] | None = None
    on_gold_change: GoldChangePolicy = "refuse"
    cluster_by: str | None = None
    """``document`` only: the shards keep no other gold field."""
    slice_by: Sequence[str] = ()
    slice_gate: str | None = None
    min_slice_n: int = 10
    explain: ExplainMode = "failures"
    allow_partial: bool = False
    """Merge the shards given when some of their cut are missing (every output says so)."""
    commit: str | None = None
    estimate: str = "human"
    """``ppi``: the gate reads, and compares the runs by, the prediction-powered means (the
    shards' --judgments, kept in their merge data)."""


def check_formats(formats: Sequence[str], per_question_format: str) -> None:
    """Refuse an unknown output format before any input is read."""
    if isinstance(formats, str):
        raise ParameterError(
            "formats",
            formats,
            "must be a list of format names, not one string",
            f"pass e.g. {list(FORMATS)!r}",
            option="--format",
        )
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        raise ParameterError(
            "formats",
            unknown[0],
            "unknown output format",
            f"choose from {', '.join(FORMATS)} (report.json is always written)",
            option="--format",
        )
    if per_question_format not in PER_QUESTION_FORMATS:
        raise ParameterError(
            "per_question_format",
            per_question_format,
            "unknown per-question format",
            f"choose from {', '.join(PER_QUESTION_FORMATS)}",
            option="--per-question-format",
        )


def check_choice(parameter: str, value: str | None, choices: Sequence[str]) -> None:
    """A named choice (a format, a policy) must be one of those there are."""
    if value is not None and value not in choices:
        raise ParameterError(
            parameter,
            value,
            "not one of the choices",
            f"choose one of {', '.join(choices)}",
            option=f"--{parameter.replace('_', '-')}",
        )


def check_request(request: ReportRequest | MergeRequest) -> None:
    """Refuse a bad value, or one that needs another, before any input is read.

    One set of rules for ``report`` and ``merge`` (their shared options are checked
    alike, and fail with the same :class:`ParameterError`); merge has its own inputs
    (shards) and checks them itself.
    """
    estimate = request.estimate if isinstance(request, MergeRequest) else request.settings.estimate
    check_choice("estimate", estimate, ESTIMATES)
    if isinstance(request, MergeRequest):
        merging = request.inputs
        _check_shared(
            request.outputs,
            version=request.version,
            commit=request.commit,
            audience=request.checks.audience,
            reference_run=request.reference_run,
            verdicts_run=merging.verdicts_run,
            compare_measures=request.compare_measures,
            on_gold_change=request.on_gold_change,
            explain=request.explain,
            baseline=(
                merging.baseline,
                merging.baseline_version,
                merging.baseline_commit,
                merging.baseline_fallback,
            ),
            formats={
                "manifest_format": merging.manifest_format,
                "chunks_format": merging.chunks_format,
            },
        )
        return
    inputs, settings = request.inputs, request.settings
    refuse_undecodable(
        {
            "gold_version (--gold-version)": inputs.gold_version,
            "index_version (--index-version)": inputs.index_version,
            "verdict_metric (--verdict-metric)": inputs.verdict_metric,
            "trace_question_key (--trace-question-key)": inputs.trace_question_key,
            "span_doc_key (--span-doc-key)": inputs.span_doc_key,
            **{
                f"run_index_versions (--run-index-version {printable(name)})": f"{name}={value}"
                for name, value in inputs.run_index_versions.items()
            },
        }
    )
    _check_shared(
        request.outputs,
        version=settings.version,
        commit=settings.commit,
        audience=request.checks.audience,
        reference_run=settings.reference_run,
        verdicts_run=inputs.verdicts_run,
        compare_measures=settings.compare_measures,
        on_gold_change=settings.on_gold_change,
        explain=request.outputs.explain,
        baseline=(
            inputs.baseline,
            inputs.baseline_version,
            inputs.baseline_commit,
            inputs.baseline_fallback,
        ),
        formats={
            "gold_format": inputs.gold_format,
            "run_format": inputs.run_format,
            "verdict_format": inputs.verdict_format,
            "manifest_format": inputs.manifest_format,
            "chunks_format": inputs.chunks_format,
        },
    )
    if not verdict_specs(inputs) and not _may_bring_verdicts(inputs):
        refuse_verdicts_run_alone(inputs.verdicts_run, None)
    if estimate == "ppi" and inputs.judgments is None:
        raise ParameterError(
            "estimate",
            estimate,
            "the prediction-powered means need the judge's grades",
            "pass the LLM judge's grades of its questions (--judgments FILE; "
            "judgments= to reportgen.evaluate)",
            option="--estimate",
        )


def _may_bring_verdicts(inputs: ReportInputs) -> bool:
    """Whether a trace file is among the inputs: its verdicts are known once it is read
    (only its first lines are sniffed here), so --verdicts-run is judged then."""
    if inputs.verdicts_run is None:
        return False  # nothing to judge
    if inputs.run_format == TRACE_FORMAT:
        return True
    gold = inputs.gold
    paths = [] if isinstance(gold, GoldSet) or inputs.gold_format else [Path(gold)]
    if inputs.run_format is None:
        paths += [run_named(spec)[1] for spec in inputs.runs if not isinstance(spec, Run)]
    return any(is_trace_file(path) for path in paths)


def refuse_verdicts_run_alone(verdicts_run: str | None, verdicts: VerdictSet | None) -> None:
    """--verdicts-run names the run the verdicts judge: refused when no verdicts came,
    from --verdicts or from a trace file."""
    if verdicts is None and verdicts_run is not None:
        raise ParameterError(
            "verdicts_run",
            verdicts_run,
            "names the run the verdicts judge, but no verdicts are given",
            "pass the verdicts file too (--verdicts) or trace files with verdicts, "
            "or leave the run out",
            option="--verdicts-run",
        )


INPUT_FORMATS: Mapping[str, Sequence[str]] = {
    "gold_format": GOLD_FORMATS,
    "run_format": RUN_FORMATS,
    "verdict_format": VERDICT_FORMATS,
    "manifest_format": MANIFEST_FORMATS,
    "chunks_format": CHUNK_MAP_FORMATS,
}
"""The ways each kind of input file can be read, by parameter."""


def _check_shared(
    outputs: ReportOutputs,
    *,
    version: str | None,
    commit: str | None,
    audience: str | None,
    reference_run: str | None,
    verdicts_run: str | None,
    compare_measures: Sequence[str] | None,
    on_gold_change: str,
    explain: str,
    baseline: tuple[str | Path | None, str | None, str | None, str | None],
    formats: Mapping[str, str | None],
) -> None:
    """The rules on the options ``report`` and ``merge`` share."""
    refuse_undecodable(
        {
            "version (--version)": version,
            "audience (--audience)": audience,
            "reference_run (--reference-run)": reference_run,
            "verdicts_run (--verdicts-run)": verdicts_run,
            "report_url (--report-url)": outputs.report_url,
            "compare_measures (--compare-measures)": ",".join(compare_measures or []),
        }
    )
    if version is not None:
        check_version_label(version)  # a label publish would refuse fails now
    check_report_url(outputs.report_url)
    check_formats(outputs.formats, outputs.per_question_format)
    for parameter, value in formats.items():
        check_choice(parameter, value, INPUT_FORMATS[parameter])
    check_choice("on_gold_change", on_gold_change, GOLD_CHANGE_POLICIES)
    check_choice("explain", explain, EXPLAIN_MODES)
    given, baseline_version, baseline_commit, fallback = baseline
    for parameter, value in (
        ("baseline_version", baseline_version),
        ("baseline_commit", baseline_commit),
        ("baseline_fallback", fallback),
    ):
        if value is not None and given is None:
            raise ParameterError(
                parameter,
                value,
                "picks a version of the baseline, but no baseline is given",
                "pass the site to pick the version from (--baseline)",
                option="--" + parameter.replace("_", "-"),
            )
    _check_commits(commit, baseline_version, baseline_commit, fallback)


def _check_commits(
    commit: str | None,
    baseline_version: str | None,
    baseline_commit: str | None,
    fallback: str | None,
) -> None:
    """Commit hashes are hashes; a baseline is picked by version or by commit, not both."""
    for parameter, value in (("commit", commit), ("baseline_commit", baseline_commit)):
        if value is not None and (problem := commit_problem(value)) is not None:
            raise ParameterError(
                parameter,
                value,
                problem,
                "give the full hash (git rev-parse HEAD) or at least its first 7 digits",
                option="--" + parameter.replace("_", "-"),
            )
    if baseline_commit is not None and baseline_version is not None:
        raise ParameterError(
            "baseline_commit",
            baseline_commit,
            "and --baseline-version both pick the baseline's version",
            "give one of them",
            option="--baseline-commit",
        )
    check_choice("baseline_fallback", fallback, BASELINE_FALLBACKS)
    if fallback is not None and baseline_commit is None:
        raise ParameterError(
            "baseline_fallback",
            fallback,
            "says what to do when --baseline-commit finds no version, but none is given",
            "add --baseline-commit, or drop --baseline-fallback",
            option="--baseline-fallback",
        )


def read_from(given: str | Path | GoldSet | Run | VerdictSet) -> Path:
    """The file an input is read from; for one loaded already, the file its loader read
    (or, made in memory, its label, which names no file a report writes)."""
    return Path(given.source) if isinstance(given, GoldSet | Run | VerdictSet) else Path(given)


def run_named(spec: RunSpec | Run) -> tuple[str | None, Path]:
    """A run's name (None: the file's stem) and the file it is read from."""
    if isinstance(spec, Run):
        return spec.name, Path(spec.source)
    name, path = parse_run_spec(spec) if isinstance(spec, str) else spec
    return name, Path(path)


def requested_gold(inputs: ReportInputs) -> tuple[GoldSet, Trace | None]:
    """The gold set given, or loaded from its file as the inputs say; and the trace, when
    the file is a trace file (the gold set, its first run and their verdicts)."""
    if isinstance(inputs.gold, GoldSet):
        gold, trace = inputs.gold, None
    else:
        gold, trace = load_gold_input(
            Path(inputs.gold), inputs.gold_format, inputs.gold_version, inputs.index_version
        )
    if inputs.question_meta is not None:
        gold = with_question_meta(gold, inputs.question_meta)
    return gold, trace


def verdict_specs(inputs: ReportInputs) -> list[VerdictsSpec]:
    """The verdicts given, one per judge trial (empty: none)."""
    given = inputs.verdicts
    if given is None:
        return []
    return [given] if isinstance(given, str | Path | VerdictSet) else list(given)


def requested_verdicts(inputs: ReportInputs) -> VerdictSet | None:
    """The verdicts given, loaded from their files as the inputs say (several: the
    trials' majority, each trial kept), or None."""
    specs = verdict_specs(inputs)
    if not specs:
        return None
    return verdict_trials(
        [
            spec
            if isinstance(spec, VerdictSet)
            else load_verdicts(
                spec,
                inputs.verdict_format,
                metric=inputs.verdict_metric,
                threshold=inputs.verdict_threshold,
            )
            for spec in specs
        ]
    )
