"""Run replicates: how much a system's own numbers move when it is simply run again.

A run given several times under one name (``dense=a.trec dense=b.trec``) is measured as
the per-question mean of its replicates (measure/replicates.py). Here, per such run:

- ``flaky``: questions whose hit@k_ctx differs between replicates (SPEC.md);
- ``noise_floor``: per measure, the spread (max - min) of the replicates' own means: a
  change between two runs smaller than it is what rerunning one system gives. With two
  replicates the standard deviation of the means is the spread / sqrt(2).
"""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.core.model import ReportWarning, examples
from reportgen.core.records import dataclass
from reportgen.errors import UsageError
from reportgen.measure.replicates import flaky_ids
from reportgen.measure.scoring import Evaluation, RunScores, run_means


@dataclass(frozen=True)
class Replicates:
    """What one run's replicates tell beyond their mean."""

    files: tuple[str, ...]
    flaky: tuple[str, ...]
    means: tuple[dict[str, float | None], ...]
    """Each replicate's means, in the order given."""
    noise_floor: dict[str, float | None]
    """Measure -> max - min of the replicates' means (None when one has no mean)."""


def replicate_findings(evaluation: Evaluation) -> dict[str, Replicates]:
    """Run -> its replicates' flaky questions and noise floor, for runs given more than once."""
    settings = evaluation.settings
    found = {}
    for result in evaluation.runs:
        if not result.replicates:
            continue
        means = tuple(
            run_means(r.scores, settings.measure_keys, settings.trec_eval).overall.values
            for r in result.replicates
        )
        floor: dict[str, float | None] = {}
        for key in settings.measure_keys:
            values = [m[key] for m in means]
            known = [v for v in values if v is not None]
            floor[key] = max(known) - min(known) if len(known) == len(values) else None
        found[result.name] = Replicates(
            files=tuple(r.run.source for r in result.replicates),
            flaky=tuple(flaky_ids([r.scores for r in result.replicates], settings.context_k)),
            means=means,
            noise_floor=floor,
        )
    return found


def replicate_warnings(found: Mapping[str, Replicates]) -> list[ReportWarning]:
    """A run whose replicates disagree: JUnit, ``--strict`` and the pages' alerts see it."""
    return [
        ReportWarning(
            "replicates_flaky",
            f"run {name!r}: {len(run.flaky)} question(s) are retrieved by some of its "
            f"{len(run.files)} replicates and not by others; their values are the mean",
            len(run.flaky),
            examples(run.flaky),
        )
        for name, run in found.items()
        if run.flaky
    ]


def refuse_graded_replicates(evaluation: Evaluation) -> None:
    """A judge's grades (``--judgments``) read each run's ranked list, and a replicated
    run's is its first replicate's: its judge-only means would not be the gold set's."""
    replicated = [result for result in evaluation.runs if result.replicates]
    if replicated:
        name, count = replicated[0].name, len(replicated[0].replicates)
        raise UsageError(
            f"--judgments grade each run's ranked list, and run {name!r} is given {count} "
            "times (replicates)",
            "leave out --judgments, or give each replicate its own run name",
        )


def refuse_judged_replicates(result: RunScores) -> None:
    """Verdicts judge one set of answers: which replicate's chunks were sent is unknown."""
    if result.replicates:
        raise UsageError(
            f"the verdicts judge run {result.name!r}, which is given {len(result.replicates)} "
            "times (replicates): the four cells need the one run whose chunks were sent",
            f"give that run alone under its own name (e.g. {result.name}-judged=FILE) and "
            "pass --verdicts-run with that name",
        )
