"""``reportgen.evaluate``: the notebook's way in, from the dicts and DataFrames one has.

>>> import reportgen
>>> results = reportgen.evaluate({"q1": ["c1"]}, {"q1": ["c9", "c1"]}, k=[1, 2])
>>> results.means["hit@2"].item()
1.0

The inputs get the checks a file gets (reportgen.load.inputs.memory); the numbers come from
the same scoring as the CLI's, and ``Results.report`` writes the CLI's files.
"""

from __future__ import annotations

import dataclasses
import html
import importlib
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from reportgen.analyse.attribution import CELLS, Attribution, CellSummary
from reportgen.analyse.baseline import GOLD_CHANGE_POLICIES, GoldChangePolicy
from reportgen.analyse.latency import cost_findings
from reportgen.analyse.replicates import refuse_graded_replicates
from reportgen.analyse.run import attribute_verdicts
from reportgen.analyse.slices import slice_members, slicing_of
from reportgen.analyse.trials import TrialFindings
from reportgen.core.display import REPR_LIMIT, names
from reportgen.core.labels import created_at
from reportgen.core.model import UNLABELLED_KIND, ReportWarning, RetrievedRule, VerdictSet
from reportgen.core.records import dataclass
from reportgen.errors import InputError, ParameterError, UsageError, reworded
from reportgen.load.inputs.memory import gold_from, runs_from, verdicts_from
from reportgen.load.inputs.question_meta import with_question_meta
from reportgen.load.inputs.spans import HOPS_RULE
from reportgen.measure.measures import CUTOFF_MEASURES, WHOLE_LIST_MEASURES, means
from reportgen.measure.names import SUMMARY_STATISTICS
from reportgen.measure.scoring import (
    DEFAULT_CONTEXT_K,
    DEFAULT_KS,
    Evaluation,
    Settings,
    with_judged_questions,
)
from reportgen.measure.scoring import evaluate as score
from reportgen.render.output import FORMATS
from reportgen.report.assemble import per_question_rows
from reportgen.request import check_choice
from reportgen.schema import DIGITS

if TYPE_CHECKING:
    from reportgen.api import ReportResult
    from reportgen.load.inputs.config import GateRules

PathLike = str | os.PathLike[str]
Frame = Any
"""A Polars or a pandas DataFrame (pandas is optional: ``reportgen[pandas]``)."""
GoldInput = PathLike | Mapping[Any, Mapping[Any, int]] | Mapping[Any, Sequence[Any]] | Frame
RunInput = PathLike | Mapping[Any, Mapping[Any, float]] | Mapping[Any, Sequence[Any]] | Frame
RunsInput = RunInput | Mapping[str, RunInput] | Sequence[PathLike]
OneVerdicts = PathLike | Mapping[Any, bool | None] | Mapping[Any, Mapping[str, Any]] | pl.DataFrame
VerdictsInput = OneVerdicts | Sequence[OneVerdicts]
"""One judge's verdicts, or a list of the same answers judged again (judge trials)."""
JudgmentsInput = PathLike | Mapping[Any, Mapping[Any, int]] | pl.DataFrame


class Table(pl.DataFrame):
    """A Polars DataFrame whose ``to_pandas()`` says which extra to install when pandas
    or pyarrow is missing, instead of a bare ModuleNotFoundError from deep in Polars."""

    def to_pandas(self, *args: Any, **kwargs: Any) -> Any:
        try:
            for module in ("pandas", "pyarrow"):
                importlib.import_module(module)
        except ImportError as error:
            raise UsageError(
                f"to_pandas() needs pandas and pyarrow, and {error.name or 'one'} is missing",
                "pip install 'reportgen[pandas]' (or use the Polars DataFrame as it is)",
            ) from None
        return super().to_pandas(*args, **kwargs)


def _table(frame: pl.DataFrame) -> Table:
    return Table(frame)


def _rounded(value: Any) -> float | None:
    """As report.json holds it, so that both show the same digits."""
    return None if value is None else round(float(value), DIGITS)


@dataclass(frozen=True)
class Results:
    """Every run measured against the gold set. Each table is a Polars DataFrame
    (``.to_pandas()`` with ``reportgen[pandas]``); nothing is computed until asked."""

    evaluation: Evaluation
    verdicts: VerdictSet | None = None
    verdicts_run: str | None = None
    found_cells: Attribution | None = None
    """The four cells of the run the verdicts judge (analyse.run.attribute_verdicts)."""
    join_warnings: tuple[ReportWarning, ...] = ()
    """What the verdicts' join left out."""
    trials: TrialFindings | None = None
    """With several verdict trials: the flaky and tied questions, each cell's range and
    the judge's agreement (analyse.trials); None for one."""
    baseline_section: dict[str, Any] | None = None
    """report.json's ``baseline`` section when evaluate was given ``baseline=``."""
    slice_by: tuple[str, ...] = ()
    """The gold fields ``by_slice`` cuts the questions by (``--slice-by``)."""
    judgments: pl.DataFrame | None = None
    """An LLM judge's grades (JUDGMENTS_SCHEMA of load/inputs/labels.py), when given."""
    judgments_source: str = ""

    @cached_property
    def ppi(self) -> Table:
        """The prediction-powered means (docs/gold.md): one row per run and measure at
        k_ctx, the judge over all its questions corrected by the gold set's audit, beside
        the judge-only and the gold-set-only means; report.json's
        ``secondary_judgments.ppi``, as a table."""
        from reportgen.analyse.ppi import ppi_findings, ppi_keys

        if self.judgments is None:
            raise UsageError(
                "these results have no judge's grades",
                "pass judgments= to reportgen.evaluate (a path, {qid: {chunk_id: grade}} "
                "or a DataFrame)",
            )
        keys = ppi_keys(self.settings.context_k)
        found = ppi_findings(self.evaluation, self.judgments, keys)
        rows = [
            {"run": run, "measure": key, **estimate.as_dict()}
            for run, by_key in found.estimates.items()
            for key, estimate in by_key.items()
        ]
        return _table(pl.DataFrame(rows))

    @property
    def settings(self) -> Settings:
        return self.evaluation.settings

    @property
    def measures(self) -> list[str]:
        """Every measure's key (``hit@5``, ``nDCG@10`` is ``ndcg@10``, ``ap``...)."""
        return self.settings.measure_keys

    @property
    def runs(self) -> list[str]:
        return [result.name for result in self.evaluation.runs]

    @cached_property
    def checked(self) -> tuple[ReportWarning, ...]:
        """The input checks' warnings the report gives (stale ids, leaks), found when
        first asked for: they cost as much as the measuring on large runs."""
        from reportgen.analyse.hygiene import check

        return check(self.evaluation, as_of=created_at().date()).warnings

    @property
    def warnings(self) -> list[ReportWarning]:
        """What the reader must know before trusting a number (report.json ``warnings``)."""
        return [*self.checked, *self.evaluation.warnings, *self.join_warnings]

    def _means(self, by: str | None) -> pl.DataFrame:
        keys = self.measures
        rows: list[dict[str, Any]] = []
        for result in self.evaluation.runs:
            table = means(result.scores, keys, keep_no_relevant=self.settings.trec_eval, by=by)
            for row in table.iter_rows(named=True):
                rounded = {key: _rounded(row[key]) for key in keys}
                rows.append(
                    {"run": result.name, **{c: row[c] for c in row if c not in keys}} | rounded
                )
        schema = {"run": pl.String, **({by: pl.String} if by else {}), "n": pl.Int64}
        return pl.DataFrame(rows, schema=schema | dict.fromkeys(keys, pl.Float64))

    @cached_property
    def means(self) -> Table:
        """One row per run: ``n`` (questions in the means), then a column per measure."""
        return _table(self._means(None))

    @cached_property
    def by_kind(self) -> Table:
        """One row per run and kind of question, as ``means``."""
        return _table(self._means("kind"))

    @cached_property
    def by_slice(self) -> dict[str, Table]:
        """Field -> one row per run and slice (``value``): ``questions``, ``n`` and every
        mean, as report.json's ``runs.RUN.by_slice`` (a list field puts a question in
        each of its slices; ``(missing)``: those without a value)."""
        from reportgen.analyse.slices import Slicing, measure_slices

        found = measure_slices(
            {result.name: result.scores for result in self.evaluation.runs},
            self.evaluation.gold,
            Slicing(self.slice_by),
            self.measures,
            self.settings.trec_eval,
        )
        schema = {"run": pl.String, "value": pl.String, "questions": pl.Int64, "n": pl.Int64}
        schema |= dict.fromkeys(self.measures, pl.Float64)
        tables = {}
        for name in self.slice_by:
            rows = [
                {"run": run, "value": value, "questions": numbers.questions, "n": numbers.n}
                | {key: _rounded(mean) for key, mean in numbers.means.items()}
                for run, fields in found.numbers.items()
                for value, numbers in fields[name].items()
            ]
            tables[name] = _table(pl.DataFrame(rows, schema=schema))
        return tables

    @cached_property
    def per_question(self) -> Table:
        """One row per run and question (the CLI's per_question.csv): run, qid, kind,
        status (why a question is or is not in the means), then a column per measure."""
        return _table(per_question_rows(self.evaluation))

    @cached_property
    def latency(self) -> Table:
        """One row per run and quantity (``latency`` in ms, ``cost``, ``context_size``):
        count, missing (never read as 0), mean, p50, p90, p95, p99 (numpy's default
        linear method), as report.json's ``runs.NAME.latency``; empty when no run gives a
        latency or a cost."""
        found = cost_findings(self.evaluation, None, None, None, HOPS_RULE)
        schema: dict[str, Any] = {"run": pl.String, "quantity": pl.String, "unit": pl.String}
        schema |= {"count": pl.Int64, "missing": pl.Int64} | dict.fromkeys(
            SUMMARY_STATISTICS, pl.Float64
        )
        if found is None:
            return _table(pl.DataFrame(schema=schema))
        rows = [
            {"run": run, "quantity": quantity.name, "unit": quantity.unit}
            | {
                key: _rounded(value) if key in SUMMARY_STATISTICS else value
                for key, value in summary.items()
            }
            for run, by_name in found.runs.items()
            for quantity in found.quantities
            for summary in [by_name[quantity.name].summary]
        ]
        return _table(pl.DataFrame(rows, schema=schema))

    @cached_property
    def attribution(self) -> Table:
        """The four cells at k_ctx of the run the verdicts judge: one row for all
        questions (kind null), then one per kind when the gold set has kinds; empty
        without verdicts."""
        schema = {"run": pl.String, "kind": pl.String, "n": pl.Int64}
        schema |= dict.fromkeys(CELLS, pl.Int64) | {"pass_rate": pl.Float64}
        found = self.found_cells
        if found is None:
            return _table(pl.DataFrame(schema=schema))
        summaries: list[tuple[str | None, CellSummary]] = [(None, found.overall)]
        if set(found.by_kind) != {UNLABELLED_KIND}:  # no kinds: that row would repeat the first
            summaries += list(found.by_kind.items())
        headroom = self._predictors["headroom"]
        pairs = [headroom, *(headroom["by_kind"][kind] for kind, _ in summaries[1:])]
        rows: list[dict[str, Any]] = [
            {"run": found.run, "kind": kind, "n": summary.n, **summary.counts}
            | {"pass_rate": _rounded(summary.pass_rate)}
            | {f"{fix}_headroom": pair[fix]["added"] for fix in ("retrieval", "generation")}
            for (kind, summary), pair in zip(summaries, pairs, strict=True)
        ]
        schema |= {"retrieval_headroom": pl.Float64, "generation_headroom": pl.Float64}
        return _table(pl.DataFrame(rows, schema=schema))

    @cached_property
    def _predictors(self) -> dict[str, Any]:
        """report.json's ``by_first_gold_rank``, ``first_gold_rank``, ``association`` and
        ``headroom`` of the run the verdicts judge (empty without verdicts)."""
        from reportgen.analyse.predictors import predictors_of
        from reportgen.report.predictors import predictors_section

        if self.found_cells is None:
            return {}
        (found,) = predictors_of(self.evaluation, (self.found_cells,)).values()
        return predictors_section(found)

    @cached_property
    def first_gold_rank(self) -> Table:
        """The pass rate by the rank of the first relevant chunk among the chunks sent
        (``1``..k_ctx, ``none``) of the run the verdicts judge: one block of rows for all
        questions (kind null), then one per kind; ``low``/``high`` the Wilson interval.
        Its Cochran-Armitage trend is report.json's ``first_gold_rank.trend``."""
        schema: dict[str, Any] = {"run": pl.String, "kind": pl.String, "rank": pl.String}
        schema |= {"n": pl.Int64, "correct": pl.Int64} | dict.fromkeys(
            ("pass_rate", "low", "high"), pl.Float64
        )
        found = self._predictors
        if not found:
            return _table(pl.DataFrame(schema=schema))
        tables = [(None, found["by_first_gold_rank"])] + [
            (kind, part["by_first_gold_rank"])
            for kind, part in found["first_gold_rank"]["by_kind"].items()
        ]
        rows = [
            {"run": self.found_cells.run if self.found_cells else None, "kind": kind}
            | {"rank": rank, "n": row["n"], "correct": row["correct"]}
            | {"pass_rate": row["pass_rate"]}
            | dict(zip(("low", "high"), row["interval"] or (None, None), strict=True))
            for kind, ranks in tables
            for rank, row in ranks.items()
        ]
        return _table(pl.DataFrame(rows, schema=schema))

    @cached_property
    def association(self) -> Table:
        """Per measure at k_ctx, its AUC against the verdict (Mann-Whitney, ties half)
        with the bootstrap interval (``low``, ``high``), for the run the verdicts judge;
        null with a ``reason`` when every verdict agrees."""
        schema: dict[str, Any] = {"run": pl.String, "measure": pl.String}
        schema |= dict.fromkeys(("n", "correct", "wrong"), pl.Int64)
        schema |= dict.fromkeys(("auc", "low", "high"), pl.Float64) | {"reason": pl.String}
        found = self._predictors
        if not found:
            return _table(pl.DataFrame(schema=schema))
        run = self.found_cells.run if self.found_cells else None
        rows = [
            {"run": run, "measure": key}
            | {c: entry[c] for c in ("n", "correct", "wrong")}
            | {"auc": entry["auc"], "reason": entry["reason"]}
            | dict(zip(("low", "high"), entry["interval"] or (None, None), strict=True))
            for key, entry in found["association"]["measures"].items()
        ]
        return _table(pl.DataFrame(rows, schema=schema))

    @cached_property
    def headroom(self) -> Table:
        """What each fix is worth for the run the verdicts judge: per kind (null: all)
        and fix (``retrieval``, ``generation``), the failures, the answers it adds (an
        upper estimate; ``low``/``high`` its bootstrap interval) and the pass rate after."""
        schema: dict[str, Any] = {
            "run": pl.String,
            "kind": pl.String,
            "fix": pl.String,
            "failures": pl.Int64,
        }
        schema |= dict.fromkeys(("added", "low", "high", "pass_rate_after"), pl.Float64)
        found = self._predictors
        if not found:
            return _table(pl.DataFrame(schema=schema))
        run = self.found_cells.run if self.found_cells else None
        pairs = [(None, found["headroom"]), *found["headroom"]["by_kind"].items()]
        rows = [
            {"run": run, "kind": kind, "fix": fix, "failures": pair[fix]["failures"]}
            | {"added": pair[fix]["added"], "pass_rate_after": pair[fix]["pass_rate_after"]}
            | dict(zip(("low", "high"), pair[fix]["added_interval"] or (None, None), strict=True))
            for kind, pair in pairs
            for fix in ("retrieval", "generation")
        ]
        return _table(pl.DataFrame(rows, schema=schema))

    @cached_property
    def baseline(self) -> Table:
        """Each run against its namesake in the ``baseline=`` given to evaluate, paired
        by question, as ``reportgen report --baseline`` compares them (the same labels):
        one row per run and measure, with the family its label was corrected in (the
        headline measures at k_ctx are primary); empty without a baseline."""
        columns = ("before", "after", "difference", "ci_low", "ci_high", "p", "p_holm", "mde")
        schema = {"run": pl.String, "measure": pl.String, "n": pl.Int64}
        schema |= dict.fromkeys(columns, pl.Float64) | {"label": pl.String, "family": pl.String}
        section = self.baseline_section
        rows = [
            {"run": entry["run"], "measure": key, "n": entry["n"]}
            | {c: values[c] for c in (*columns, "label", "family")}
            for entry in (section or {}).get("comparisons", [])
            for key, values in entry["measures"].items()
        ]
        return _table(pl.DataFrame(rows, schema=schema))

    def compare(
        self,
        a: str,
        b: str,
        measures: Iterable[str] | None = None,
        *,
        cluster_by: str | None = None,
    ) -> pl.DataFrame:
        """Run ``b`` against run ``a``, paired by question, as the report compares them:
        one row per measure (by default those at k_ctx and the whole-list ones), with
        the bootstrap interval of the difference, Holm-corrected p-values over the
        measures of this one pair, the smallest detectable change (``mde``, null when
        none is) and the label; ``cluster_by`` as ``--cluster-by``."""
        from reportgen.analyse.baseline import current_sides
        from reportgen.analyse.clusters import question_clusters
        from reportgen.analyse.compare import compare_runs
        from reportgen.analyse.run import compared_keys

        sides = current_sides(self.evaluation)
        for parameter, name in (("a", a), ("b", b)):
            if name not in sides:
                raise ParameterError(
                    parameter, name, "names no run", f"use one of {', '.join(sides)}", option=""
                )
        if a == b:
            raise ParameterError("b", b, "is run a itself", "name two different runs", option="")
        chosen = None if measures is None else list(measures)
        keys = compared_keys(self.evaluation, chosen, None)
        clusters = question_clusters(self.evaluation, cluster_by)
        (entry,) = compare_runs(
            {a: sides[a], b: sides[b]},
            keys,
            [],
            reference=a,
            clusters=clusters,
            cluster_by=cluster_by,
        )["pairs"]
        columns = (
            "before",
            "after",
            "difference",
            "ci_low",
            "ci_high",
            "p",
            "p_holm",
            "mde",
            "label",
        )
        rows = [
            {"measure": key, "n": entry["n"]} | {c: values[c] for c in columns}
            for key, values in entry["measures"].items()
        ]
        schema = {"measure": pl.String, "n": pl.Int64} | dict.fromkeys(columns, pl.Float64)
        return _table(
            pl.DataFrame(rows, schema=schema | {"label": pl.String}).rename(
                {"before": a, "after": b}
            )
        )

    def report(
        self,
        out_dir: str | Path,
        *,
        formats: Sequence[str] = FORMATS,
        per_question_format: str = "csv",
        version: str | None = None,
        reference_run: str | None = None,
        compare_measures: Sequence[str] | None = None,
        gate: GateRules | None = None,
        strict: bool = False,
        cluster_by: str | None = None,
        slice_gate: str | None = None,
        min_slice_n: int = 10,
        estimate: str = "human",
    ) -> ReportResult:
        """Write the files ``reportgen report`` writes (report.json, per_question.csv,
        the HTML and Markdown pages and their charts, as ``formats`` ask) into ``out_dir``.

        One request to :func:`reportgen.api.make_report`, the CLI's own path, with the
        inputs already loaded; the keywords are the request's. ``result.failure`` is
        what the CLI would raise.
        """
        from reportgen.api import make_report
        from reportgen.load.inputs.config import GateRules
        from reportgen.request import (
            ReportChecks,
            ReportInputs,
            ReportOutputs,
            ReportRequest,
            ReportSettings,
        )

        _typed("out_dir", out_dir, (str, os.PathLike), "a folder path", "--out")
        _typed("version", version, (str, type(None)), "a string", "--version")
        _typed("gate", gate, (GateRules, type(None)), "GateRules", "--min")
        _typed("strict", strict, (bool,), "True or False", "--strict")
        if isinstance(compare_measures, str):
            raise ParameterError(
                "compare_measures",
                compare_measures,
                "must be a list of measure names, not one string",
                f"pass e.g. compare_measures=[{compare_measures!r}]",
                "--compare-measures",
            )
        # a run's replicates each, so that the report folds them as evaluate did
        runs = [
            replicate.run
            for result in self.evaluation.runs
            for replicate in (result.replicates or (result,))
        ]
        inputs = ReportInputs(
            self.evaluation.gold,
            runs,
            verdicts=self.verdicts,
            verdicts_run=self.verdicts_run,
            judgments=self.judgments,
        )
        request = ReportRequest(
            inputs,
            ReportOutputs(out_dir, formats, per_question_format),
            ReportSettings(
                self.settings,
                version,
                reference_run,
                compare_measures,
                cluster_by=cluster_by,
                slice_by=self.slice_by,
                slice_gate=slice_gate,
                min_slice_n=min_slice_n,
                estimate=estimate,
            ),
            ReportChecks(gate=gate, strict=strict),
        )
        return make_report(request)

    def headline(self) -> Table:
        """The means at k_ctx and over the whole list: the table a notebook shows."""
        k = self.settings.context_k
        keys = [m.key(k) for m in CUTOFF_MEASURES] + [m.key() for m in WHOLE_LIST_MEASURES]
        return _table(self.means.select("run", "n", *[k for k in keys if k in self.measures]))

    def __repr__(self) -> str:
        """One line (a notebook cell must not dump tables): what .headline() shows."""
        gold = self.evaluation.gold
        text = (
            f"<reportgen Results: {len(self.runs)} run(s) ({names(list(self.runs))}), "
            f"{gold.questions.height} questions, k_ctx={self.settings.context_k}, "
            f"{len(self.warnings)} warning(s); .headline() for the means>"
        )
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 4] + "...>"

    def _repr_html_(self) -> str:
        """Jupyter's view: the headline table and the warnings, every value escaped."""
        table = self.headline()
        head = "".join(f"<th>{html.escape(name)}</th>" for name in table.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(_cell(value))}</td>" for value in row) + "</tr>"
            for row in table.iter_rows()
        )
        notes = "".join(f"<li>{html.escape(warning.message)}</li>" for warning in self.warnings)
        gold = self.evaluation.gold
        caption = (
            f"reportgen: {len(self.runs)} run(s) on {gold.questions.height} questions "
            f"({gold.source}), k_ctx = {self.settings.context_k}; every measure in .means"
        )
        return (
            f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>" + (f"<ul>{notes}</ul>" if notes else "")
        )


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _cutoffs(k: int | Iterable[int]) -> tuple[int, ...]:
    values = (k,) if isinstance(k, int) else tuple(k) if isinstance(k, Iterable) else (k,)
    if not values or any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        raise ParameterError(
            "k", k, "must be a whole number or a list of them", "pass e.g. k=[1, 3, 5, 10]", "--k"
        )
    return values


def _typed(parameter: str, value: Any, types: tuple[type, ...], what: str, option: str) -> None:
    """A keyword of the wrong type is the caller's mistake, named, not a TypeError deep in."""
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise ParameterError(parameter, value, f"must be {what}", f"pass {what}", option)


def _whole(parameter: str, value: Any, option: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(parameter, value, "must be a whole number", "pass e.g. 5", option)
    return value


def _flag(parameter: str, value: Any) -> bool:
    """True or False only: ``trec_eval="no"`` would read as True."""
    _typed(parameter, value, (bool,), "True or False", f"--{parameter.replace('_', '-')}")
    return bool(value)


def evaluate(
    gold: GoldInput,
    runs: RunsInput,
    *,
    k: int | Iterable[int] = DEFAULT_KS,
    context_k: int = DEFAULT_CONTEXT_K,
    relevance_threshold: int = 1,
    trec_eval: bool = False,
    verdicts: VerdictsInput | None = None,
    verdicts_run: str | None = None,
    retrieved_when: RetrievedRule = "any",
    unanswerable: Sequence[str] = (),
    baseline: PathLike | Results | None = None,
    on_gold_change: GoldChangePolicy = "refuse",
    slice_by: Sequence[str] = (),
    question_meta: PathLike | None = None,
    judgments: JudgmentsInput | None = None,
) -> Results:
    """Measure runs against a gold set, from paths, dicts or DataFrames.

    ``gold``: a path, ``{qid: {chunk_id: grade}}``, ``{qid: [chunk_ids]}``, or a
    DataFrame (``qid``/``id``, ``chunk_id``/``docid``, ``grade``, optional ``kind``,
    ``unanswerable``). ``runs``: one run or ``{name: run}``, each a path, ``{qid:
    {chunk_id: score}}``, ``{qid: [chunk_ids]}`` (list order ranks) or a DataFrame
    (``qid``, ``chunk_id``, ``score`` and/or ``rank``). ``verdicts`` (a path or
    ``{qid: correct}``, or a DataFrame of id, correct; a list of them is the same answers
    judged again) adds the four cells for ``verdicts_run`` (default: the first run),
    a question counting as retrieved when ``retrieved_when`` any or all of its gold chunks
    were among the top ``context_k``. ``unanswerable``: the ids of a dict gold set's
    questions whose answer is not in the corpus. ``baseline``: an earlier report folder,
    its report.json, a site, or earlier Results; ``Results.baseline`` then compares each
    run with its namesake there, as ``reportgen report --baseline`` does; when the
    baseline was measured on another gold set, ``on_gold_change='intersect'`` compares on
    the questions both share instead of refusing. ``judgments``: an LLM judge's grades
    (a path as ``--judgments`` reads, ``{qid: {chunk_id: grade}}`` or a DataFrame with
    qid, chunk_id, grade), of questions the gold set may lack: ``Results.ppi`` gives the
    prediction-powered means, the gold set as the human audit.
    ``slice_by``: gold fields (a DataFrame's extra columns, list columns too; a JSON Lines
    file's own keys; ``question_meta``'s, a side file keyed by question id) whose slices
    ``Results.by_slice`` gives, and ``Results.report`` writes.
    """
    check_choice("on_gold_change", on_gold_change, GOLD_CHANGE_POLICIES)
    settings = Settings(
        ks=_cutoffs(k),
        context_k=_whole("context_k", context_k, "--context-k"),
        threshold=_whole("relevance_threshold", relevance_threshold, "--relevance-threshold"),
        trec_eval=_flag("trec_eval", trec_eval),
        retrieved_when=retrieved_when,
    )
    gold_set = gold_from(gold, unanswerable=unanswerable)
    if question_meta is not None:
        gold_set = with_question_meta(gold_set, question_meta)
    slicing = slicing_of(slice_by, None, 10)
    for name in slicing.fields:
        slice_members(gold_set, name)  # an unknown field is refused now, not when asked
    loaded = runs_from(runs)
    verdict_set = None if verdicts is None else verdicts_from(verdicts)
    evaluation = score(gold_set, loaded, settings)
    judged = None if judgments is None else _graded(evaluation, judgments)
    if judged is not None:  # the runs' questions the judge grades are measured (PPI)
        evaluation = with_judged_questions(evaluation, judged.get_column("qid").unique().to_list())
    cells, join_warnings, trials = attribute_verdicts(evaluation, verdict_set, verdicts_run)
    results = Results(
        evaluation,
        verdict_set,
        verdicts_run,
        cells[0] if cells else None,
        tuple(join_warnings),
        slice_by=slicing.fields,
        trials=trials,
        judgments=judged,
        judgments_source=_judgments_source(judgments),
    )
    if baseline is None:
        return results
    try:
        section = _against(results, baseline, on_gold_change)
    except InputError as error:
        raise reworded(error, API_NAMES) from None
    return dataclasses.replace(results, baseline_section=section)


API_NAMES = {
    "--on-gold-change intersect": "on_gold_change='intersect'",
    "--on-gold-change": "on_gold_change=",
    "--baseline-version": "baseline= (a version's folder in the site)",
    "--baseline SITE": "baseline=SITE",
    "--baseline": "baseline=",
}
"""The options a baseline's errors name, as evaluate() spells them."""


def _against(
    results: Results, baseline: PathLike | Results, on_gold_change: GoldChangePolicy
) -> dict[str, Any]:
    """report.json's ``baseline`` section: the analyses ``reportgen report`` runs with
    ``--baseline``, on the same loaded inputs, so the labels are the CLI's."""
    from reportgen.analyse.run import AnalysisOptions, run_analyses
    from reportgen.load.previous.baseline import Baseline, load_baseline
    from reportgen.report.assemble import assemble

    if isinstance(baseline, Results):
        then = run_analyses(
            baseline.evaluation,
            AnalysisOptions(verdicts=baseline.verdicts, verdicts_run=baseline.verdicts_run),
        )
        earlier = Baseline(
            Path("baseline"), dict(assemble(then)), per_question_rows(baseline.evaluation)
        )
    elif isinstance(baseline, str | os.PathLike):
        earlier = load_baseline(
            Path(baseline), gold_fingerprint=results.evaluation.gold.fingerprint
        )
    else:
        raise ParameterError(
            "baseline",
            baseline,
            "must be a report folder, its report.json, a site, or earlier Results",
            "pass e.g. baseline='site/' or baseline=earlier_results",
            "--baseline",
        )
    options = AnalysisOptions(
        verdicts=results.verdicts,
        verdicts_run=results.verdicts_run,
        baseline=earlier,
        on_gold_change=on_gold_change,
    )
    found = run_analyses(results.evaluation, options)
    if found.baseline is None:  # run_analyses compares whenever it is given a baseline
        raise RuntimeError("no baseline comparison was made")
    return dict(found.baseline.section)


def judgments_from(value: JudgmentsInput) -> pl.DataFrame:
    """A judge's grades as ``--judgments`` reads them (JUDGMENTS_SCHEMA), from a path, a
    ``{qid: {chunk_id: grade}}`` dict or a DataFrame (qid, chunk_id, grade; optionally
    source, model, prompt_hash); a pair graded twice alike kept once, otherwise refused."""
    from reportgen.load.inputs.labels import JUDGMENTS_SCHEMA, load_judgments

    if isinstance(value, str | os.PathLike):
        return load_judgments(Path(value))
    if isinstance(value, Mapping):
        rows = [
            (str(qid), str(chunk), grade)
            for qid, grades in value.items()
            for chunk, grade in _grades_of(qid, grades).items()
        ]
        frame = pl.DataFrame(
            rows, schema={"qid": pl.String, "chunk_id": pl.String, "grade": pl.Int64}, orient="row"
        )
    elif isinstance(value, pl.DataFrame):
        missing = [name for name in ("qid", "chunk_id", "grade") if name not in value.columns]
        if missing:
            raise ParameterError(
                "judgments",
                f"a DataFrame with columns {value.columns}",
                f"has no {missing[0]} column",
                "give qid, chunk_id and grade columns",
                "--judgments",
            )
        frame = value
    else:
        raise ParameterError(
            "judgments",
            type(value).__name__,
            "must be a path, {qid: {chunk_id: grade}} or a DataFrame",
            "pass e.g. judgments='judge.jsonl'",
            "--judgments",
        )
    frame = frame.with_columns(
        pl.col("qid").cast(pl.String),
        pl.col("chunk_id").cast(pl.String),
        pl.col("grade").cast(pl.Int64),
        *[
            pl.lit(None, pl.String).alias(name)
            for name in ("source", "model", "prompt_hash")
            if name not in frame.columns
        ],
        line=pl.int_range(1, pl.len() + 1, dtype=pl.Int64),
    ).select(JUDGMENTS_SCHEMA.names())
    conflicting = frame.unique(["qid", "chunk_id", "grade"]).filter(
        pl.struct("qid", "chunk_id").is_duplicated()
    )
    if conflicting.height or frame["grade"].lt(0).any() or frame["grade"].null_count():
        raise ParameterError(
            "judgments",
            "the judge's grades",
            "grade a pair twice differently, or hold a grade that is not a whole number >= 0",
            "keep one grade, 0 or more, per question and chunk",
            "--judgments",
        )
    return frame.unique(["qid", "chunk_id"], keep="first", maintain_order=True)


def _grades_of(qid: Any, grades: Any) -> Mapping[Any, int]:
    if not isinstance(grades, Mapping):
        raise ParameterError(
            "judgments",
            f"{qid!r}: {grades!r}",
            "each question's grades must be {chunk_id: grade}",
            "pass e.g. {'q1': {'c1': 1, 'c7': 0}}",
            "--judgments",
        )
    return grades


def _graded(evaluation: Evaluation, judgments: JudgmentsInput) -> pl.DataFrame:
    """The judge's grades, refused beside replicates as `reportgen report` refuses them."""
    refuse_graded_replicates(evaluation)
    return judgments_from(judgments)


def _judgments_source(value: JudgmentsInput | None) -> str:
    if value is None:
        return ""
    return str(value) if isinstance(value, str | os.PathLike) else "judgments (in memory)"
