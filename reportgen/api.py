"""The Python API: everything the CLI does, callable without it.

>>> from reportgen.api import ReportInputs, ReportOutputs, ReportRequest, make_report
>>> inputs = ReportInputs("gold.jsonl", ["bm25=runs/bm25.trec"])
>>> result = make_report(ReportRequest(inputs, ReportOutputs("report/")))  # doctest: +SKIP
>>> result.report["runs"]["bm25"]["means"]["recall@5"]  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from reportgen.core.display import Glanceable
from reportgen.core.filesystem import reading, refuse_undecodable, writing
from reportgen.core.labels import created_at
from reportgen.core.model import ChunkMap, GoldSet, Manifest, Run, VerdictSet
from reportgen.core.progress import track
from reportgen.core.records import dataclass
from reportgen.errors import InputError, ParameterError, UsageError, printable
from reportgen.examples import demo_request as demo_request
from reportgen.examples import example_dir as example_dir
from reportgen.load import load_manifest, load_run
from reportgen.load.evidence.chunkings import chunk_manifest, load_chunkings
from reportgen.load.evidence.chunks import parse_chunks_spec
from reportgen.load.evidence.spans import Documents
from reportgen.load.inputs.config import GateRules, load_gate_rules, rules_from_options
from reportgen.load.inputs.run_files import RunInputs, load_run_inputs, with_trace_verdicts
from reportgen.load.inputs.trials import verdict_trials
from reportgen.load.previous.baseline import Baseline, load_baseline, per_question_path
from reportgen.load.previous.published import read_report
from reportgen.load.previous.shards import read_cut
from reportgen.measure.scoring import Settings, evaluate
from reportgen.pipeline import (
    Ending,
    Evidence,
    ReportResult,
    analyse_and_write,
    chart_worker,
    refuse_planned,
    render_files,
    strict_failure,
)
from reportgen.render.links import check_report_url
from reportgen.render.output import PER_QUESTION_FORMATS, atomic_write, write_files
from reportgen.request import (
    MergeInputs,
    MergeRequest,
    ReportChecks,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    RunSpec,
    check_formats,
    check_request,
    read_from,
    refuse_verdicts_run_alone,
    requested_gold,
    requested_verdicts,
    run_named,
    verdict_specs,
)
from reportgen.scale.merge import MergeResult, merge
from reportgen.scale.shard import make_shards as make_shards
from reportgen.schema import FORMAT_VERSION, Report

if TYPE_CHECKING:
    import polars as pl

    from reportgen.measure.chunked import Chunkings
    from reportgen.site.publish import Published

__all__ = [
    "GateRules",
    "LabelImport",
    "LabelQueue",
    "MergeInputs",
    "MergeRequest",
    "MergeResult",
    "ReportChecks",
    "ReportInputs",
    "ReportOutputs",
    "ReportRequest",
    "ReportResult",
    "ReportSettings",
    "RunSpec",
    "Settings",
    "demo_request",
    "example_dir",
    "export_labels",
    "import_labels",
    "load_gate_rules",
    "load_runs",
    "make_report",
    "merge_reports",
    "publish_report",
    "render_files",
    "render_report",
    "rules_from_options",
    "strict_failure",
]


def _spec_label(spec: RunSpec | Run) -> str:
    """The run's name, or its file name, for the progress bar."""
    if isinstance(spec, Run):
        return spec.name
    name, path = (
        (spec.partition("=")[::2] if "=" in spec else ("", spec)) if isinstance(spec, str) else spec
    )
    return name or Path(path).name


def load_runs(specs: Sequence[RunSpec | Run], fmt: str | None = None) -> list[Run]:
    """The runs, each loaded from its file, or taken as it is when loaded already."""
    runs = []
    for spec in track(specs, "Loading runs", _spec_label):
        name, path = run_named(spec)
        runs.append(spec if isinstance(spec, Run) else load_run(path, name=name, fmt=fmt))
    return runs


def refuse_unused_span_keys(inputs: ReportInputs, runs: Sequence[Run]) -> None:
    """A span key with no run read from spans would be silently ignored."""
    if all(run.traces is None for run in runs):
        for parameter, key in (
            ("trace_question_key", inputs.trace_question_key),
            ("span_doc_key", inputs.span_doc_key),
        ):
            if key is not None:
                raise ParameterError(
                    parameter,
                    key,
                    "names a span attribute, but no run is an OpenTelemetry or Phoenix export",
                    "leave it out, or give the span export as a run",
                    option=f"--{parameter.replace('_', '-')}",
                )


def set_index_versions(runs: Sequence[Run], versions: Mapping[str, str]) -> list[Run]:
    """Runs with the index version the caller states (over what their files say)."""
    unknown = sorted(set(versions) - {run.name for run in runs})
    if unknown:
        raise ParameterError(
            "run_index_versions",
            unknown[0],
            f"names no run; the runs are {', '.join(run.name for run in runs)}",
            "use a run's name as given before '=' (or its file name without extension)",
            option="--run-index-version",
        )
    return [
        dataclasses.replace(run, index_version=versions[run.name]) if run.name in versions else run
        for run in runs
    ]


def report_inputs(
    inputs: ReportInputs, baseline: Baseline | None, gate: GateRules | None
) -> list[tuple[str, Path]]:
    """Every file a report reads, named for a message: none may be overwritten."""
    files = [("the gold set", read_from(inputs.gold))]
    for spec in inputs.runs:
        name, run_file = run_named(spec)
        files.append((f"run {name or run_file.stem!r}", run_file))
    files += [("the verdicts", read_from(spec)) for spec in verdict_specs(inputs)]
    if inputs.manifest is not None:
        files.append(("the manifest", Path(inputs.manifest)))
    if isinstance(inputs.judgments, str | Path):
        files.append(("the secondary judgments", Path(inputs.judgments)))
    if baseline is not None:
        files.append(("the baseline", baseline.path))
        files.append(("the baseline's per-question file", per_question_path(baseline.path)))
    files += [("the config file", Path(source)) for source in (gate.sources if gate else ())]
    for spec in inputs.chunks:
        _, chunk_map = parse_chunks_spec(spec) if isinstance(spec, str) else spec
        files.append(("the chunk map", Path(chunk_map)))
    return files


Sourced = TypeVar("Sourced", GoldSet, Run, VerdictSet, Manifest, ChunkMap)


def relabel(loaded: Sourced, root: Path) -> Sourced:
    """The same input, its ``source`` shown relative to ``root`` when it lies inside."""
    path = Path(loaded.source)
    if not path.is_relative_to(root):
        return loaded
    return dataclasses.replace(loaded, source=path.relative_to(root).as_posix())


def relabel_verdicts(verdicts: VerdictSet, root: Path) -> VerdictSet:
    """:func:`relabel` for verdicts, each judge trial's file too."""
    if not verdicts.trials:
        return relabel(verdicts, root)
    return verdict_trials([relabel(trial, root) for trial in verdicts.trials])


def _secondary(path: str | Path | pl.DataFrame, chunkings: Chunkings | None) -> pl.DataFrame:
    """Secondary judgments (read from a file, or loaded already), refused beside chunk
    maps (whose runs are judged on the evidence, not on chunk grades)."""
    from reportgen.load.inputs.labels import load_judgments

    if chunkings is not None and chunkings.maps:
        raise UsageError(
            "--judgments grade chunk ids, but with --chunks the runs are judged on the "
            "evidence spans",
            "leave out one of the two",
        )
    return load_judgments(path) if isinstance(path, str | Path) else path


def _shard_judgments(judgments: pl.DataFrame, cut: Mapping[str, Any] | None) -> pl.DataFrame:
    """A shard's part of the judge's grades: its questions by `reportgen shard`'s rule, so
    that the merge counts each of the judge's questions once."""
    from reportgen.scale.shard import shard_column

    if cut is None:
        raise UsageError(
            "--judgments with --merge-data needs the shard's place in its cut: the judge's "
            "questions are split by the rule that split the gold set and the runs",
            "cut the inputs with `reportgen shard` and measure each shard's gold file",
        )
    mine = shard_column(judgments.get_column("qid"), cut["shards"]) == cut["shard"]
    return judgments.filter(mine)


def make_report(request: ReportRequest) -> ReportResult:
    """Load, measure, check, render and write a report; nothing is written if a step fails.

    A failed quality gate does not stop the report: it is written, and
    ``result.gate_failures`` says which rules failed (``result.failure`` is what the
    CLI raises then, to exit 1).
    """
    check_request(request)
    inputs, settings, checks, outputs = (
        request.inputs,
        request.settings,
        request.checks,
        request.outputs,
    )
    # vl-convert's engine starts in a child process while the inputs load
    with chart_worker(outputs.formats) as worker:
        created = created_at()
        # a trace file as the gold set is the gold set, the first run and its verdicts
        gold_set, first_trace = requested_gold(inputs)
        previous = (
            load_baseline(
                inputs.baseline,
                gold_fingerprint=gold_set.fingerprint,
                version=inputs.baseline_version,
                commit=inputs.baseline_commit,
                fallback=inputs.baseline_fallback,
            )
            if inputs.baseline is not None
            else None
        )
        verdict_set = requested_verdicts(inputs)
        read = load_run_inputs(
            track(
                [spec if isinstance(spec, Run) else run_named(spec) for spec in inputs.runs],
                "Loading runs",
                _spec_label,
            ),
            gold_set,
            inputs.run_format,
            inputs.trace_question_key,
            first_trace,
            inputs.span_doc_key,
        )
        refuse_unused_span_keys(inputs, read.runs)
        loaded = set_index_versions(list(read.runs), inputs.run_index_versions)
        target = inputs.verdicts_run or (loaded[0].name if loaded else "")
        verdict_set = with_trace_verdicts(
            verdict_set, read.verdicts, target, [run.name for run in loaded]
        )
        refuse_verdicts_run_alone(inputs.verdicts_run, verdict_set)  # traces without any
        documents = None if inputs.docs is None else Documents(Path(inputs.docs))
        chunkings = load_chunkings(
            gold_set,
            inputs.chunks,
            [run.name for run in loaded],
            documents,
            inputs.chunks_format,
        )
        index = (
            chunk_manifest(chunkings)
            if inputs.manifest is None
            else load_manifest(inputs.manifest, inputs.manifest_format)
        )
        files_read = report_inputs(inputs, previous, checks.gate)
        refuse_planned(outputs, files_read, "report")
        if inputs.sources_relative_to is not None:
            root = Path(inputs.sources_relative_to)
            gold_set = relabel(gold_set, root)
            loaded = [relabel(run, root) for run in loaded]
            verdict_set = None if verdict_set is None else relabel_verdicts(verdict_set, root)
            index = None if index is None else relabel(index, root)
            if chunkings is not None:
                # once per map: runs that share a chunk map keep sharing it
                relabelled = {id(m): relabel(m, root) for m in chunkings.maps.values()}
                maps = {name: relabelled[id(m)] for name, m in chunkings.maps.items()}
                chunkings = dataclasses.replace(chunkings, maps=maps)
        evaluation = evaluate(gold_set, loaded, settings.scoring, chunkings=chunkings)
        evidence = Evidence(verdict_set, inputs.verdicts_run, index, previous, checks.as_of)
        if inputs.judgments is not None:
            evidence = dataclasses.replace(
                evidence,
                judgments=_secondary(inputs.judgments, chunkings),
                judgments_source=printable(inputs.judgments)
                if isinstance(inputs.judgments, str | Path)
                else "judgments (in memory)",
            )
        cut = None
        if outputs.merge_data and not isinstance(inputs.gold, GoldSet):
            cut = read_cut(Path(inputs.gold))  # a shard of `reportgen shard`: its place
        if outputs.merge_data and evidence.judgments is not None:
            evidence = dataclasses.replace(
                evidence, judgments=_shard_judgments(evidence.judgments, cut)
            )
        return analyse_and_write(
            evaluation, evidence, Ending.of(request), created, files_read, worker, cut=cut
        )


def merge_reports(
    shards: Sequence[str | Path] | MergeRequest,
    out_dir: str | Path | None = None,
    *,
    trec_eval: bool | None = None,
    version: str | None = None,
    per_question_format: str = "csv",
    gate: GateRules | None = None,
) -> ReportResult | MergeResult:
    """Merge shards (disjoint questions) into the report of all their questions.

    Pass a :class:`MergeRequest` for every option ``reportgen merge`` has, or the shard
    folders and ``out_dir`` for the defaults (the keywords are the old API's). Shards
    measured with ``--merge-data`` give the whole report, as ``reportgen report`` over
    every question would write it (a :class:`ReportResult`); shards that hold only
    per-question values (``trec_eval -q`` output, older reportgen) give the merged
    means, report.json and the per-question file (a :class:`MergeResult`).
    """
    if isinstance(shards, MergeRequest):
        return merge(shards)
    if out_dir is None:
        raise UsageError("merge_reports needs out_dir", "pass the folder to write into")
    outputs = ReportOutputs(out_dir, per_question_format=per_question_format)
    inputs = MergeInputs(list(shards), trec_eval=trec_eval)
    return merge(MergeRequest(inputs, outputs, ReportChecks(gate=gate), version=version))


RENDER_FORMATS = ("html", "md")
"""What ``reportgen render`` rebuilds: index.html, and report.md with summary.md."""

PAGE_KEYS = (
    "format_version",
    "version",
    "created",
    "tool_version",
    "k",
    "context_k",
    "settings",
    "gold",
    "runs",
    "hygiene",
    "warnings",
    "cutoff",
    "comparisons",
    "pages.questions",
    "pages.top_scores",
    "pages.measures",
)
"""The keys the pages read that a report.json of another kind (a merge of per-question
values, an older reportgen) may lack."""


def _per_question_file(folder: Path, given: str | None) -> str:
    """The per-question file the pages link: the one the folder holds (or ``given``)."""
    found = [f"per_question.{fmt}" for fmt in PER_QUESTION_FORMATS]
    found = [name for name in found if (folder / name).is_file()]
    if given is not None:
        check_formats(RENDER_FORMATS, given)
        found = [name for name in found if name == f"per_question.{given}"]
    if len(found) == 1:
        return found[0]
    if not found:
        wanted = f"per_question.{given}" if given else "per_question.csv or per_question.parquet"
        raise InputError(
            folder,
            f"no {wanted}: index.html and report.md link it (report.json alone would "
            "rebuild them with a dead link; summary.md does not need it)",
            "rebuild in the folder `reportgen report` wrote, with its per-question file",
        )
    raise UsageError(
        f"{printable(folder)} holds both per_question.csv and per_question.parquet",
        "say which one the pages link: --per-question-format csv or parquet",
    )


def _formats_in(folder: Path, formats: Sequence[str] | None) -> list[str]:
    """The formats asked for, else those whose pages the folder holds (else both)."""
    if formats is not None:
        check_formats(formats, "csv")
        unknown = sorted(set(formats) - set(RENDER_FORMATS))
        if unknown:
            raise ParameterError(
                "formats",
                unknown[0],
                "is not a page `render` rebuilds (report.json is read, not written)",
                f"choose from {', '.join(RENDER_FORMATS)}",
                option="--format",
            )
        return [fmt for fmt in RENDER_FORMATS if fmt in formats]
    present = {"html": ("index.html",), "md": ("report.md", "summary.md")}
    found = [fmt for fmt, names in present.items() if any((folder / n).is_file() for n in names)]
    return found or list(RENDER_FORMATS)


def render_report(
    report_dir: str | Path,
    *,
    formats: Sequence[str] | None = None,
    per_question_format: str | None = None,
    report_url: str = "index.html",
    chart_png: bool | None = None,
) -> list[Path]:
    """Rebuild a report folder's pages from its report.json (``reportgen render``).

    The pages come out byte for byte as ``reportgen report`` wrote them, given the same
    rendering options, which report.json does not record: ``formats`` (default: the
    pages the folder holds, else html and md), ``report_url`` (summary.md's link to
    the full report), ``chart_png`` (default: whether the folder has PNG charts) and
    the per-question file the pages link (default: the one the folder holds). Every
    file is written whole or not at all; report.json and the per-question file are
    read only. Returns the files written.
    """
    folder = Path(report_dir)
    check_report_url(report_url)
    refuse_undecodable({"report_url (--report-url)": report_url})
    fix = "give the folder that `reportgen report --out` (or demo, or merge) wrote"
    with reading(folder):
        if not folder.is_dir():
            raise InputError(
                folder, "no such folder" if not folder.exists() else "not a folder", fix
            )
        path = folder / "report.json"
        if not path.is_file():
            raise InputError(path, "no report.json in this folder", fix)
        report = read_report(path, (), fix)
        if report.get("format_version") != FORMAT_VERSION:
            raise InputError(
                path,
                f"report.json format_version {report.get('format_version')!s}: `render` "
                f"rebuilds the pages of format {FORMAT_VERSION} only (they read its keys)",
                "write the report again with this reportgen: `reportgen report`",
            )
        for key in PAGE_KEYS:
            value: Any = report
            for part in key.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            if value is None:
                raise InputError(
                    path,
                    f"no {key!r}: the pages cannot be rebuilt from this report.json "
                    "(a `--format json` report, which writes no pages and so keeps no "
                    "page data; a merge of per-question values; or a report written "
                    "before report.json held the pages' data)",
                    "write the report again with this reportgen and a page format "
                    "(`reportgen report --format html,md`, or `merge` of shards measured "
                    "with --merge-data)",
                )
        chosen = _formats_in(folder, formats)
        per_question_file = _per_question_file(folder, per_question_format)
        if chart_png is None:
            chart_png = any((folder / "charts").glob("*.png"))
    from reportgen.render.page_files import page_files  # Jinja2 and vl-convert: only here

    with chart_worker(chosen) as worker:
        files = page_files(
            cast(Report, report), chosen, per_question_file, report_url, chart_png, worker
        )
    return write_files(folder, files, option="REPORT_DIR", record="add")


def publish_report(
    report_dir: str | Path,
    site: str | Path,
    *,
    keep: int | None = None,
    lock_timeout: float = 60.0,
    public: bool = False,
    max_site_mb: float = 500.0,
    site_limit_mb: float = 1000.0,
) -> Published:
    """Add a written report folder to a versioned site (``reportgen publish``).

    ``keep``: keep the newest ``keep`` version folders (by commit ancestry), prune the
    others (their history lines stay, marked). ``lock_timeout``: seconds to wait while
    another publisher holds the site. ``public``: leave out question and chunk texts.
    ``max_site_mb``: past it, ``Published.warnings`` names the versions to prune.
    ``site_limit_mb``: a publish that would pass it is refused (UsageError), unchanged.
    """
    from reportgen.site.publish import publish  # Jinja2 and vl-convert: only for this command

    with writing(Path(site), "--site"):
        return publish(
            report_dir,
            site,
            keep=keep,
            lock_timeout=lock_timeout,
            public=public,
            max_site_mb=max_site_mb,
            site_limit_mb=site_limit_mb,
        )


@dataclass(frozen=True, repr=False)
class LabelQueue(Glanceable):
    """What `reportgen label export` wrote: the queue, and how much of the pool it holds."""

    path: Path
    format: str
    pairs: int
    pool: int
    """Unjudged pairs in the top k_ctx of any run, before --limit and --per-question."""
    questions: int
    first: int
    """Pairs of questions answered correctly with no relevant chunk sent, queued first."""
    sample: str | None = None
    """With ``sample``: how the audit was drawn, as each row's ``audit`` field says."""
    graded_whole: int = 0
    """With ``sample``: drawn questions the gold set already grades whole (nothing to
    queue; the report counts them in the audit unmarked)."""

    def glance(self) -> list[tuple[str, str]]:
        return [
            ("path", str(self.path)),
            ("pairs", f"{self.pairs} of {self.pool}"),
            ("questions", str(self.questions)),
            ("first", str(self.first)),
        ]


def _refuse_overwrite(out: Path, inputs: Sequence[tuple[str, Path]]) -> None:
    """An output that is one of the inputs would destroy what it was made from."""
    for what, given in inputs:
        if out.resolve() == Path(given).resolve():
            raise UsageError(
                f"--out {printable(out)} is {what}",
                "write to another file: an input is never overwritten",
            )


def export_labels(
    gold: str | Path,
    runs: Sequence[RunSpec],
    out: str | Path,
    *,
    context_k: int = 5,
    queue_format: str | None = None,
    limit: int | None = None,
    per_question: int | None = None,
    gold_format: str | None = None,
    run_format: str | None = None,
    verdicts: str | Path | None = None,
    verdict_format: str | None = None,
    verdicts_run: str | None = None,
    chunks: str | Path | None = None,
    docs: str | Path | None = None,
    judgments: str | Path | None = None,
    sample: int | None = None,
    seed: int = 0,
) -> LabelQueue:
    """Write the unjudged (question, chunk) pairs of the top ``context_k`` of any run.

    Questions the verdicts put in ``missed_correct`` come first, then the pairs more
    runs returned (SPEC.md, "Judged chunks and holes"). ``chunks`` (a chunk map with a
    text column, or with ``docs``) gives each chunk's text.

    ``sample`` (with ``judgments``, an LLM judge's grades): instead, the human audit of
    the judge: ``sample`` of the judge's questions drawn at random with ``seed`` (the
    same on every machine), each with every pair the judge graded and the top
    ``context_k`` of every run; every row is marked ``audit``, and `label import` keeps
    the mark on the questions, so that the report knows the audit is a random sample.
    """
    import polars as pl

    from reportgen.analyse.labelling import limited
    from reportgen.load.evidence.chunks import load_chunk_map
    from reportgen.load.formats.vocabulary import detect_format
    from reportgen.load.inputs.labels import trace_texts
    from reportgen.load.inputs.run_files import load_gold_input
    from reportgen.report.labelling import (
        QUEUE_FORMATS,
        chunk_texts,
        queue_bytes,
        queue_rows,
    )
    from reportgen.report.labelling import (
        queue_format as format_of,
    )

    out = Path(out)
    for name, value in (("limit", limit), ("per_question", per_question)):
        if value is not None and value < 1:
            raise ParameterError(
                name,
                value,
                "must be at least 1",
                "pass a number of pairs, e.g. 100",
                option=f"--{name.replace('_', '-')}",
            )
    if sample is not None:
        _check_sample(sample, judgments, limit, per_question)
    elif judgments is not None:
        raise UsageError(
            "label export reads --judgments only to draw an audit sample from them",
            "add --sample N (and --seed S), or leave --judgments out",
        )
    fmt = queue_format or format_of(out.name)
    if fmt not in QUEUE_FORMATS:
        raise ParameterError(
            "queue_format",
            fmt,
            "not a queue format",
            f"pass one of {', '.join(QUEUE_FORMATS)}",
            option="--format",
        )
    named = [run_named(spec) for spec in runs]
    given = [("the gold set", Path(gold))] + [(f"run {p.name}", p) for _, p in named]
    given += [
        (what, Path(p))
        for what, p in (
            ("the verdicts", verdicts),
            ("the chunk map", chunks),
            ("the judgments", judgments),
        )
        if p
    ]
    _refuse_overwrite(out, given)
    if docs is not None and out.resolve().is_relative_to(Path(docs).resolve()):
        raise UsageError(
            f"--out {printable(out)} is inside the --docs folder {printable(docs)}, whose "
            "files the queue quotes",
            "write the queue outside the documents folder",
        )
    settings = Settings(context_k=context_k, ks=(context_k,))
    gold_set, first = load_gold_input(Path(gold), gold_format, None, None)
    read = load_run_inputs(named, gold_set, run_format, None, first)
    marker, graded_whole = None, 0
    if sample is not None and judgments is not None:
        from reportgen.analyse.ppi import audit_marker, audit_pool, draw_audit
        from reportgen.load.inputs.labels import load_judgments

        judged = load_judgments(judgments)
        population = judged.get_column("qid").unique().to_list()
        if sample > len(population):
            raise ParameterError(
                "sample",
                sample,
                f"is more than the judge's {len(population)} questions",
                f"pass at most {len(population)}",
                option="--sample",
            )
        marker = audit_marker(sample, len(population), seed)
        drawn = draw_audit(population, sample, seed)
        pool = audit_pool(gold_set, read.runs, judged, drawn, settings.context_k)
        graded_whole = len(drawn) - pool.get_column("qid").n_unique()
    else:
        pool = _unjudged_pool(gold_set, read, settings, verdicts, verdict_format, verdicts_run)
    kept = limited(pool, limit, per_question)
    documents = None if docs is None else Documents(Path(docs))
    texts = [
        chunk_texts(
            None if chunks is None else load_chunk_map(chunks),
            None if documents is None else documents.text,
        )
    ]
    questions = []
    traces = [p for _, p in named if detect_format(p, run_format, "run") == "trace"]
    for path in [Path(gold)] * (first is not None) + traces:  # traces carry texts too
        chunk_text, asked = trace_texts(path)
        texts.append(chunk_text)
        questions.append(asked)
    rows = queue_rows(gold_set, kept, texts, questions)
    if marker is not None:
        rows = rows.with_columns(audit=pl.lit(marker))
    atomic_write(out, queue_bytes(rows, fmt), "--out")
    return LabelQueue(
        path=out,
        format=fmt,
        pairs=kept.height,
        pool=pool.height,
        questions=kept.get_column("qid").n_unique(),
        first=int(kept.get_column("missed_correct").sum()),
        sample=marker,
        graded_whole=graded_whole,
    )


def _check_sample(
    sample: int, judgments: str | Path | None, limit: int | None, per_question: int | None
) -> None:
    """An audit sample is drawn from the judge's questions and graded whole."""
    if sample < 1:
        raise ParameterError(
            "sample", sample, "must be at least 1", "pass e.g. --sample 60", option="--sample"
        )
    if judgments is None:
        raise ParameterError(
            "sample",
            sample,
            "draws from the judge's questions, and no judgments were given",
            "pass --judgments FILE, the LLM judge's grades",
            option="--sample",
        )
    if limit is not None or per_question is not None:
        raise UsageError(
            "--limit and --per-question would cut the audit sample short: its questions "
            "must be graded whole to stay a random sample",
            "leave them out with --sample (draw a smaller --sample instead)",
        )


def _unjudged_pool(
    gold_set: GoldSet,
    read: RunInputs,
    settings: Settings,
    verdicts: str | Path | None,
    verdict_format: str | None,
    verdicts_run: str | None,
) -> pl.DataFrame:
    """The labelling pool: the unjudged pairs, missed_correct questions first."""
    from reportgen.analyse.labelling import labelling_pool
    from reportgen.analyse.run import attribute_verdicts
    from reportgen.load.inputs.verdicts import load_verdicts

    verdict_set = load_verdicts(verdicts, verdict_format) if verdicts is not None else None
    verdict_set = (
        with_trace_verdicts(
            verdict_set,
            read.verdicts,
            verdicts_run or read.runs[0].name,
            [r.name for r in read.runs],
        )
        if read.runs
        else verdict_set
    )
    evaluation = evaluate(gold_set, read.runs, settings)
    attributions, _, _ = attribute_verdicts(evaluation, verdict_set, verdicts_run)
    missed = {
        qid
        for attribution in attributions
        for qid in attribution.overall.questions["missed_correct"]
    }
    return labelling_pool(gold_set, read.runs, settings.context_k, missed)


@dataclass(frozen=True, repr=False)
class LabelImport(Glanceable):
    """What `reportgen label import` wrote: the new gold version and what changed."""

    path: Path
    version: str | None
    questions_changed: tuple[str, ...]
    pairs_added: int
    labels_read: int
    fingerprint_before: str
    fingerprint_after: str
    notes: tuple[str, ...]

    def glance(self) -> list[tuple[str, str]]:
        return [
            ("path", str(self.path)),
            ("version", str(self.version)),
            ("pairs_added", str(self.pairs_added)),
            ("questions_changed", str(len(self.questions_changed))),
            ("fingerprint", f"{self.fingerprint_before} -> {self.fingerprint_after}"),
        ]


def _written_if_it_reads_back(out: Path, data: bytes, read: Callable[[Path], GoldSet]) -> GoldSet:
    """Write ``data`` to ``out`` only once it reads back as a gold set (what the next
    report reads): a new gold set that does not is refused, and no broken file stays."""
    import tempfile

    with writing(out.parent, "--out"):
        out.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
    staged = Path(name)
    try:
        after = read(staged)
    except InputError as error:
        staged.unlink(missing_ok=True)
        raise InputError(
            out,
            f"the new gold set would not read back ({error.problem}), so it was not written",
            error.fix,
            error.line,
        ) from None
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    atomic_write(out, data, "--out")
    staged.unlink(missing_ok=True)
    return after


def import_labels(
    gold: str | Path,
    labels: str | Path,
    out: str | Path,
    *,
    version: str | None = None,
    gold_format: str | None = None,
    labels_format: str | None = None,
) -> LabelImport:
    """Write a new gold version: the gold file with the graded pairs of ``labels`` added.

    Only labelled questions change; a pair the gold set already grades alike is
    skipped, otherwise refused; so are two labels of one pair that disagree.
    """
    from reportgen.load import load_gold
    from reportgen.load.formats.vocabulary import detect_format
    from reportgen.load.inputs.labels import label_format, load_labels
    from reportgen.report.new_gold import fresh_labels, new_gold

    gold_path, labels_path, out = Path(gold), Path(labels), Path(out)
    _refuse_overwrite(out, [("the gold set", gold_path), ("the labels", labels_path)])
    fmt = detect_format(gold_path, gold_format, "gold")
    gold_set = load_gold(gold_path, fmt)
    read = load_labels(labels_path, labels_format)
    unit = "task" if label_format(labels_path, labels_format) == "label-studio" else "line"
    fresh = fresh_labels(gold_set, read, printable(labels_path), unit)
    made = new_gold(gold_path, fmt, gold_set, fresh, version)
    after = _written_if_it_reads_back(out, made.data, lambda path: load_gold(path, fmt))
    return LabelImport(
        path=out,
        version=made.version,
        questions_changed=made.questions_changed,
        pairs_added=made.pairs_added,
        labels_read=read.height,
        fingerprint_before=gold_set.fingerprint,
        fingerprint_after=after.fingerprint,
        notes=made.notes,
    )
