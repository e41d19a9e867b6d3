"""The quality gate: rules a CI job sets on the report, and whether they pass.

``min`` rules set a floor on a mean (``recall@5=0.80``); ``max-drop`` rules cap how much
a mean may fall against the baseline (``recall@5=0.02``). Either may name a question
kind (``recall@5:version=0.7``) and a run (``rerank/recall@5=0.8``); without a run a
rule holds for every run. With ``significant_only`` a drop fails only when the
comparison calls it "worse" (Holm-adjusted p < 0.05 and an interval below 0). Without a
baseline (a project's first run) the max-drop rules are skipped with a notice and pass.

Rules come from the command line and from ``[tool.reportgen]`` in pyproject.toml or
the top level of a reportgen.toml (both read in load/config.py); a command-line rule
replaces the file's rule on the same run, measure and kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from reportgen.analyse.baseline import BaselineComparison
from reportgen.analyse.compare import Side, apply_holm, paired_measures
from reportgen.core.model import outcome_word
from reportgen.errors import UsageError
from reportgen.load.inputs.config import GateRules, Rule
from reportgen.measure.scoring import RunMeans
from reportgen.schema import GateSection, rounded
from reportgen.schema.numbers import fmt

TOLERANCE = 1e-9


def _value_of(means: Mapping[str, RunMeans], run: str, rule: Rule) -> float | None:
    """The run's mean the rule reads, rounded as report.json writes it."""
    if rule.kind is None:
        return rounded(means[run].overall.values.get(rule.measure))
    values = means[run].by_kind.get(rule.kind)
    return None if values is None else rounded(values.values.get(rule.measure))


def _validate(rule: Rule, means: Mapping[str, RunMeans], kinds: Sequence[str]) -> None:
    measures = next(iter(means.values())).overall.values
    if rule.measure not in measures:
        raise UsageError(
            f"{rule.where}: {rule.measure!r} is not measured in this report",
            f"use one of {', '.join(measures)} (add its k with --k)",
        )
    if rule.kind is not None and rule.kind not in kinds:
        raise UsageError(
            f"{rule.where}: the gold set has no question of kind {rule.kind!r}",
            f"use one of {', '.join(kinds)}",
        )
    if rule.run is not None and rule.run not in means:
        raise UsageError(
            f"{rule.where}: there is no run named {rule.run!r}",
            f"use one of {', '.join(means)}",
        )


def _min_results(
    rule: Rule, means: Mapping[str, RunMeans], baseline: BaselineComparison | None
) -> list[dict[str, Any]]:
    results = []
    runs = [rule.run] if rule.run else list(means)
    then = baseline.section if baseline else None
    for run in runs:
        value = _value_of(means, run, rule)
        then_value = _baseline_mean(baseline, run, rule) if baseline else None
        passed = value is not None and value >= rule.threshold - TOLERANCE
        where = f" on kind {rule.kind}" if rule.kind else ""
        was = f" (baseline {then['version']}: {fmt(then_value)})" if then else ""
        message = (
            f"{rule.text} {outcome_word(passed)}: run {run} has {rule.measure}{where} "
            f"{fmt(value)}, minimum {rule.threshold:g}{was}"
        )
        results.append(_result(rule, run, passed, message, value=value, baseline_value=then_value))
    return results


def _baseline_mean(baseline: BaselineComparison, run: str, rule: Rule) -> float | None:
    """The baseline's mean of the rule's measure (on the rule's kind), over the questions
    the comparison pairs: None when the baseline lacks the run or the kind."""
    if rule.kind is None:
        for entry in baseline.section["comparisons"]:
            if entry["run"] == run and rule.measure in entry["measures"]:
                return entry["measures"][rule.measure]["before"]  # type: ignore[no-any-return]
        return None
    if run not in baseline.sides:
        return None
    then = baseline.sides[run][0]
    if rule.measure not in then.columns:
        return None
    values = then.filter(pl.col("kind") == rule.kind).get_column(rule.measure)
    mean = values.mean()
    return None if values.is_empty() or mean is None else float(mean)  # type: ignore[arg-type]


def _result(rule: Rule, run: str, passed: bool, message: str, **values: Any) -> dict[str, Any]:
    return {
        "rule": rule.text,
        "type": rule.type,
        "run": run,
        "measure": rule.measure,
        "kind": rule.kind,
        "threshold": rule.threshold,
        **values,
        "passed": passed,
        "message": message,
    }


def _drop_entries(
    rules: list[Rule], baseline: BaselineComparison
) -> dict[tuple[Rule, str], dict[str, Any]]:
    """The comparison each drop rule reads: the baseline's, or one on a kind's questions.

    Kind-level comparisons are Holm-corrected among themselves (their own family).
    """
    found: dict[tuple[Rule, str], dict[str, Any]] = {}
    by_kind: list[tuple[Rule, str, dict[str, Any]]] = []
    entries = {entry["run"]: entry for entry in baseline.section["comparisons"]}
    for rule in rules:
        runs = [rule.run] if rule.run else list(baseline.sides)
        for run in runs:
            if run not in baseline.sides:
                raise UsageError(
                    f"{rule.where}: the baseline has no run named {run!r}",
                    f"use one of {', '.join(baseline.sides)}",
                )
            if rule.kind is None:
                found[(rule, run)] = entries[run]
                continue
            then, now = (frame.filter(pl.col("kind") == rule.kind) for frame in baseline.sides[run])
            entry = paired_measures(Side("baseline", then), Side("now", now), [rule.measure])
            by_kind.append((rule, run, entry))
    apply_holm([entry for _, _, entry in by_kind])
    for rule, run, entry in by_kind:
        found[(rule, run)] = entry
    return found


def _drop_results(
    rules: list[Rule], baseline: BaselineComparison, significant_only: bool
) -> list[dict[str, Any]]:
    results = []
    version = baseline.section["version"]
    for (rule, run), entry in _drop_entries(rules, baseline).items():
        measure = entry["measures"].get(rule.measure)
        where = f" on kind {rule.kind}" if rule.kind else ""
        if measure is None:
            message = (
                f"{rule.text} {outcome_word(False)}: run {run} has no question{where} to compare"
            )
            results.append(_result(rule, run, False, message, value=None, baseline_value=None))
            continue
        drop = measure["before"] - measure["after"]
        too_far = drop > rule.threshold + TOLERANCE
        significant = measure["label"] == "worse"
        passed = not too_far or (significant_only and not significant)
        evidence = (
            f"change {measure['difference']:+.3f}, 95% CI {measure['ci_low']:+.3f} to "
            f"{measure['ci_high']:+.3f}, Holm p = {measure['p_holm']:.3g}: {measure['label']}; "
            f"one question moves it by {fmt(entry['one_question'])}"
        )
        verdict = outcome_word(passed)
        excused = (
            ", and this one is not significant, so it passes under --significant-only"
            if too_far and passed
            else ""
        )
        moved = (
            f"a drop of {drop:.3f}"
            if drop > TOLERANCE
            else f"a rise of {-drop:.3f}"
            if drop < -TOLERANCE
            else "no change"
        )
        message = (
            f"{rule.text} {verdict}: run {run}{where} went from {fmt(measure['before'])} "
            f"(baseline {version}) to {fmt(measure['after'])}, {moved} (a drop of at most "
            f"{rule.threshold:g} allowed{excused}; {evidence})"
        )
        results.append(
            _result(
                rule,
                run,
                passed,
                message,
                value=measure["after"],
                baseline_value=measure["before"],
                drop=round(drop, 10),
                p_holm=measure["p_holm"],
                label=measure["label"],
                significant=significant,
            )
        )
    return results


def evaluate_gate(
    gate: GateRules,
    means: Mapping[str, RunMeans],
    kinds: Sequence[str],
    baseline: BaselineComparison | None,
) -> dict[str, Any] | None:
    """The ``gate`` section of report.json, or None when there is no rule.

    ``means`` are this report's runs' means, ``kinds`` the gold set's question kinds.
    """
    if not gate.rules:
        return None
    for rule in gate.rules:
        _validate(rule, means, kinds)
    results = []
    for rule in gate.rules:
        if rule.type == "min":
            results.extend(_min_results(rule, means, baseline))
    drops = [rule for rule in gate.rules if rule.type == "max-drop"]
    if drops and baseline is not None:
        results.extend(_drop_results(drops, baseline, gate.significant_only))
    skipped = drops if baseline is None else []
    return {
        "passed": all(result["passed"] for result in results),
        "significant_only": gate.significant_only,
        "config": list(gate.sources),
        "rules": results,
        "skipped": [rule.text for rule in skipped],
        "notice": skipped_notice(skipped),
    }


def skipped_notice(skipped: list[Rule]) -> str | None:
    """Why the max-drop rules did not count: the first run has nothing to drop from.

    Failing there would make the gate unpassable until a baseline exists, so they pass,
    and the notice says so wherever the verdict is read.
    """
    if not skipped:
        return None
    listed = ", ".join(rule.text for rule in skipped)
    rules = "1 max-drop rule was" if len(skipped) == 1 else f"{len(skipped)} max-drop rules were"
    return (
        f"No baseline, so {rules} skipped and passed: {listed}. "
        "They apply once there is a baseline to compare with (--baseline, e.g. the "
        "published site)."
    )


def failures(gate: GateSection | None) -> list[str]:
    """The messages of the failed rules (empty when the gate passed or was not set)."""
    if not gate:
        return []
    return [result["message"] for result in gate["rules"] if not result["passed"]]
