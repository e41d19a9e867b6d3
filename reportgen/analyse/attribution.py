"""The four cells: was the evidence retrieved, and was the answer right?

An end-to-end pass rate mixes two faults. Crossing hit@k_ctx (did the gold reach the
model?) with the verdict (was the answer correct?) separates them (SPEC.md):

    retrieved & correct   working as designed
    retrieved & wrong     generation failure: the model had the passage
    missed & correct      answered from memory: right today, a hallucination tomorrow
    missed & wrong        retrieval failure: no prompt can fix it

Pure: the gold set, one run's per-question scores and the verdicts in; frames and
plain values out. Unanswerable questions stay out of the cells and are counted on
their own: declined (right) or answered anyway (wrong).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import Literal

import polars as pl

from reportgen.analyse.coverage import ContextSource, by_coverage
from reportgen.analyse.coverage import retrieved as retrieved_by
from reportgen.core.model import GoldSet, ReportWarning, RetrievedRule, VerdictSet, examples
from reportgen.core.records import dataclass
from reportgen.errors import ParameterError, UsageError, case_hint
from reportgen.measure.measures import IN_MEANS

CELLS = ("retrieved_correct", "retrieved_wrong", "missed_correct", "missed_wrong")
"""Row by row, as SPEC.md draws the table."""
Focus = Literal["generation", "retrieval", "tie", "none"]


def choose_run(verdicts: VerdictSet, run_names: Sequence[str], requested: str | None) -> str:
    """The run the verdicts judge: the one asked for, else the one the file names, else the
    first run (the one whose chunks were sent to the model)."""
    named = verdicts.runs
    if requested is not None:
        if requested not in run_names:
            raise ParameterError(
                "verdicts_run",
                requested,
                f"not one of the runs ({', '.join(run_names)})",
                "name one of the runs given",
                option="--verdicts-run",
            )
        chosen = requested
    elif len(named) == 1 and named[0] in run_names:
        chosen = named[0]
    else:
        chosen = run_names[0]
    unnamed_rows = verdicts.rows.get_column("run").null_count() > 0
    if named and chosen not in named and not unnamed_rows:
        raise UsageError(
            f"{verdicts.source} has verdicts for run(s) {', '.join(named)}, none for {chosen!r}",
            f"pass --verdicts-run {named[0]} (or the run the verdicts are for)",
        )
    return chosen


VERDICTS_RUN_ASSUMED = "verdicts_run_assumed"


def assumed_run_warning(
    verdicts: VerdictSet, run_names: Sequence[str], requested: str | None, chosen: str
) -> list[ReportWarning]:
    """A warning when the run the verdicts judge was a guess: several runs, no
    --verdicts-run, and verdicts that name none of them (when they name some, each of
    those gets its own cells). The four cells (and which comparisons are primary) then
    rest on the first run given; every output says so (the k_ctx assumed notice's
    pattern), and the report stays usable: refusing would break every pipeline that
    gives its system first and others to compare."""
    named = [name for name in verdicts.runs if name in run_names]
    if requested is not None or len(run_names) < 2 or named:
        return []
    return [
        ReportWarning(
            VERDICTS_RUN_ASSUMED,
            f"the verdicts ({verdicts.source}) name no run given here, so they were taken "
            f"to judge {chosen!r}, the first run given: the four cells are {chosen}'s. Fix: pass "
            f"--verdicts-run with the run whose top k_ctx chunks were sent to the model "
            f"(one of {', '.join(run_names)})",
            1,
            (chosen,),
        )
    ]


@dataclass(frozen=True)
class VerdictJoin:
    """How the verdicts met the gold set: what matched, what did not, and why."""

    run: str
    rows: pl.DataFrame
    """qid, correct, abstained: one row per gold question with a verdict."""
    gold_without: tuple[str, ...]
    """Gold questions (answerable or not) with no verdict for this run."""
    unknown_questions: tuple[str, ...]
    """Ids (or question texts) in the verdicts that the gold set does not have."""
    unknown_verdicts: tuple[str, ...]
    """Gold questions whose verdict is unknown (the eval errored or left it empty)."""
    other_runs: tuple[str, ...] = ()
    gold_ids: tuple[str, ...] = ()
    """Every gold question id, for the hint when verdict ids differ only in case."""


def _normalised(text: pl.Expr) -> pl.Expr:
    return text.str.replace_all(r"\s+", " ").str.strip_chars()


def join_verdicts(gold: GoldSet, verdicts: VerdictSet, run: str) -> VerdictJoin:
    """Keep the verdicts for ``run`` (and those naming no run), matched to gold questions."""
    rows = verdicts.rows.lazy().filter(pl.col("run").is_null() | (pl.col("run") == run))
    if verdicts.join_on == "question":
        texts = (
            gold.questions.lazy()
            .filter(pl.col("question").is_not_null())
            .select("qid", text=_normalised(pl.col("question")))
            .filter(pl.col("text").is_unique())
        )
        rows = (
            rows.drop("qid")
            .with_columns(text=_normalised(pl.col("question")))
            .join(texts, on="text", how="left")
        )
    ids = gold.questions.lazy().select("qid")
    matched = rows.join(ids, on="qid", how="semi")
    label = pl.coalesce("qid", "question") if verdicts.join_on == "id" else pl.col("question")
    # what matched and what did not, in one collect
    kept, without, unknown, unknown_verdicts = pl.collect_all(
        [
            matched.select("qid", "correct", "abstained").sort("qid"),
            gold.questions.lazy().join(matched, on="qid", how="anti").select(pl.col("qid").sort()),
            rows.join(ids, on="qid", how="anti").select(label.sort()),
            matched.filter(pl.col("correct").is_null()).select(pl.col("qid").sort()),
        ]
    )
    return VerdictJoin(
        run=run,
        rows=kept,
        gold_without=tuple(without.to_series().to_list()),
        unknown_questions=tuple(unknown.to_series().to_list()),
        unknown_verdicts=tuple(unknown_verdicts.to_series().to_list()),
        other_runs=tuple(name for name in verdicts.runs if name != run),
        gold_ids=tuple(gold.questions.get_column("qid").to_list())
        if len(unknown) and verdicts.join_on == "id"
        else (),
    )


@dataclass(frozen=True)
class CellSummary:
    """Counts, shares and ids of the four cells over one group of questions."""

    counts: dict[str, int]
    questions: dict[str, list[str]]

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def share(self, cell: str) -> float | None:
        return self.counts[cell] / self.n if self.n else None

    @property
    def pass_rate(self) -> float | None:
        """The end-to-end number: right answers over all, whichever stage did the work."""
        if not self.n:
            return None
        return (self.counts["retrieved_correct"] + self.counts["missed_correct"]) / self.n

    @property
    def focus(self) -> Focus:
        """Where the effort goes: the larger failure cell (SPEC.md)."""
        generation = self.counts["retrieved_wrong"]
        retrieval = self.counts["missed_wrong"]
        if generation == retrieval:
            return "none" if generation == 0 else "tie"
        return "generation" if generation > retrieval else "retrieval"


@dataclass(frozen=True)
class Attribution:
    """The four cells of one run at k_ctx, overall and per kind, and the unanswerable table."""

    run: str
    k: int
    join: VerdictJoin
    questions: pl.DataFrame
    """Every gold question: qid, kind, status, relevant, sent, coverage, traced,
    retrieved, correct, abstained, cell (null outside the cells), declined (for
    unanswerable ones; null when unknown)."""
    overall: CellSummary
    by_kind: dict[str, CellSummary] = field(default_factory=dict)
    rule: RetrievedRule = "any"
    context_source: ContextSource = "top_k"
    traced: int = 0
    """Questions in the cells whose sent chunks came from the trace, not the top k."""

    @property
    def by_coverage(self) -> dict[str, dict[str, int | float | None]]:
        """The pass rate when all, some or none of the relevant chunks were sent."""
        return by_coverage(self.questions)

    def unanswerable(self, outcome: Literal["declined", "answered", "unknown"]) -> list[str]:
        """Ids of the unanswerable questions with a verdict, by what the system did."""
        declined = pl.col("declined")
        which = {
            "declined": declined.fill_null(False),
            "answered": ~declined.fill_null(True),
            "unknown": declined.is_null(),
        }[outcome]
        picked = self.questions.filter(
            (pl.col("status") == "unanswerable") & pl.col("has_verdict") & which
        )
        return picked.get_column("qid").sort().to_list()


def _cell_ids(questions: pl.LazyFrame, *by: str) -> pl.LazyFrame:
    """Per ``by`` and cell, the ids of the questions in it, sorted (rows with a null
    cell left out)."""
    return (
        questions.filter(pl.col("cell").is_not_null())
        .sort("qid")
        .group_by(*by, "cell")
        .agg(pl.col("qid"))
    )


def _summary(grouped: pl.DataFrame) -> CellSummary:
    """The summary of one group's cells (rows of :func:`_cell_ids`)."""
    ids = dict(zip(grouped["cell"].to_list(), grouped["qid"].to_list(), strict=True))
    return CellSummary(
        counts={cell: len(ids.get(cell, [])) for cell in CELLS},
        questions={cell: ids.get(cell, []) for cell in CELLS},
    )


def attribute(
    scores: pl.DataFrame,
    join: VerdictJoin,
    k: int,
    covered: pl.DataFrame,
    rule: RetrievedRule = "any",
) -> Attribution:
    """Sort every answerable question with a known verdict into its cell at ``k``.

    ``scores`` is the run's per-question frame (qid, kind, status); ``covered`` says per
    question how many relevant chunks it has and how many were sent
    (:func:`reportgen.analyse.coverage.coverage`); a question the run did not answer had
    none sent. ``rule`` decides what counts as retrieved: any of them, or all of them, sent.
    """
    retrieved = pl.col("retrieved")
    correct = pl.col("correct")
    cell = (
        pl.when(~pl.col("status").is_in(list(IN_MEANS)) | correct.is_null())
        .then(pl.lit(None, pl.String))
        .when(retrieved & correct)
        .then(pl.lit("retrieved_correct"))
        .when(retrieved)
        .then(pl.lit("retrieved_wrong"))
        .when(correct)
        .then(pl.lit("missed_correct"))
        .otherwise(pl.lit("missed_wrong"))
    )
    questions = (
        scores.lazy()
        .select("qid", "kind", "status")
        .join(
            covered.lazy().select("qid", "relevant", "sent", "coverage", "traced"),
            on="qid",
            how="left",
        )
        .with_columns(retrieved=retrieved_by(rule).fill_null(False))
        .join(join.rows.lazy().with_columns(has_verdict=pl.lit(True)), on="qid", how="left")
        .with_columns(
            pl.col("has_verdict").fill_null(False),
            cell=cell,
            # An unanswerable question is handled well when the system declines; without
            # an abstained field, a correct verdict is the judge saying it declined.
            declined=pl.when(pl.col("status") == "unanswerable").then(
                pl.coalesce("abstained", "correct")
            ),
        )
        .sort("qid")
        .collect()
    )
    # the cells overall and per kind (in order of kind), and the traced questions: one collect
    overall, kinds, counted = pl.collect_all(
        [
            _cell_ids(questions.lazy()),
            _cell_ids(questions.lazy(), "kind").sort("kind"),
            questions.lazy()
            .filter(pl.col("cell").is_not_null() & pl.col("traced"))
            .select(pl.len()),
        ]
    )
    traced = int(counted.item())
    by_kind = {
        part.get_column("kind")[0]: _summary(part)
        for part in kinds.partition_by("kind", maintain_order=True)
    }
    return Attribution(
        run=join.run,
        k=k,
        join=join,
        questions=questions,
        overall=_summary(overall),
        by_kind=by_kind,
        rule=rule,
        context_source="trace" if traced else "top_k",
        traced=traced,
    )


def stale_by_cell(questions: pl.DataFrame, stale: pl.DataFrame) -> dict[str, list[str]]:
    """Per cell, the questions with a gold id the index no longer holds.

    ``questions`` is :attr:`Attribution.questions`; ``stale`` is (qid, chunk_id) of the
    stale gold ids. Such a question cannot be retrieved whatever the run does, so a miss
    on it says the gold set is out of date, not that search failed. The counts keep their
    meaning; the ids are marked beside them.
    """
    flagged = questions.lazy().join(stale.lazy().select("qid").unique(), on="qid", how="semi")
    return _summary(_cell_ids(flagged).collect()).questions


def verdict_warnings(attribution: Attribution) -> list[ReportWarning]:
    """What the verdicts' join leaves out: questions without a verdict, verdicts for no
    gold question, unknown verdicts."""
    join = attribution.join
    found = []
    if join.gold_without:
        found.append(
            ReportWarning(
                "verdicts_missing",
                f"{len(join.gold_without)} gold question(s) have no verdict for run "
                f"{join.run!r}; they are left out of the four cells and the unanswerable table",
                len(join.gold_without),
                examples(join.gold_without),
            )
        )
    if join.unknown_questions:
        found.append(
            ReportWarning(
                "verdicts_unknown_questions",
                f"{len(join.unknown_questions)} verdict(s) are for questions that are not in "
                "the gold set; they are ignored" + case_hint(join.unknown_questions, join.gold_ids),
                len(join.unknown_questions),
                examples(join.unknown_questions),
            )
        )
    if join.unknown_verdicts:
        found.append(
            ReportWarning(
                "verdicts_unknown",
                f"{len(join.unknown_verdicts)} verdict(s) are unknown (the eval errored or "
                "left them empty); those questions are left out of the four cells",
                len(join.unknown_verdicts),
                examples(join.unknown_verdicts),
            )
        )
    return found
