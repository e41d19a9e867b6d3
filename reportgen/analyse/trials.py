"""Judge trials: which questions the judge cannot make up its mind on, and how much the
four cells move from one trial to the next.

The cells come from the majority of the trials (load/inputs/trials.py); here each trial
is joined on its own, so that (SPEC.md "Replicates and judge trials"):

- a question is *flaky* when its trials' known verdicts disagree;
- it is *tied* when as many say correct as wrong: neither correct nor wrong, out of
  the cells, shown and counted;
- each cell's range is its min..max count over the trials, each trial's cells computed
  as if it were the only one;
- the judge's agreement is Fleiss' kappa over the questions every trial judged (two
  categories, correct and wrong), with the share of those whose trials all agree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import polars as pl

from reportgen.analyse.attribution import CELLS, Attribution, VerdictJoin, join_verdicts
from reportgen.core.model import GoldSet, ReportWarning, VerdictSet, examples
from reportgen.core.records import dataclass


@dataclass(frozen=True)
class JudgeAgreement:
    """How often the judge agrees with itself, over the questions every trial judged."""

    questions: int
    fleiss_kappa: float | None
    """None when every vote is the same (agreement by chance is then 1: kappa undefined)
    or no question was judged by every trial."""
    unanimous: float | None
    """The share of those questions whose trials all agree."""


@dataclass(frozen=True)
class TrialFindings:
    """What the trials of the run the verdicts judge tell beyond their majority."""

    trials: int
    flaky: tuple[str, ...]
    tied: tuple[str, ...]
    cell_ranges: dict[str, tuple[int, int]]
    """Cell -> (min, max) of its count over the trials."""
    agreement: JudgeAgreement


def votes(gold: GoldSet, trials: tuple[VerdictSet, ...], run: str) -> pl.DataFrame:
    """(qid, trial, correct): each trial's verdict of each gold question it judged."""
    return pl.concat(
        join_verdicts(gold, trial, run).rows.select(
            "qid", pl.lit(number, pl.Int64).alias("trial"), "correct"
        )
        for number, trial in enumerate(trials, start=1)
    )


def fleiss_kappa(counts: pl.DataFrame, raters: int) -> float | None:
    """Fleiss' kappa of (yes, no) counts per question, each summing to ``raters``.

    P_i = (yes^2 + no^2 - n) / (n (n - 1)); kappa = (mean P_i - P_e) / (1 - P_e), with
    P_e = p_yes^2 + p_no^2 from the pooled shares (Fleiss 1971).
    """
    if counts.height == 0 or raters < 2:
        return None
    n = raters
    agreed = (pl.col("yes") ** 2 + pl.col("no") ** 2 - n) / (n * (n - 1))
    row = counts.select(
        observed=agreed.mean(), p_yes=pl.col("yes").sum() / (counts.height * n)
    ).row(0, named=True)
    p_yes = float(row["p_yes"])
    chance = p_yes**2 + (1 - p_yes) ** 2
    if chance >= 1 - 1e-12:
        return None
    return (float(row["observed"]) - chance) / (1 - chance)


def agreement(voted: pl.DataFrame, trials: int) -> JudgeAgreement:
    """Fleiss' kappa and the unanimous share over the questions every trial judged."""
    counts = (
        voted.group_by("qid")
        .agg(
            yes=pl.col("correct").fill_null(False).cast(pl.Int64).sum(),
            no=(~pl.col("correct")).fill_null(False).cast(pl.Int64).sum(),
        )
        .filter(pl.col("yes") + pl.col("no") == trials)
    )
    unanimous = counts.select(((pl.col("yes") == 0) | (pl.col("no") == 0)).mean()).item()
    return JudgeAgreement(
        questions=counts.height,
        fleiss_kappa=fleiss_kappa(counts, trials),
        unanimous=None if counts.height == 0 else float(unanimous),
    )


def disagreements(voted: pl.DataFrame) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The flaky questions (known votes disagree) and the tied ones, sorted."""
    counts = voted.group_by("qid").agg(
        yes=pl.col("correct").fill_null(False).sum(),
        no=(~pl.col("correct")).fill_null(False).sum(),
    )
    flaky = counts.filter((pl.col("yes") > 0) & (pl.col("no") > 0))
    tied = flaky.filter(pl.col("yes") == pl.col("no"))
    return (
        tuple(flaky.get_column("qid").sort().to_list()),
        tuple(tied.get_column("qid").sort().to_list()),
    )


def flaky_warning(found: TrialFindings, run: str) -> list[ReportWarning]:
    """The flaky questions as a warning: JUnit, ``--strict`` and the pages' alerts see it."""
    if not found.flaky:
        return []
    return [
        ReportWarning(
            "verdicts_flaky",
            f"{len(found.flaky)} question(s) of run {run!r} have judge trials that disagree "
            f"(of {found.trials} trials): the cells take the majority"
            + (f", and {len(found.tied)} tied question(s) are left out" if found.tied else ""),
            len(found.flaky),
            examples(found.flaky),
        )
    ]


def judge_trials(
    gold: GoldSet,
    verdicts: VerdictSet,
    join: VerdictJoin,
    cells_of: Callable[[VerdictJoin], Attribution],
) -> tuple[VerdictJoin, TrialFindings]:
    """The majority's join with tied questions told apart from unknown ones, and what the
    trials of ``join.run`` found; ``cells_of`` sorts one join into the four cells."""
    voted = votes(gold, verdicts.trials, join.run)
    flaky, tied = disagreements(voted)
    per_trial = [cells_of(join_verdicts(gold, trial, join.run)) for trial in verdicts.trials]
    ranges = {
        cell: (
            min(cells.overall.counts[cell] for cells in per_trial),
            max(cells.overall.counts[cell] for cells in per_trial),
        )
        for cell in CELLS
    }
    majority = dataclasses.replace(
        join, unknown_verdicts=tuple(q for q in join.unknown_verdicts if q not in set(tied))
    )
    found = TrialFindings(
        trials=len(verdicts.trials),
        flaky=flaky,
        tied=tied,
        cell_ranges=ranges,
        agreement=agreement(voted, len(verdicts.trials)),
    )
    return majority, found
