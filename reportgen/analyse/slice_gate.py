"""The gate per slice (``--slice-gate FIELD``): a regression confined to one slice fails.

120 questions in three languages, 16 of the 40 German ones losing their gold chunk:
recall@5 falls 0.40 in German and 0.13 overall, and ``--max-drop recall@5=0.2`` passes
on the whole run. With ``--slice-gate lang`` every ``--min``, ``--max-drop`` and
``--max`` rule on a mean (not one scoped to a kind, not a latency or cost) holds on each
slice of the field with at least ``--min-slice-n`` questions in its means, and a failure
names the slice: ``recall@5 in lang=de dropped 0.400 > 0.2``. A drop is read from the
slice's comparison with the baseline (the field's slices are one Holm family), so
``--significant-only`` applies per slice as it does to the whole run.
"""

from __future__ import annotations

from typing import Any

from reportgen.analyse.gate import TOLERANCE, needed_for
from reportgen.analyse.slices import SliceFindings
from reportgen.core.model import outcome_word
from reportgen.load.inputs.config import GateRules, Rule
from reportgen.schema import rounded
from reportgen.schema.numbers import fmt

SLICED_TYPES = ("min", "max", "max-drop")


def sliced_rules(gate: GateRules, measured: set[str]) -> list[Rule]:
    """The rules a slice is held to: those on a mean of the whole run (no kind)."""
    return [
        rule
        for rule in gate.rules
        if rule.type in SLICED_TYPES and rule.kind is None and rule.measure in measured
    ]


def slice_name(field: str, value: str) -> str:
    return f"{field}={value}"


def _result(
    rule: Rule, run: str, where: dict[str, Any], passed: bool, message: str, **values: Any
) -> dict[str, Any]:
    return {
        "rule": rule.text,
        "type": rule.type,
        "run": run,
        "measure": rule.measure,
        "kind": None,
        "threshold": rule.threshold,
        **values,
        "passed": passed,
        "message": message,
        "slice": where,
    }


def _bound_result(
    rule: Rule, run: str, where: dict[str, Any], value: float | None
) -> dict[str, Any]:
    """A --min or --max rule on one slice's mean."""
    name = slice_name(where["field"], where["value"])
    if rule.type == "min":
        passed = value is not None and value >= rule.threshold - TOLERANCE
        said = (
            f"is {fmt(value)} < {rule.threshold:g}"
            if not passed
            else f"is {fmt(value)} >= {rule.threshold:g}"
        )
    else:
        passed = value is not None and value <= rule.threshold + TOLERANCE
        said = (
            f"is {fmt(value)} > {rule.threshold:g}"
            if not passed
            else f"is {fmt(value)} <= {rule.threshold:g}"
        )
    message = (
        f"{rule.measure} in {name} {said}: {rule.text} {outcome_word(passed)} on run {run} "
        f"({where['n']} questions)"
    )
    return _result(rule, run, where, passed, message, value=value, baseline_value=None)


def _drop_result(
    rule: Rule,
    run: str,
    where: dict[str, Any],
    entry: dict[str, Any] | None,
    significant_only: bool,
    version: str,
) -> dict[str, Any]:
    """A --max-drop rule on one slice's comparison with the baseline."""
    name = slice_name(where["field"], where["value"])
    measure = None if entry is None else entry["measures"].get(rule.measure)
    if measure is None:
        message = (
            f"{rule.measure} in {name}: {rule.text} {outcome_word(False)} on run {run}: no "
            "question of the slice to compare with the baseline"
        )
        return _result(rule, run, where, False, message, value=None, baseline_value=None)
    drop = measure["before"] - measure["after"]
    too_far = drop > rule.threshold + TOLERANCE
    significant = measure["label"] == "worse"
    passed = not too_far or (significant_only and not significant)
    sign = ">" if too_far else "<="
    excused = ", not significant: passes under --significant-only" if too_far and passed else ""
    message = (
        f"{rule.measure} in {name} dropped {drop:.3f} {sign} {rule.threshold:g}: {rule.text} "
        f"{outcome_word(passed)} on run {run}, {fmt(measure['before'])} (baseline {version}) "
        f"to {fmt(measure['after'])} over {entry['n'] if entry else 0} questions; 95% CI "
        f"{measure['ci_low']:+.3f} to {measure['ci_high']:+.3f}, Holm p = "
        f"{measure['p_holm']:.3g} across the slices: {measure['label']}{excused}"
    )
    n = entry["n"] if entry else 0
    return _result(
        rule,
        run,
        where,
        passed,
        message,
        value=measure["after"],
        baseline_value=measure["before"],
        drop=round(drop, 10),
        p_holm=measure["p_holm"],
        label=measure["label"],
        significant=significant,
        mde=measure["mde"],
        n_needed=needed_for(measure, rule.measure, rule.threshold, n),
    )


def slice_gate(
    gate: dict[str, Any] | None,
    rules: GateRules | None,
    slices: SliceFindings,
    baseline_version: str | None,
    keys: list[str],
) -> dict[str, Any] | None:
    """The gate section with every sliced rule's result per slice of the gated field
    added (and ``slices``: the field, the smallest slice gated, the slices not gated);
    ``gate`` itself when nothing is gated per slice."""
    field = slices.slicing.gate
    if gate is None or rules is None or field is None:
        return gate
    runs = slices.numbers
    chosen = sliced_rules(rules, set(keys))
    results: list[dict[str, Any]] = []
    too_small: dict[str, int] = {}
    gated: list[str] = []
    compared = {
        (entry["value"], entry["run"]): entry
        for entry in slices.comparisons.get(field, {}).get("slices", [])
        if entry["against"] == "baseline"
    }
    for rule in chosen:
        for run in [rule.run] if rule.run else list(runs):
            if run not in runs:
                continue
            for value, numbers in runs[run][field].items():
                if numbers.n < slices.slicing.min_n:
                    too_small[value] = max(too_small.get(value, 0), numbers.n)
                    continue
                if value not in gated:
                    gated.append(value)
                where = {"field": field, "value": value, "n": numbers.n}
                if rule.type == "max-drop":
                    if baseline_version is None:
                        continue  # skipped with the whole run's rule, as its notice says
                    entry = compared.get((value, run))
                    results.append(
                        _drop_result(
                            rule, run, where, entry, rules.significant_only, baseline_version
                        )
                    )
                else:
                    value_read = rounded(numbers.means.get(rule.measure))
                    results.append(_bound_result(rule, run, where, value_read))
    return {
        **gate,
        "passed": gate["passed"] and all(result["passed"] for result in results),
        "rules": [*gate["rules"], *results],
        "slices": {
            "field": field,
            "min_n": slices.slicing.min_n,
            "gated": gated,
            "not_gated": [
                {"value": value, "n": n} for value, n in too_small.items() if value not in gated
            ],
        },
    }
