"""Prediction-powered means: an LLM judge's grades over every question, corrected by a
random human audit (SPEC.md, "Prediction-powered measures").

The judge's mean over all N of its questions is biased by its errors; the gold set (the
human audit: n of those questions) is unbiased but wide. The prediction-powered (PPI)
mean adds the mean human-minus-judge difference on the audit to the judge's mean, and
its variance holds both terms (Angelopoulos et al., Science 2023):

    estimate = mean_N(J) + mean_n(H - J);  variance = var_N(J)/N + var_n(H - J)/n

Per-question values are the project's own (:func:`reportgen.measure.measures.per_question`
on the judge's grades read as a gold set), so they match trec_eval. Every audited
question needs both values: a question with no relevant chunk by one side counts as
trec_eval scores it on that side (0, but for nDCG's gains below the threshold), whether
or not --trec-eval keeps such questions in the gold set's means. Comparisons use the
same estimator on per-question differences.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from reportgen.analyse.compare import (
    ALPHA,
    apply_holm,
    pairs_to_compare,
    round_value,
    significant,
)
from reportgen.analyse.labelling import POOL_SCHEMA
from reportgen.analyse.secondary import agreement
from reportgen.core.model import (
    QUESTIONS_SCHEMA,
    UNLABELLED_KIND,
    GoldSet,
    ReportWarning,
    Run,
)
from reportgen.core.records import dataclass
from reportgen.errors import ParameterError, UsageError
from reportgen.load.inputs.config import GateRules
from reportgen.measure.measures import judge, per_question
from reportgen.measure.scoring import Evaluation, Means, RunMeans

ESTIMATES = ("human", "ppi")
"""What the gate reads: the gold set alone (default), or PPI (which also compares the
runs by it, beside the gold set's ``comparisons``)."""
Z95 = 1.96
"""SPEC.md's 95% interval: estimate +- 1.96 standard errors."""
POWER = 0.80
MIN_AUDIT = 30
"""Fewer audited questions and the normal interval is not to be trusted."""
MIN_KAPPA = 0.4
"""Below this agreement on the audited pairs the judge is given no weight."""
AUDIT_FIELD = "audit"
"""The gold question field `reportgen label export --sample` marks audited questions with."""
PPI_MEASURES = ("hit", "recall", "precision", "mrr", "ndcg", "ap")
"""The measures at k_ctx given a PPI mean (judged@k and hole@k are about the gold set)."""
_MARKER = re.compile(r"sample (\d+) of (\d+), seed (-?\d+)")


@dataclass(frozen=True)
class Estimate:
    """One PPI mean with its 95% interval, beside the two means it corrects between."""

    estimate: float | None
    ci_low: float | None
    ci_high: float | None
    n_human: int
    n_all: int
    judge_only: float | None
    human_only: float | None
    clipped: bool
    """The interval ran past the measure's range and was cut to it."""
    std_error: float | None

    def as_dict(self) -> dict[str, Any]:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round_value(value)

        return {
            "estimate": rounded(self.estimate),
            "ci_low": rounded(self.ci_low),
            "ci_high": rounded(self.ci_high),
            "n_human": self.n_human,
            "n_all": self.n_all,
            "judge_only": rounded(self.judge_only),
            "human_only": rounded(self.human_only),
            "clipped": self.clipped,
        }


def ppi_mean(
    judge_all: pl.Series,
    human: pl.Series,
    judge_audited: pl.Series,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> Estimate:
    """The PPI mean of one measure: ``judge_all`` over the N questions, ``human`` and
    ``judge_audited`` over the n audited ones, in the same order; the interval is cut to
    ``bounds`` (the measure's range), and says so."""
    n_all, n_human = judge_all.len(), human.len()
    judge_only = _mean(judge_all)
    human_only = _mean(human)
    gap = human - judge_audited
    if judge_only is None or human_only is None:
        return Estimate(None, None, None, n_human, n_all, judge_only, human_only, False, None)
    estimate = judge_only + float(gap.mean())  # type: ignore[arg-type]
    if n_all < 2 or n_human < 2:
        return Estimate(estimate, None, None, n_human, n_all, judge_only, human_only, False, None)
    variance = _var(judge_all) / n_all + _var(gap) / n_human
    std_error = math.sqrt(variance)
    low, high = estimate - Z95 * std_error, estimate + Z95 * std_error
    clipped = low < bounds[0] or high > bounds[1]
    low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(estimate, low, high, n_human, n_all, judge_only, human_only, clipped, std_error)


def _mean(values: pl.Series) -> float | None:
    return None if values.is_empty() else float(values.mean())  # type: ignore[arg-type]


def _var(values: pl.Series) -> float:
    return float(values.var(ddof=1))  # type: ignore[arg-type]


def audit_marker(size: int, population: int, seed: int) -> str:
    """The value of an audited question's ``audit`` field: how the sample was drawn."""
    return f"sample {size} of {population}, seed {seed}"


def draw_audit(qids: Sequence[str], size: int, seed: int) -> list[str]:
    """``size`` of the judge's questions, drawn at random and reproducibly: the ones with
    the smallest sha256 of (seed, id). The same seed draws the same questions on any
    machine and in any order of the input; sorted by id."""
    keyed = sorted({*qids}, key=lambda qid: hashlib.sha256(f"{seed}\x1f{qid}".encode()).digest())
    return sorted(keyed[:size])


@dataclass(frozen=True)
class Audit:
    """The human audit of the judge: which gold questions it is, and whether it may lend
    the judge weight (``guards``: the reasons it may not, empty when it may)."""

    questions: tuple[str, ...]
    judge_questions: int
    sample: tuple[int, int, int] | None
    """(size, population, seed) of the marked sample; None when none is marked."""
    agreement: dict[str, Any]
    outside_judge: int
    """Gold questions the judge did not grade: no part of the audit."""
    guards: tuple[ReportWarning, ...]

    def as_dict(self) -> dict[str, Any]:
        size, population, seed = self.sample or (None, None, None)
        return {
            "questions": len(self.questions),
            "judge_questions": self.judge_questions,
            "sample": None
            if self.sample is None
            else {"size": size, "population": population, "seed": seed},
            "outside_judge": self.outside_judge,
            "pairs": self.agreement["pairs"],
            "kappa": self.agreement["kappa"],
            "guards": [warning.as_dict() for warning in self.guards],
        }


def audit_of(gold: GoldSet, judgments: pl.DataFrame) -> Audit:
    """The audit: the gold questions marked by `label export --sample` (else every gold
    question the judge graded), with the guard rails checked."""
    judge_qids = judgments.get_column("qid").unique().sort()
    in_judge = gold.questions.filter(pl.col("qid").is_in(judge_qids.implode()))
    marks = gold.attributes.filter(pl.col("key") == AUDIT_FIELD).select("qid", "value")
    guards: list[ReportWarning] = []
    sample = None
    if marks.height:
        sample, problem, audited = _sample_problem(
            marks, judge_qids, _graded_whole(gold, judgments)
        )
        audited = audited.filter(audited.is_in(in_judge.get_column("qid").implode()))
        if problem:
            guards.append(_guard("ppi_audit_not_random", problem, marks.height))
    else:
        audited = in_judge.get_column("qid")
        guards.append(
            _guard(
                "ppi_audit_not_random",
                "no gold question is marked as a random sample of the judge's questions: "
                "a hand-picked audit can bias the PPI mean. Fix: draw the audit with "
                "`reportgen label export --judgments FILE --sample N --seed S`",
                audited.len(),
            )
        )
    audited = audited.sort()
    if audited.len() < MIN_AUDIT:
        guards.append(
            _guard(
                "ppi_audit_small",
                f"{audited.len()} audited question(s): fewer than {MIN_AUDIT}, too few for "
                "the normal interval. Fix: audit more questions (--sample N)",
                audited.len(),
            )
        )
    human = gold.judgments.filter(pl.col("qid").is_in(audited.implode()))
    agreed = agreement(human, judgments.select("qid", "chunk_id", "grade"))
    kappa = agreed["kappa"]
    if kappa is None or kappa < MIN_KAPPA:
        guards.append(
            _guard(
                "ppi_judge_disagrees",
                f"Cohen's kappa on the {agreed['pairs']} audited pair(s) is "
                f"{'undefined' if kappa is None else f'{kappa:.2f}'} (below {MIN_KAPPA}): "
                "the judge disagrees with your reviewers too often to lend it weight. "
                "Fix: improve the judge (prompt, model), or rely on the gold set alone",
                agreed["pairs"],
            )
        )
    return Audit(
        questions=tuple(audited.to_list()),
        judge_questions=judge_qids.len(),
        sample=sample,
        agreement=agreed,
        outside_judge=gold.questions.height - in_judge.height,
        guards=tuple(guards),
    )


def _graded_whole(gold: GoldSet, judgments: pl.DataFrame) -> pl.Series:
    """The judge's questions whose every judged pair the gold set grades too: `label
    export --sample` queues nothing for such a drawn question, so nothing marks it."""
    pairs = judgments.select("qid", "chunk_id")
    ungraded = pairs.join(
        gold.judgments.select("qid", "chunk_id"), on=["qid", "chunk_id"], how="anti"
    )
    return pairs.select("qid").unique().join(ungraded, on="qid", how="anti").get_column("qid")


def _sample_problem(
    marks: pl.DataFrame, judge_qids: pl.Series, graded_whole: pl.Series
) -> tuple[tuple[int, int, int] | None, str | None, pl.Series]:
    """The sample the marks record, why they are not that sample (None when they are),
    and the audited questions: the marked ones, and the drawn ones the gold set already
    graded whole (the export had nothing of theirs to queue and mark)."""
    marked_qids = marks.get_column("qid")
    values = marks.get_column("value").unique().sort().to_list()
    found = _MARKER.fullmatch(values[0]) if len(values) == 1 else None
    if found is None:
        shown = ", ".join(repr(v) for v in values[:3])
        problem = (
            f"the gold questions' {AUDIT_FIELD!r} fields ({shown}) do not name one sample "
            "(`sample N of M, seed S`). Fix: mark them only with `reportgen label export --sample`"
        )
        return None, problem, marked_qids
    size, population, seed = (int(part) for part in found.groups())
    drawn = set(draw_audit(judge_qids.to_list(), size, seed))
    marked = set(marked_qids.to_list()) | (drawn & set(graded_whole.to_list()))
    audited = pl.Series("qid", sorted(marked), dtype=pl.String)
    if population != judge_qids.len() or drawn != marked:
        missing, extra = sorted(drawn - marked), sorted(marked - drawn)
        problem = (
            f"the audit was drawn as {values[0]!r}, but the judgments have "
            f"{judge_qids.len()} question(s) and that draw differs from the marked "
            f"questions ({len(missing)} drawn not audited, e.g. {', '.join(missing[:3]) or '-'}; "
            f"{len(extra)} audited not drawn, e.g. {', '.join(extra[:3]) or '-'}). Fix: grade "
            "every drawn question, or draw the sample again from these judgments"
        )
        return (size, population, seed), problem, audited
    return (size, population, seed), None, audited


def _guard(code: str, message: str, count: int) -> ReportWarning:
    return ReportWarning(code, message, count)


def judge_gold(judgments: pl.DataFrame, source: str) -> GoldSet:
    """The judge's grades read as a gold set: every question it graded, answerable."""
    questions = (
        judgments.select(pl.col("qid").unique().sort())
        .with_columns(
            question=pl.lit(None, pl.String),
            kind=pl.lit(UNLABELLED_KIND),
            unanswerable=pl.lit(False),
            index_version=pl.lit(None, pl.String),
        )
        .cast(QUESTIONS_SCHEMA)
    )
    graded = judgments.select("qid", "chunk_id", "grade")
    return GoldSet(questions.select(QUESTIONS_SCHEMA.names()), graded, source)


def question_values(scores: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """(qid, one column per key): trec_eval's value, also for a question with nothing
    relevant (0, but for nDCG's gains below the threshold); 0 for one declared
    unanswerable."""
    unanswerable = pl.col("status") == "unanswerable"
    return scores.select(
        "qid",
        *[
            pl.when(unanswerable).then(0.0).otherwise(pl.col(k)).fill_null(0.0).alias(k)
            for k in keys
        ],
    ).sort("qid")


def ppi_keys(context_k: int, gate_measures: Sequence[str] = ()) -> list[str]:
    """The PPI measures: those at k_ctx, then any other the gate names."""
    keys = [f"{name}@{context_k}" for name in PPI_MEASURES]
    return keys + [m for m in dict.fromkeys(gate_measures) if m not in keys]


@dataclass(frozen=True)
class PPIFindings:
    """The PPI means of every run, with the per-question values they came from."""

    audit: Audit
    keys: tuple[str, ...]
    judge_values: dict[str, pl.DataFrame]
    """Run -> (qid, measures) on the judge's grades over its N questions."""
    human_values: dict[str, pl.DataFrame]
    """Run -> (qid, measures) on the gold set's grades over the audited questions."""
    estimates: dict[str, dict[str, Estimate]]

    @property
    def warnings(self) -> tuple[ReportWarning, ...]:
        return self.audit.guards


def judge_values(
    evaluation: Evaluation, judgments: pl.DataFrame, keys: Sequence[str]
) -> pl.DataFrame:
    """(run, qid, one column per key): every run scored on the judge's grades read as a
    gold set, by the scoring of the gold set's own numbers (:func:`question_values`)."""
    settings = evaluation.settings
    judged_gold = judge_gold(judgments, "the judgments")
    judged = judge(judged_gold, settings.ks, settings.threshold)
    return pl.concat(
        [
            question_values(
                per_question(
                    judged_gold, result.run, settings.ks, settings.threshold, judged=judged
                ),
                keys,
            ).select(pl.lit(result.name).alias("run"), pl.all())
            for result in evaluation.runs
        ]
    )


def ppi_findings(
    evaluation: Evaluation,
    judgments: pl.DataFrame,
    keys: Sequence[str],
    judged_values: pl.DataFrame | None = None,
) -> PPIFindings:
    """Every run's PPI means of ``keys``: the judge's values (:func:`judge_values`, or
    ``judged_values`` when a merge has them from its shards), the audit's human values
    from the gold set's scores."""
    measured = set(evaluation.settings.measure_keys)
    unknown = [key for key in keys if key not in measured]
    if unknown:
        raise UsageError(
            f"cannot give a prediction-powered mean of {unknown[0]!r}: it is not measured",
            "add its k with --k",
        )
    audit = audit_of(evaluation.gold, judgments)
    if judged_values is None:
        judged_values = judge_values(evaluation, judgments, keys)
    audited = pl.Series("qid", audit.questions, dtype=pl.String).implode()
    by_judge: dict[str, pl.DataFrame] = {}
    by_human: dict[str, pl.DataFrame] = {}
    estimates: dict[str, dict[str, Estimate]] = {}
    for result in evaluation.runs:
        name = result.name
        by_judge[name] = (
            judged_values.filter(pl.col("run") == name).select("qid", *keys).sort("qid")
        )
        by_human[name] = question_values(result.scores.filter(pl.col("qid").is_in(audited)), keys)
        estimates[name] = estimates_of(by_judge[name], by_human[name], keys)
    return PPIFindings(audit, tuple(keys), by_judge, by_human, estimates)


def estimates_of(
    judge_values: pl.DataFrame,
    human_values: pl.DataFrame,
    keys: Sequence[str],
    bounds: tuple[float, float] = (0.0, 1.0),
) -> dict[str, Estimate]:
    """The PPI mean of each key from the judge's values (N questions) and the human
    ones (the audit, a subset): the judge's values of the audit are joined on qid."""
    both = human_values.join(judge_values, on="qid", how="inner", suffix="_judge")
    return {
        key: ppi_mean(judge_values[key], both[key], both[f"{key}_judge"], bounds) for key in keys
    }


def ppi_section(findings: PPIFindings) -> dict[str, Any]:
    """report.json's ``secondary_judgments.ppi``: run -> measure -> the PPI mean."""
    return {
        run: {key: estimate.as_dict() for key, estimate in by_key.items()}
        for run, by_key in findings.estimates.items()
    }


def ppi_comparisons(
    findings: PPIFindings, names: Sequence[str], reference: str | None
) -> dict[str, Any]:
    """The comparisons by the PPI estimator on per-question differences (after - before),
    labelled by the comparisons' own rule (Holm across the family, compare.label); each
    mde at alpha / m, m the family's tests, so that the label detects it with 80% power
    (docs/verdicts.md)."""
    entries: list[dict[str, Any]] = []
    pairs = pairs_to_compare(names, reference)
    tests = max(len(pairs) * len(findings.keys), 1)
    from statistics import NormalDist  # only with an audit to plan: not at every start-up

    z_power = NormalDist().inv_cdf(1 - ALPHA / (2 * tests)) + NormalDist().inv_cdf(POWER)
    for before, after in pairs:
        judge_gap = _gap(findings.judge_values, before, after, findings.keys)
        human_gap = _gap(findings.human_values, before, after, findings.keys)
        measures = {}
        for key, found in estimates_of(judge_gap, human_gap, findings.keys, (-1.0, 1.0)).items():
            measures[key] = _difference_entry(found, z_power)
        entries.append(
            {
                "before": before,
                "after": after,
                "n_all": judge_gap.height,
                "n_human": human_gap.height,
                "measures": measures,
            }
        )
    apply_holm(entries)
    return {
        "estimate": "ppi",
        "method": "prediction-powered mean of per-question differences, normal 95% "
        "interval and two-sided z test, Holm across the family of m tests; mde = "
        "(z_{1 - 0.05 / 2m} + z_0.80) x its standard error: the change its label detects "
        "with 80% power, the correction included",
        "family_size": sum(len(entry["measures"]) for entry in entries),
        "pairs": entries,
    }


def _gap(
    values: Mapping[str, pl.DataFrame], before: str, after: str, keys: Sequence[str]
) -> pl.DataFrame:
    """Per-question after - before, over the questions both runs have values for."""
    both = values[after].join(values[before], on="qid", how="inner", suffix="_before")
    return both.select("qid", *[(pl.col(k) - pl.col(f"{k}_before")).alias(k) for k in keys])


def _difference_entry(found: Estimate, z_power: float) -> dict[str, Any]:
    """A difference's entry: its PPI numbers, the z test's p and the normal mde at the
    family's per-test alpha (``z_power`` = z_{1 - alpha / 2m} + z_0.80; null when no
    difference within the range would be detected with 80% power)."""
    entry = found.as_dict()
    del entry["n_human"], entry["n_all"]
    if found.estimate is None or not found.std_error:
        p, mde = 1.0, None
    else:
        z = abs(found.estimate) / found.std_error
        p = math.erfc(z / math.sqrt(2))
        detectable = z_power * found.std_error
        mde = round_value(detectable) if detectable <= 1 else None
    return entry | {"p": significant(p), "mde": mde}


def gate_means(findings: PPIFindings) -> dict[str, RunMeans]:
    """The PPI estimates as the means the gate reads (whole set only: no kinds)."""
    return {
        run: RunMeans(
            Means(
                findings.audit.judge_questions,
                {key: found.estimate for key, found in by_key.items()},
            ),
            {},
        )
        for run, by_key in findings.estimates.items()
    }


GOLD_ALONE = "gate on the gold set alone (the default estimate, human)"


def refuse_unguarded(findings: PPIFindings) -> None:
    """--estimate ppi lets the PPI means decide the comparisons and the gate: refused
    (exit 2) while a guard rail fails, with its reason; named as the caller spelled it
    (``estimate='ppi'`` in Python, ``--estimate ppi`` on the command line)."""
    if findings.audit.guards:
        first = findings.audit.guards[0]
        message, _, fix = first.message.partition(" Fix: ")
        more = len(findings.audit.guards) - 1
        also = f" (and {more} more: {', '.join(g.code for g in findings.audit.guards[1:])})"
        raise ParameterError(
            "estimate", "ppi", message + (also if more else ""), fix or GOLD_ALONE, "--estimate"
        )


def refuse_gate_rules(gate: GateRules | None, measured: Sequence[str]) -> None:
    """With --estimate ppi the gate reads PPI means of the whole set: min and max rules
    on a measure of the gold set, without a kind; the others are refused (exit 2)."""
    for rule in gate.rules if gate else ():
        if rule.type not in ("min", "max") or rule.kind is not None or rule.measure not in measured:
            raise ParameterError(
                "estimate",
                "ppi",
                "the gate reads prediction-powered means of the whole set, which only min "
                f"and max rules on a measure (no kind) can read, not {rule.where.lstrip('-')}",
                f"{GOLD_ALONE} for this rule, or make it a min or max rule",
                "--estimate",
            )


def label_gate(gate: dict[str, Any] | None, findings: PPIFindings) -> None:
    """Say in the gate's own messages that they read PPI means (in place)."""
    if gate is None:
        return
    said = (
        f" (prediction-powered: the judge over {findings.audit.judge_questions} questions, "
        f"corrected by a human audit of {len(findings.audit.questions)})"
    )
    for result in gate["rules"]:
        result["message"] += said


def audit_pool(
    gold: GoldSet, runs: Sequence[Run], judgments: pl.DataFrame, drawn: Sequence[str], k: int
) -> pl.DataFrame:
    """The pairs a person grades for the drawn audit (POOL_SCHEMA): every pair the judge
    graded and every chunk in the top ``k`` of any run, of the drawn questions, that the
    gold set does not grade yet; each question's pairs together, best rank first."""
    wanted = pl.col("qid").is_in(pl.Series(list(drawn), dtype=pl.String).implode())
    tops = [
        run.results.filter(wanted & (pl.col("rank") <= k))
        .select("qid", "chunk_id", "rank")
        .with_columns(run=pl.lit(run.name))
        for run in runs
    ]
    judged = judgments.filter(wanted).select(
        "qid", "chunk_id", rank=pl.lit(None, pl.Int64), run=pl.lit(None, pl.String)
    )
    return (
        pl.concat([judged, *tops])
        .join(gold.judgments.select("qid", "chunk_id"), on=["qid", "chunk_id"], how="anti")
        .group_by("qid", "chunk_id")
        .agg(
            runs=pl.col("run").drop_nulls().n_unique().cast(pl.Int64),
            best_rank=pl.col("rank").min().cast(pl.Int64),
            run_names=pl.col("run").drop_nulls().unique().sort(),
        )
        .with_columns(missed_correct=pl.lit(False))
        .sort(["qid", "best_rank", "chunk_id"], nulls_last=True)
        .select(POOL_SCHEMA.names())
    )
