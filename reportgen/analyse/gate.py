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

import math
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from reportgen.analyse.baseline import BaselineComparison
from reportgen.analyse.compare import (
    ALPHA,
    PRIMARY,
    Side,
    apply_holm,
    is_binary,
    paired_measures,
)
from reportgen.analyse.latency import (
    CostFindings,
    baseline_statistic,
    known_gate_keys,
    statistic_of,
)
from reportgen.core.model import ReportWarning, examples, outcome_word
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

    A drop a rule names is always primary: on the whole run it is in the baseline's
    primary family; kind-level comparisons are a primary family of their own, Holm-
    corrected among themselves (their mde at alpha / their number).
    """
    found: dict[tuple[Rule, str], dict[str, Any]] = {}
    by_kind: list[tuple[Rule, str, dict[str, Any]]] = []
    entries = {entry["run"]: entry for entry in baseline.section["comparisons"]}
    targets = [
        (rule, run) for rule in rules for run in ([rule.run] if rule.run else list(baseline.sides))
    ]
    kind_tests = sum(1 for rule, _ in targets if rule.kind is not None)
    for rule, run in targets:
        if run not in baseline.sides:
            raise UsageError(
                f"{rule.where}: the baseline has no run named {run!r}",
                f"use one of {', '.join(baseline.sides)}",
            )
        if rule.kind is None:
            found[(rule, run)] = entries[run]
            continue
        then, now = (frame.filter(pl.col("kind") == rule.kind) for frame in baseline.sides[run])
        entry = paired_measures(
            Side("baseline", then),
            Side("now", now),
            [rule.measure],
            clusters=baseline.clusters,
            family_sizes={PRIMARY: kind_tests},
        )
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
                mde=measure["mde"],
                n_needed=needed_for(measure, rule.measure, rule.threshold, entry["n"]),
            )
        )
    return results


def needed_for(measure: dict[str, Any], key: str, change: float, n: int) -> int:
    """About how many questions would make a drop of ``change`` detectable: exact
    McNemar at the observed discordance for hit@k, else ``n_needed`` (for 0.10)
    scaled as 1 / change^2 (the normal approximation's n for a given spread)."""
    from reportgen.analyse.detectable import NEEDED_FOR, fewest, mcnemar_n_needed

    n = measure.get("n", n)
    if change <= 0:
        return 0
    alpha = measure.get("mde_alpha", ALPHA)  # the label's own per-test alpha
    if is_binary(key) and measure["test"] == "mcnemar":
        return mcnemar_n_needed(n, measure["wins"] + measure["losses"], alpha, change)
    return max(math.ceil(float(measure["n_needed"]) * (NEEDED_FOR / change) ** 2), fewest(alpha))


def audit(gate: Mapping[str, Any] | None) -> list[ReportWarning]:
    """The max-drop rules whose threshold sits below what the gold set can detect
    (``rule_below_detectable``): such a rule fails on noise alone, or, with
    --significant-only, can never fail."""
    if not gate:
        return []
    below = [
        rule
        for rule in gate["rules"]
        if rule["type"] == "max-drop"
        and "mde" in rule
        and (rule["mde"] is None or rule["threshold"] < rule["mde"] - TOLERANCE)
    ]
    if not below:
        return []
    parts = []
    for rule in below:
        where = f" on kind {rule['kind']}" if rule["kind"] else ""
        mde = (
            "no change is detectable"
            if rule["mde"] is None
            else f"its smallest detectable change is {fmt(rule['mde'])}"
        )
        parts.append(
            f"{rule['rule']} (run {rule['run']}{where}): {mde}; about {rule['n_needed']} "
            f"questions would make a drop of {rule['threshold']:g} detectable"
        )
    outcome = (
        "can never fail under --significant-only"
        if gate["significant_only"]
        else "can only fail by noise"
    )
    message = (
        f"{len(below)} max-drop rule{'' if len(below) == 1 else 's'} below what the gold set "
        "can detect, so "
        f"{'it' if len(below) == 1 else 'they'} {outcome}: {'; '.join(parts)}. Fix: raise "
        "the threshold to at least the mde, or add questions."
    )
    return [
        ReportWarning(
            "rule_below_detectable",
            message,
            len(below),
            examples([f"{rule['rule']} ({rule['run']})" for rule in below]),
        )
    ]


def evaluate_gate(
    gate: GateRules,
    means: Mapping[str, RunMeans],
    kinds: Sequence[str],
    baseline: BaselineComparison | None,
    costs: CostFindings | None = None,
) -> dict[str, Any] | None:
    """The ``gate`` section of report.json, or None when there is no rule.

    ``means`` are this report's runs' means, ``kinds`` the gold set's question kinds,
    ``costs`` its latency, cost and context size (what --max and --max-rise also read).
    """
    if not gate.rules:
        return None
    for rule in gate.rules:
        if rule.type in ("max", "max-rise"):
            _validate_ceiling(rule, means, kinds, costs)
        else:
            _validate(rule, means, kinds)
    results = []
    for rule in gate.rules:
        if rule.type == "min":
            results.extend(_min_results(rule, means, baseline))
        elif rule.type == "max":
            results.extend(_max_results(rule, means, costs))
    drops = [rule for rule in gate.rules if rule.type == "max-drop"]
    if drops and baseline is not None:
        results.extend(_drop_results(drops, baseline, gate.significant_only))
    rises = [rule for rule in gate.rules if rule.type == "max-rise"]
    rises_skipped = rises
    if rises and baseline is not None:
        rise_results, rises_skipped = _rise_results(rises, means, baseline, costs)
        results.extend(rise_results)
    skipped = drops if baseline is None else []
    notices = [skipped_notice(skipped), rise_notice(rises_skipped, baseline)]
    return {
        "passed": all(result["passed"] for result in results),
        "significant_only": gate.significant_only,
        "config": list(gate.sources),
        "rules": results,
        "skipped": [rule.text for rule in [*skipped, *rises_skipped]],
        "notice": " ".join(notice for notice in notices if notice) or None,
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


# Ceilings: --max caps a mean or a latency/cost summary, --max-rise its relative rise
# against the baseline. Kept apart from the quality rules above; their results have the
# same shape, so every reader of the gate (pages, summary, JUnit) takes them alike.

COST_RULE_FIX = (
    "give each question a latency_ms (trace or run field, CSV/Parquet column, or spans with "
    "start and end times) or a cost, or drop the rule"
)


def _validate_ceiling(
    rule: Rule, means: Mapping[str, RunMeans], kinds: Sequence[str], costs: CostFindings | None
) -> None:
    """A ceiling names a mean (as --min does) or a latency/cost summary of this report."""
    if rule.measure not in known_gate_keys(costs) and _is_cost_key(rule.measure):
        raise UsageError(
            f"{rule.text}: no run of this report has a value for {rule.measure!r}", COST_RULE_FIX
        )
    if rule.measure in known_gate_keys(costs):
        if rule.kind is not None:
            raise UsageError(
                f"{rule.text}: {rule.measure} is not split by question kind",
                f"write it without :{rule.kind}",
            )
        if rule.run is not None and rule.run not in means:
            raise UsageError(
                f"{rule.text}: there is no run named {rule.run!r}",
                f"use one of {', '.join(means)}",
            )
        return
    if rule.type == "max-rise" and rule.kind is not None:
        raise UsageError(
            f"{rule.text}: a rise is read on the whole run, not on one kind",
            f"write it without :{rule.kind}",
        )
    _validate(rule, means, kinds)


def _is_cost_key(measure: str) -> bool:
    stems = ("latency_", "cost_", "context_size_", "context_words_")
    return measure.startswith(stems) and "@" not in measure


def _ceiling_value(
    rule: Rule, run: str, means: Mapping[str, RunMeans], costs: CostFindings | None
) -> float | None:
    found = known_gate_keys(costs).get(rule.measure)
    if found is None:
        return _value_of(means, run, rule)
    return rounded(statistic_of(costs, run, *found))


def _missing_note(run: str, costs: CostFindings | None, rule: Rule) -> str:
    """Why a run has no value for the rule: how many questions lack one."""
    found = known_gate_keys(costs).get(rule.measure)
    if found is None or costs is None or found[0].name not in costs.runs.get(run, {}):
        return f"run {run} has no {rule.measure}"
    summary = costs.runs[run][found[0].name].summary
    return f"run {run} has no {found[0].name} for any question ({summary['missing']} missing)"


def _max_results(
    rule: Rule, means: Mapping[str, RunMeans], costs: CostFindings | None
) -> list[dict[str, Any]]:
    results = []
    for run in [rule.run] if rule.run else list(means):
        value = _ceiling_value(rule, run, means, costs)
        passed = value is not None and value <= rule.threshold + TOLERANCE
        where = f" on kind {rule.kind}" if rule.kind else ""
        if value is None:
            said = (
                f"{_missing_note(run, costs, rule)}, so the maximum {rule.threshold:g} cannot hold"
            )
        else:
            said = f"run {run} has {rule.measure}{where} {fmt(value)}, maximum {rule.threshold:g}"
        message = f"{rule.text} {outcome_word(passed)}: {said}"
        results.append(_result(rule, run, passed, message, value=value, baseline_value=None))
    return results


def _rise_values(
    rule: Rule,
    run: str,
    means: Mapping[str, RunMeans],
    baseline: BaselineComparison,
    costs: CostFindings | None,
) -> tuple[float | None, float | None]:
    """(then, now): the baseline's summary and this report's, or a mean's before and
    after over the questions the baseline comparison pairs."""
    found = known_gate_keys(costs).get(rule.measure)
    if found is not None:
        return (
            rounded(baseline_statistic(costs, run, *found)),
            rounded(statistic_of(costs, run, *found)),
        )
    for entry in baseline.section["comparisons"]:
        if entry["run"] == run and rule.measure in entry["measures"]:
            measure = entry["measures"][rule.measure]
            return measure["before"], measure["after"]
    return None, _value_of(means, run, rule)


def _rise_results(
    rules: list[Rule],
    means: Mapping[str, RunMeans],
    baseline: BaselineComparison,
    costs: CostFindings | None,
) -> tuple[list[dict[str, Any]], list[Rule]]:
    """The max-rise rules' results, and the rules skipped: the baseline has no value for
    them (a report from before latency was measured)."""
    results: list[dict[str, Any]] = []
    skipped: list[Rule] = []
    version = baseline.section["version"]
    for rule in rules:
        runs = [rule.run] if rule.run else list(means)
        values = {run: _rise_values(rule, run, means, baseline, costs) for run in runs}
        if all(then is None for then, _ in values.values()):
            skipped.append(rule)
            continue
        for run, (then, now) in values.items():
            if then is None or now is None:
                missing = "the baseline" if then is None else "this report"
                message = (
                    f"{rule.text} {outcome_word(False)}: {missing} has no {rule.measure} "
                    f"for run {run}, so its rise cannot be read"
                )
                results.append(_result(rule, run, False, message, value=now, baseline_value=then))
                continue
            rise = (now - then) / then if then > 0 else (0.0 if now <= 0 else math.inf)
            passed = rise <= rule.threshold + TOLERANCE
            moved = "no rise" if now <= then else f"a rise of {rise:.1%}" if then > 0 else "a rise"
            message = (
                f"{rule.text} {outcome_word(passed)}: run {run} went from {fmt(then)} "
                f"(baseline {version}) to {fmt(now)}, {moved} (at most "
                f"{rule.threshold:.0%} allowed)"
            )
            shown = None if math.isinf(rise) else round(rise, 10)
            results.append(
                _result(rule, run, passed, message, value=now, baseline_value=then, rise=shown)
            )
    return results, skipped


def rise_notice(skipped: list[Rule], baseline: BaselineComparison | None) -> str | None:
    """Why max-rise rules did not count: no baseline, or one without their values."""
    if not skipped:
        return None
    listed = ", ".join(rule.text for rule in skipped)
    count = "1 max-rise rule was" if len(skipped) == 1 else f"{len(skipped)} max-rise rules were"
    if baseline is None:
        return (
            f"No baseline, so {count} skipped and passed: {listed}. They apply once there "
            "is a baseline to compare with (--baseline)."
        )
    return (
        f"The baseline ({baseline.section['version']}) has no value for it (a report from "
        f"before latency and cost were measured, or inputs without them), so {count} "
        f"skipped and passed: {listed}."
    )
