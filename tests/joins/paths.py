"""Every way into a report, each a function (data set, folder, options) -> report.json.

The CLI is invoked in-process (click's runner: the very code `reportgen report` runs);
the notebook API through ``reportgen.evaluate(...).report(...)``, the CLI's own request.
A path that cannot carry an option says so in ``refuses``; the tests then check the
refusal instead of the numbers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner

import reportgen
from reportgen.cli import cli
from reportgen.measure.scoring import Settings
from reportgen.scale.blocks import write_in_blocks
from tests.joins import writers as w
from tests.joins.compare import SECTIONS
from tests.joins.dataset import JUDGED_RUN, RUNS, DataSet


@dataclass(frozen=True)
class Options:
    """The options that change numbers; the defaults are the plain report's."""

    k: tuple[int, ...] = (1, 3, 5, 10)
    context_k: int | None = 5
    """None: not given (5 is assumed, and the report says so)."""
    threshold: int = 1
    retrieved_when: str = "any"
    verdicts_run: str | None = JUDGED_RUN
    """None: not given (the verdicts then judge the first run)."""
    chunks: bool = False
    """--chunks (and --docs) over a gold set with evidence for some questions."""
    trec_eval: bool = False
    """--trec-eval: questions with nothing relevant stay in the means at 0."""
    chunk_every: int = 1
    """The chunk map keeps one chunk in n (n > 1: runs return chunks it lacks)."""

    @property
    def judged(self) -> str:
        """The run the verdicts judge."""
        return self.verdicts_run or RUNS[0]

    def cli(self, root: Path, verdicts_run: bool = True) -> list[str]:
        args = ["--k", ",".join(map(str, self.k))]
        args += [] if self.context_k is None else ["--context-k", str(self.context_k)]
        args += ["--relevance-threshold", str(self.threshold)]
        args += ["--retrieved-when", self.retrieved_when]
        args += ["--trec-eval"] if self.trec_eval else []
        if self.verdicts_run is not None and verdicts_run:
            args += ["--verdicts-run", self.verdicts_run]
        if self.chunks:
            args += ["--chunks", str(root / "chunks.csv"), "--docs", str(root / "docs")]
        return args


@dataclass
class Outcome:
    """A path's report.json, or its refusal (exit code and output)."""

    report: dict[str, Any] | None = None
    code: int = 0
    output: str = ""


def run_cli(args: list[str]) -> Outcome:
    done = CliRunner().invoke(cli, [*args, "-q"])
    if done.exit_code not in (0, 1):
        return Outcome(None, done.exit_code, done.output)
    out = Path(args[args.index("--out") + 1])
    return Outcome(json.loads((out / "report.json").read_text()), done.exit_code, done.output)


def report_cli(
    root: Path, gold: Path, runs: list[str], options: Options, extra: list[str], named: bool = True
) -> Outcome:
    """``named``: pass --verdicts-run (a trace file names the run its verdicts judge)."""
    out = root / f"out-{len(list(root.glob('out-*')))}"
    return run_cli(
        [
            "report",
            str(gold),
            *runs,
            *extra,
            *options.cli(root, named),
            "--format",
            "json",
            "--out",
            str(out),
        ]
    )


def _named(root: Path, suffix: str) -> list[str]:
    return [f"{name}={root / 'runs' / f'{name}.{suffix}'}" for name in RUNS]


def _gold(data: DataSet, root: Path, options: Options) -> Path:
    """gold.jsonl; with --chunks, its evidence, the chunk map and the documents too."""
    if options.chunks:
        w.chunk_map_csv(data, root / "chunks.csv", options.chunk_every)
        w.docs_folder(data, root / "docs")
    return w.gold_jsonl(data, root / "gold.jsonl", evidence=options.chunks)


def _verdicts(data: DataSet, root: Path) -> list[str]:
    return ["--verdicts", str(w.verdicts_jsonl(data, root / "verdicts.jsonl"))]


def verdicts_csv(data: DataSet, root: Path, options: Options) -> Outcome:
    """The plain path, its verdicts as CSV."""
    for name in RUNS:
        w.run_trec(data, name, root / "runs" / f"{name}.trec")
    verdicts = ["--verdicts", str(w.verdicts_csv(data, root / "verdicts.csv"))]
    return report_cli(root, _gold(data, root, options), _named(root, "trec"), options, verdicts)


def verdicts_naming_the_run(data: DataSet, root: Path, options: Options) -> Outcome:
    """Verdicts whose run field names the run they judge, and no --verdicts-run."""
    for name in RUNS:
        w.run_trec(data, name, root / "runs" / f"{name}.trec")
    verdicts = ["--verdicts", str(w.verdicts_jsonl(data, root / "v.jsonl", options.judged))]
    gold = _gold(data, root, options)
    return report_cli(root, gold, _named(root, "trec"), options, verdicts, named=False)


def judge_trials(data: DataSet, root: Path, options: Options) -> Outcome:
    """The verdicts as three judge trials, the third flipping every known verdict: the
    majority is the plain file's, so the cells must be too (issue 38)."""
    for name in RUNS:
        w.run_trec(data, name, root / "runs" / f"{name}.trec")
    plain_rows = w.verdict_records(data)
    flipped = [
        {**row, "correct": None if row["correct"] is None else not row["correct"]}
        for row in plain_rows
    ]
    trials = [w.lines(root / f"judge-{n}.jsonl", rows) for n, rows in enumerate(
        (plain_rows, plain_rows, flipped), start=1
    )]  # fmt: skip
    verdicts = [x for path in trials for x in ("--verdicts", str(path))]
    return report_cli(root, _gold(data, root, options), _named(root, "trec"), options, verdicts)


def replicates(data: DataSet, root: Path, options: Options) -> Outcome:
    """Every run the verdicts do not judge given twice (replicates alike): the mean of two
    equal values is the value, so every number must be the plain report's (issue 38)."""
    for name in RUNS:
        w.run_trec(data, name, root / "runs" / f"{name}.trec")
    runs = _named(root, "trec")
    twice = [spec for spec in runs if not spec.startswith(f"{options.judged}=")]
    return report_cli(
        root, _gold(data, root, options), [*runs, *twice], options, _verdicts(data, root)
    )


def _files(suffix: str, write: Callable[[DataSet, str, Path], Path]) -> PathFunction:
    def path(data: DataSet, root: Path, options: Options) -> Outcome:
        for name in RUNS:
            write(data, name, root / "runs" / f"{name}.{suffix}")
        return report_cli(
            root, _gold(data, root, options), _named(root, suffix), options, _verdicts(data, root)
        )

    return path


def _gold_file(write: Callable[[DataSet, Path], Path], name: str) -> PathFunction:
    def path(data: DataSet, root: Path, options: Options) -> Outcome:
        for run in RUNS:
            w.run_trec(data, run, root / "runs" / f"{run}.trec")
        gold = write(data, root / name)
        return report_cli(root, gold, _named(root, "trec"), options, _verdicts(data, root))

    return path


def traces(
    data: DataSet, root: Path, options: Options, named: bool = False, context: bool = False
) -> Outcome:
    """One trace file per run, the judged run's carrying the verdicts (as ``correct``);
    ``named``: --verdicts-run as well, naming the run the trace file's verdicts are for;
    ``context``: each line says it sent its top --context-k chunks."""
    _gold(data, root, options)  # the chunk map and the documents
    sent = (options.context_k or 5) if context else None
    files = [
        w.trace_file(
            data,
            name,
            root / f"{name}.traces.jsonl",
            name == options.judged,
            options.chunks,
            sent,
        )
        for name in RUNS
    ]
    runs = [f"{name}={path}" for name, path in zip(RUNS[1:], files[1:], strict=True)]
    return report_cli(root, files[0], runs, options, [], named)


def spans(suffix: str, key: bool, overlap: bool = False) -> PathFunction:
    """Span exports as runs, matched by --trace-question-key (``key``) or by question text;
    ``overlap``: later hops find the chunk the hop before ended on again."""

    def path(data: DataSet, root: Path, options: Options) -> Outcome:
        for name in RUNS:
            traces = w.span_traces(data, name, overlap)
            w.SPAN_WRITERS[suffix](traces, root / "runs" / f"{name}.{suffix}")
        extra = _verdicts(data, root)
        extra += ["--trace-question-key", "metadata.question_id"] if key else []
        return report_cli(root, _gold(data, root, options), _named(root, suffix), options, extra)

    return path


def _evaluate(
    gold: Any, runs: dict[str, Any], data: DataSet, root: Path, options: Options
) -> Outcome:
    verdicts = {v.qid: {"correct": v.correct, "abstained": v.abstained} for v in data.verdicts}
    results = reportgen.evaluate(
        gold,
        runs,
        k=options.k,
        context_k=options.context_k or 5,
        relevance_threshold=options.threshold,
        trec_eval=options.trec_eval,
        verdicts=verdicts,
        verdicts_run=options.verdicts_run,
        retrieved_when=options.retrieved_when,  # type: ignore[arg-type]
    )
    return Outcome(results.report(root / "evaluated", formats=("json",)).report)


def evaluate_dicts(data: DataSet, root: Path, options: Options) -> Outcome:
    """``{qid: {chunk: grade}}`` and ``{qid: {chunk: score}}``: no kinds, no repeats, and
    no unanswerable question (test_ways.py checks that ``{}`` is refused)."""
    runs = {
        name: {qid: dict(reversed(ranked)) for qid, ranked in data.runs[name].items()}
        for name in RUNS
    }  # reversed: a repeat (last) is overwritten by its first occurrence
    gold = {qid: grades for qid, grades in w.gold_dict(data).items() if grades}
    return _evaluate(gold, runs, data, root, options)


def evaluate_lists(data: DataSet, root: Path, options: Options) -> Outcome:
    """``{qid: [chunks]}``: list order ranks, no scores (so no cutoff)."""
    runs = {name: w.run_dict(data, name) for name in RUNS}
    return _evaluate(w.gold_frame(data), runs, data, root, options)


def evaluate_polars(data: DataSet, root: Path, options: Options) -> Outcome:
    runs = {name: w.run_frame(data, name) for name in RUNS}
    return _evaluate(w.gold_frame(data), runs, data, root, options)


def evaluate_pandas(data: DataSet, root: Path, options: Options) -> Outcome:
    """Grades as pandas' nullable Int64: numpy's int64 cannot hold the unanswerable
    rows' empty grade (``float_grades`` is that case, a known difference)."""
    gold = w.gold_frame(data).to_pandas()
    gold["grade"] = gold["grade"].astype("Int64")
    runs = {name: w.run_frame(data, name).to_pandas() for name in RUNS}
    return _evaluate(gold, runs, data, root, options)


def evaluate_pandas_float_grades(data: DataSet, root: Path, options: Options) -> Outcome:
    """``DataFrame.to_pandas()`` as it comes: an empty grade makes the column float64."""
    runs = {name: w.run_frame(data, name).to_pandas() for name in RUNS}
    return _evaluate(w.gold_frame(data).to_pandas(), runs, data, root, options)


def blocks(data: DataSet, root: Path, options: Options) -> Outcome:
    """``reportgen.scale.blocks.write_in_blocks``: Parquet runs measured three blocks of
    questions at a time, the blocks merged (means only: no verdicts)."""
    for name in RUNS:
        w.run_parquet(data, name, root / "runs" / f"{name}.parquet")
    gold = _gold(data, root, options)
    settings = Settings(
        ks=options.k,
        context_k=options.context_k or 5,
        threshold=options.threshold,
        trec_eval=options.trec_eval,
    )
    write_in_blocks(gold, _named(root, "parquet"), root / "blocks", 3, settings=settings)
    return Outcome(json.loads((root / "blocks" / "report.json").read_text()))


PathFunction = Callable[[DataSet, Path, Options], Outcome]

plain = _files("trec", w.run_trec)


@dataclass(frozen=True)
class Way:
    """A way in, and the sections it cannot carry (with why)."""

    run: PathFunction
    lacks: dict[str, str] = field(default_factory=dict)
    kinds: bool = True
    """False: every question is `unlabelled`, so kinds are left out of the comparisons."""
    evidence: bool = True
    """False: the gold set cannot carry evidence spans, so --chunks derives nothing."""


NO_KINDS = {"by_kind": "no kinds", "cells_by_kind": "no kinds"}
NO_UNANSWERABLE = {
    **NO_KINDS,
    "unanswerable": "no unanswerable question",
    "cutoff": "no unanswerable question",
}
TRACE_LACKS = {"unanswerable": "a trace line has no abstained"}
WAYS: dict[str, Way] = {
    "jsonl": Way(_files("jsonl", w.run_jsonl)),
    "csv": Way(_files("csv", w.run_csv)),
    "parquet": Way(_files("parquet", w.run_parquet)),
    "ranx-json": Way(_files("json", w.run_ranx)),
    "verdicts-name-the-run": Way(verdicts_naming_the_run),
    "verdicts-csv": Way(verdicts_csv),
    "judge-trials": Way(judge_trials),
    "replicates": Way(replicates),
    "gold-qrels": Way(
        _gold_file(w.gold_qrels, "gold.qrels"), NO_UNANSWERABLE, kinds=False, evidence=False
    ),
    "gold-csv": Way(_gold_file(w.gold_csv, "gold.csv"), evidence=False),
    "traces": Way(traces, TRACE_LACKS),
    "traces-context": Way(lambda d, r, o: traces(d, r, o, context=True), TRACE_LACKS),
    "otlp": Way(spans("otlp.json", key=True)),
    "otlp-lines": Way(spans("otlp-lines.jsonl", key=False)),
    "otlp-genai": Way(spans("genai.otlp.json", key=True)),
    "phoenix-jsonl": Way(spans("phoenix.jsonl", key=False)),
    "phoenix-parquet": Way(spans("phoenix.parquet", key=True)),
    "evaluate-dicts": Way(evaluate_dicts, NO_UNANSWERABLE, kinds=False, evidence=False),
    "blocks": Way(
        blocks,
        {name: "means only" for name in SECTIONS if name not in ("means", "by_kind")},
        evidence=False,
    ),
    "evaluate-lists": Way(evaluate_lists, {"cutoff": "no scores"}, evidence=False),
    "evaluate-polars": Way(evaluate_polars, evidence=False),
    "evaluate-pandas": Way(evaluate_pandas, evidence=False),
}
