"""Judge trials: the same answers judged several times, as one verdict set.

An LLM judge is noisy; teams judge the same answers again (``--verdicts`` given several
times). The trials become one :class:`VerdictSet` whose rows are the majority per
question and run (SPEC.md "Replicates and judge trials"): the four cells, the gate and
every other reader of ``rows`` see the majority, and ``trials`` keeps each trial for
what only they tell (the flaky questions, each cell's range, the judge's agreement).

A question's majority is over its known votes (an errored judgment says nothing); when
as many trials say correct as wrong the verdict is tied, kept as unknown in ``rows``
and told apart from unknown by analyse/trials.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from reportgen.core.model import VERDICTS_SCHEMA, VerdictSet
from reportgen.errors import UsageError


def _majority(flag: str) -> pl.Expr:
    """True when more known votes say true than false, False when fewer, else null."""
    yes = pl.col(flag).fill_null(False).cast(pl.Int64).sum()
    no = (~pl.col(flag)).fill_null(False).cast(pl.Int64).sum()
    return pl.when(yes > no).then(True).when(no > yes).then(False).otherwise(None)


def _run_names(verdicts: VerdictSet) -> tuple[str, ...]:
    """The runs a trial names, with ``(none)`` when some rows name no run."""
    unnamed = verdicts.rows.get_column("run").null_count() > 0
    return (*verdicts.runs, *(["(none)"] if unnamed else []))


def _refuse_unlike(trials: Sequence[VerdictSet]) -> None:
    """Trials judge the same answers: the same way of joining, the same runs."""
    first = trials[0]
    for trial in trials[1:]:
        if trial.join_on != first.join_on:
            raise UsageError(
                f"the verdict trials {first.source} and {trial.source} name questions "
                f"differently (by {first.join_on}, by {trial.join_on})",
                "give every trial the same id column (each --verdicts is the same answers "
                "judged again)",
            )
        if _run_names(trial) != _run_names(first):
            raise UsageError(
                f"the verdict trials {first.source} and {trial.source} judge different runs "
                f"({', '.join(_run_names(first))} against {', '.join(_run_names(trial))})",
                "give --verdicts several times only for the same answers judged again; "
                "report other runs' verdicts with a run column in one file",
            )


def verdict_trials(trials: Sequence[VerdictSet]) -> VerdictSet:
    """The trials as one verdict set: the majority in ``rows``, each trial kept.

    One trial is returned as it is: a single file reads exactly as before.
    """
    if len(trials) == 1:
        return trials[0]
    if any(trial.trials for trial in trials):
        raise UsageError(
            "a verdict trial is itself several trials",
            "give each trial's file once to --verdicts",
        )
    _refuse_unlike(trials)
    first = trials[0]
    key = ["run", "qid" if first.join_on == "id" else "question"]
    stacked = pl.concat(
        trial.rows.with_columns(trial=pl.lit(number))
        for number, trial in enumerate(trials, start=1)
    )
    other = "question" if first.join_on == "id" else "qid"
    rows = (
        stacked.sort("trial", "line")
        .group_by(key, maintain_order=True)
        .agg(
            pl.col(other).first(),
            correct=_majority("correct"),
            abstained=_majority("abstained"),
            line=pl.col("line").first(),
        )
        .select(VERDICTS_SCHEMA.names())
        .cast(VERDICTS_SCHEMA)
    )
    formats = list(dict.fromkeys(trial.format for trial in trials))
    return VerdictSet(
        rows=rows,
        source=", ".join(trial.source for trial in trials),
        format=", ".join(formats),
        join_on=first.join_on,
        metric=first.metric,
        threshold=first.threshold,
        trials=tuple(trials),
    )
