"""The quality gate: rules a CI job sets on the report, and whether they pass.

``min`` rules set a floor on a mean (``recall@5=0.80``); ``max-drop`` rules cap how much
a mean may fall against the baseline (``recall@5=0.02``). Either may name a question
kind (``recall@5:version=0.7``) and a run (``rerank/recall@5=0.8``); without a run a
rule holds for every run. With ``significant_only`` a drop fails only when the
comparison calls it "worse" (Holm-adjusted p < 0.05 and an interval below 0). Without a
baseline (a project's first run) the max-drop rules are skipped with a notice and pass.

Rules come from the command line and from ``[tool.reportgen]`` in pyproject.toml or
the top level of a reportgen.toml; a command-line rule replaces the file's rule on
the same run, measure and kind.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import polars as pl

from reportgen.analyse.baseline import BaselineComparison
from reportgen.analyse.compare import Side, correct, paired_measures
from reportgen.config import Config, check_keys, read_config
from reportgen.errors import UsageError

RuleType = Literal["min", "max-drop"]
RULE_TYPES: tuple[RuleType, ...] = ("min", "max-drop")
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Rule:
    type: RuleType
    measure: str
    threshold: float
    kind: str | None = None
    run: str | None = None

    @property
    def key(self) -> tuple[str, str | None, str, str | None]:
        return (self.type, self.run, self.measure, self.kind)

    @property
    def text(self) -> str:
        run = f"{self.run}/" if self.run else ""
        kind = f":{self.kind}" if self.kind else ""
        return f"--{self.type} {run}{self.measure}{kind}={self.threshold:g}"


@dataclass(frozen=True)
class GateRules:
    rules: tuple[Rule, ...] = ()
    significant_only: bool = False
    sources: tuple[str, ...] = field(default_factory=tuple)
    """Config files the rules were read from."""

    def merged(self, other: GateRules) -> GateRules:
        """These rules with ``other``'s added; ``other`` wins on the same rule."""
        replaced = {rule.key for rule in other.rules}
        kept = tuple(rule for rule in self.rules if rule.key not in replaced)
        return GateRules(
            kept + other.rules,
            self.significant_only or other.significant_only,
            self.sources + other.sources,
        )


RULE_FIX = "write it as [RUN/]MEASURE[:KIND]=VALUE, e.g. recall@5=0.8 or recall@5:version=0.7"


def parse_rule(rule_type: RuleType, text: str) -> Rule:
    """``[RUN/]MEASURE[:KIND]=VALUE`` as typed after --min or --max-drop."""
    target, equals, number = text.rpartition("=")
    if not equals or not target.strip():
        raise UsageError(f"--{rule_type} {text!r} has no =VALUE", RULE_FIX)
    try:
        threshold = float(number)
    except ValueError:
        raise UsageError(f"--{rule_type} {text!r}: {number!r} is not a number", RULE_FIX) from None
    if not math.isfinite(threshold) or threshold < 0:
        raise UsageError(f"--{rule_type} {text!r}: the value must be 0 or more", RULE_FIX)
    run, _, measure_kind = target.strip().rpartition("/")
    measure, _, kind = measure_kind.partition(":")
    if not measure:
        raise UsageError(f"--{rule_type} {text!r} names no measure", RULE_FIX)
    return Rule(rule_type, measure.strip().lower(), threshold, kind.strip() or None, run or None)


def rules_from_options(
    minimums: tuple[str, ...], max_drops: tuple[str, ...], significant_only: bool
) -> GateRules:
    rules = [parse_rule("min", text) for text in minimums]
    rules += [parse_rule("max-drop", text) for text in max_drops]
    return GateRules(tuple(rules), significant_only)


def load_config(path: Path) -> GateRules:
    """Gate rules from a config file (``min``, ``max-drop``, ``significant-only`` keys).

    Every key is checked, not only the gate's: the file is also ``reportgen report``'s
    config, and a misspelt key must not silently drop a rule.
    """
    from reportgen.cli import cli  # the report command's options are the keys
    from reportgen.cli_config import config_keys

    config = read_config(path)
    check_keys(config, config_keys(cli.commands["report"]))
    return rules_from_config(config)


def rules_from_config(config: Config) -> GateRules:
    """The rules a read config file sets."""
    rules: list[Rule] = []
    for rule_type in RULE_TYPES:
        entries = config.options.get(rule_type, {})
        if not isinstance(entries, dict):
            raise config.error(
                rule_type,
                f"{rule_type} must be a table of MEASURE = VALUE",
                f'write e.g. {rule_type} = {{ "recall@5" = 0.8 }}',
            )
        for target, value in entries.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise config.error(
                    rule_type,
                    f"{rule_type}.{target} is not a number",
                    f'write e.g. "{target}" = 0.8',
                )
            try:
                rules.append(parse_rule(rule_type, f"{target}={value}"))
            except UsageError as error:
                raise config.error(rule_type, error.problem, error.fix) from None
    significant = config.options.get("significant-only", False)
    if not isinstance(significant, bool):
        raise config.error(
            "significant-only", "significant-only must be true or false", "write true or false"
        )
    return GateRules(tuple(rules), significant, (str(config.path),))


def _value_of(report: dict[str, Any], run: str, rule: Rule) -> float | None:
    section = report["runs"][run]
    if rule.kind is None:
        return section["means"].get(rule.measure)  # type: ignore[no-any-return]
    values = section["by_kind"].get(rule.kind)
    return None if values is None else values.get(rule.measure)


def _validate(rule: Rule, report: dict[str, Any], baseline: BaselineComparison | None) -> None:
    measures = next(iter(report["runs"].values()))["means"]
    if rule.measure not in measures:
        raise UsageError(
            f"{rule.text}: {rule.measure!r} is not measured in this report",
            f"use one of {', '.join(measures)} (add its k with --k)",
        )
    if rule.kind is not None and rule.kind not in report["gold"]["by_kind"]:
        raise UsageError(
            f"{rule.text}: the gold set has no question of kind {rule.kind!r}",
            f"use one of {', '.join(report['gold']['by_kind'])}",
        )
    if rule.run is not None and rule.run not in report["runs"]:
        raise UsageError(
            f"{rule.text}: there is no run named {rule.run!r}",
            f"use one of {', '.join(report['runs'])}",
        )


def _f(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _min_results(
    rule: Rule, report: dict[str, Any], baseline: BaselineComparison | None
) -> list[dict[str, Any]]:
    results = []
    runs = [rule.run] if rule.run else list(report["runs"])
    then = baseline.section if baseline else None
    for run in runs:
        value = _value_of(report, run, rule)
        then_value = _baseline_mean(baseline, run, rule) if baseline else None
        passed = value is not None and value >= rule.threshold - TOLERANCE
        where = f" on kind {rule.kind}" if rule.kind else ""
        was = f" (baseline {then['version']}: {_f(then_value)})" if then else ""
        message = (
            f"{rule.text} {'passed' if passed else 'FAILED'}: run {run} has {rule.measure}{where} "
            f"{_f(value)}, minimum {rule.threshold:g}{was}"
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
                    f"{rule.text}: the baseline has no run named {run!r}",
                    f"use one of {', '.join(baseline.sides)}",
                )
            if rule.kind is None:
                found[(rule, run)] = entries[run]
                continue
            then, now = (frame.filter(pl.col("kind") == rule.kind) for frame in baseline.sides[run])
            entry = paired_measures(Side("baseline", then), Side("now", now), [rule.measure])
            by_kind.append((rule, run, entry))
    correct([entry for _, _, entry in by_kind])
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
            message = f"{rule.text} FAILED: run {run} has no question{where} to compare"
            results.append(_result(rule, run, False, message, value=None, baseline_value=None))
            continue
        drop = measure["before"] - measure["after"]
        too_far = drop > rule.threshold + TOLERANCE
        significant = measure["label"] == "worse"
        passed = not too_far or (significant_only and not significant)
        evidence = (
            f"change {measure['difference']:+.3f}, 95% CI {measure['ci_low']:+.3f} to "
            f"{measure['ci_high']:+.3f}, Holm p = {measure['p_holm']:.3g}: {measure['label']}; "
            f"one question moves it by {_f(entry['one_question'])}"
        )
        verdict = "passed" if passed else "FAILED"
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
            f"{rule.text} {verdict}: run {run}{where} went from {_f(measure['before'])} "
            f"(baseline {version}) to {_f(measure['after'])}, {moved} (a drop of at most "
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
    gate: GateRules, report: dict[str, Any], baseline: BaselineComparison | None
) -> dict[str, Any] | None:
    """The ``gate`` section of report.json, or None when there is no rule."""
    if not gate.rules:
        return None
    for rule in gate.rules:
        _validate(rule, report, baseline)
    results = []
    for rule in gate.rules:
        if rule.type == "min":
            results.extend(_min_results(rule, report, baseline))
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


def failures(gate: dict[str, Any] | None) -> list[str]:
    """The messages of the failed rules (empty when the gate passed or was not set)."""
    if not gate:
        return []
    return [result["message"] for result in gate["rules"] if not result["passed"]]
