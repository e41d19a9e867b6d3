"""This report against a previous one: same gold set, or refused, or the shared questions.

Numbers measured on different question sets cannot be compared: four added questions
once swapped the order of the two best methods (SPEC.md). A baseline whose gold
fingerprint differs is refused unless the caller asks for ``intersect``: then both
sides are measured on the questions whose content is the same in both sets (same
id, text, kind and graded chunks, told apart by per-question digests), and the
section says how many were left out and why.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import polars as pl

from reportgen.analyse.compare import (
    Clusters,
    Side,
    apply_holm,
    compare_sides,
    families_of,
    method,
)
from reportgen.analyse.judged import judged_gap
from reportgen.core.model import ReportWarning, fingerprint_of
from reportgen.core.records import dataclass
from reportgen.errors import InputError
from reportgen.load.previous.baseline import Baseline
from reportgen.measure.measures import IN_MEANS, in_means
from reportgen.measure.scoring import Evaluation

GoldChangePolicy = Literal["refuse", "intersect"]
GOLD_CHANGE_POLICIES: tuple[GoldChangePolicy, ...] = ("refuse", "intersect")
EXAMPLES_SHOWN = 10


def current_sides(evaluation: Evaluation) -> dict[str, pl.DataFrame]:
    """Each run's per-question values, for the questions that count in its means."""
    keep = in_means(evaluation.settings.trec_eval)
    keys = evaluation.settings.measure_keys
    sides = [
        result.scores.lazy().filter(keep).select("qid", "kind", *keys) for result in evaluation.runs
    ]
    names = [result.name for result in evaluation.runs]
    return dict(zip(names, pl.collect_all(sides), strict=True))


def _baseline_sides(baseline: Baseline) -> dict[str, pl.DataFrame]:
    statuses = list(IN_MEANS)
    if baseline.report["settings"].get("trec_eval"):
        statuses.append("no_relevant")
    counted = baseline.per_question.filter(pl.col("status").is_in(statuses))
    frames = {
        str(run): group.drop("run", "status").sort("qid")
        for (run,), group in counted.group_by("run", maintain_order=True)
    }
    order = [name for name in baseline.report["runs"] if name in frames]
    return {name: frames[name] for name in [*order, *sorted(set(frames) - set(order))]}


@dataclass(frozen=True)
class BaselineComparison:
    """The ``baseline`` section, and the paired frames the gate reads per kind."""

    section: dict[str, Any]
    sides: dict[str, tuple[pl.DataFrame, pl.DataFrame]]
    """run -> (baseline values, current values), on the questions both count."""
    clusters: Clusters | None = None
    """The questions' clusters (``--cluster-by``), for the gate's comparisons per kind."""
    shared: set[str] | None = None
    """The questions a gold change leaves comparable; None when the gold set is the same."""


def _check_settings(baseline: Baseline, evaluation: Evaluation) -> None:
    then = baseline.report["settings"]
    settings = evaluation.settings
    for name, now in (
        ("relevance_threshold", settings.threshold),
        ("trec_eval", settings.trec_eval),
    ):
        if name in then and (then[name] != now or type(then[name]) is not type(now)):
            # shown as JSON: "1" (text) and 1 must not read alike
            before, after = json.dumps(then[name]), json.dumps(now)
            raise InputError(
                baseline.path,
                f"the baseline was measured with {name} = {before}, this report with {after}: "
                "the same measure would not mean the same thing",
                f"measure this report with the baseline's {name}, or rebuild the baseline",
            )


def _same_gold(then: dict[str, Any], now_fingerprint: str) -> bool:
    """Whether the baseline was measured on this gold set.

    Reports from before the fingerprint was built from the question digests carry
    another fingerprint for the same set: their digests decide.
    """
    if then["fingerprint"] == now_fingerprint:
        return True
    digests = then.get("question_digests")
    return isinstance(digests, dict) and fingerprint_of(digests) == now_fingerprint


def _gold_change(
    baseline: Baseline, evaluation: Evaluation, policy: GoldChangePolicy, digests: dict[str, str]
) -> tuple[set[str] | None, dict[str, Any] | None]:
    """Which question ids may be paired (None: all of them), and what was left out."""
    then = baseline.report["gold"]
    now_fingerprint = evaluation.gold.fingerprint
    if _same_gold(then, now_fingerprint):
        return None, None
    if policy == "refuse":
        raise InputError(
            baseline.path,
            f"the baseline was measured on gold set {then.get('version') or 'unversioned'} "
            f"(fingerprint {then['fingerprint']}), this report on "
            f"{evaluation.gold.version or 'unversioned'} (fingerprint {now_fingerprint}); "
            "numbers measured on different question sets cannot be compared",
            "pass --on-gold-change intersect to compare on the questions both sets share, "
            "or rebuild the baseline with this gold set",
        )
    old_ids = set(baseline.per_question.get_column("qid").unique().to_list())
    new_ids = set(digests)
    old_digests: dict[str, str] | None = then.get("question_digests")
    both = old_ids & new_ids
    changed = (
        {qid for qid in both if old_digests.get(qid) != digests[qid]}
        if old_digests is not None
        else set()
    )
    left_out = {
        "only_in_baseline": sorted(old_ids - new_ids),
        "only_in_this_report": sorted(new_ids - old_ids),
        "changed": sorted(changed),
    }
    reasons = {
        "only_in_baseline": "removed from the gold set since the baseline",
        "only_in_this_report": "added to the gold set since the baseline",
        "changed": "question, kind or graded chunks differ between the two sets",
    }
    return both - changed, {
        "policy": "intersect",
        "baseline_fingerprint": then["fingerprint"],
        "fingerprint": now_fingerprint,
        "shared_questions": len(both - changed),
        "left_out": {
            name: {"count": len(ids), "why": reasons[name], "examples": ids[:EXAMPLES_SHOWN]}
            for name, ids in left_out.items()
        },
        "changes_detected": old_digests is not None,
        "note": None
        if old_digests is not None
        else "the baseline's report.json has no per-question digests: questions edited "
        "in place cannot be told apart and are kept",
    }


def compare_with_baseline(
    baseline: Baseline,
    evaluation: Evaluation,
    policy: GoldChangePolicy,
    keys: list[str],
    change_keys: list[str],
    *,
    version: str,
    digests: dict[str, str],
    cells: dict[str, dict[str, Any]],
    clusters: Clusters | None = None,
    cluster_by: str | None = None,
    primary_keys: list[str] | None = None,
) -> BaselineComparison:
    """The ``baseline`` section: every run of this report against its namesake then.

    ``version`` is this report's label, ``digests`` its questions' (see
    :func:`question_digests`), ``cells`` run -> its four cells as report.json's
    ``attribution.<run>`` holds them (cells, pass_rate, stale). ``primary_keys`` are
    the measures of the primary family (None: every one); the others are exploratory.
    """
    _check_settings(baseline, evaluation)
    shared, gold_change = _gold_change(baseline, evaluation, policy, digests)
    then_sides = _baseline_sides(baseline)
    now_sides = current_sides(evaluation)
    if shared is not None:
        keep = pl.col("qid").is_in(sorted(shared))
        then_sides = {name: frame.filter(keep) for name, frame in then_sides.items()}
        now_sides = {name: frame.filter(keep) for name, frame in now_sides.items()}
    common = [name for name in now_sides if name in then_sides]
    then_report = baseline.report
    then_version = str(then_report["version"])
    entries = compare_sides(
        [
            (
                Side(f"{name} ({then_version})", then_sides[name]),
                Side(f"{name} ({version})", now_sides[name]),
            )
            for name in common
        ],
        keys,
        change_keys,
        clusters=clusters,
        primary=None if primary_keys is None else [primary_keys] * len(common),
    )
    for name, entry in zip(common, entries, strict=True):
        entry["run"] = name
        entry["judged"] = judged_gap(
            then_sides[name], now_sides[name], evaluation.settings.context_k
        )
        entry["cells"] = _cells(then_report, cells, name)
    apply_holm(entries)
    section = {
        "source": str(baseline.path),
        "selection": baseline.selection,
        "version": then_version,
        "created": then_report["created"],
        "gold": {
            "version": then_report["gold"].get("version"),
            "fingerprint": then_report["gold"]["fingerprint"],
        },
        "gold_change": gold_change,
        "method": {
            **method(
                None if clusters is None else cluster_by,
                families_of(
                    entries,
                    f"{', '.join(k for k in keys if primary_keys is None or k in primary_keys)}"
                    f" of each run against baseline {then_version}",
                    "every other measure",
                ),
            ),
            "family_size": sum(len(e["measures"]) for e in entries),
        },
        "measures": keys,
        "runs_not_in_baseline": [name for name in now_sides if name not in then_sides],
        "baseline_runs_not_here": [name for name in then_sides if name not in now_sides],
        "comparisons": entries,
    }
    sides = {name: (then_sides[name], now_sides[name]) for name in common}
    return BaselineComparison(section, sides, clusters=clusters, shared=shared)


def _cells(then: dict[str, Any], now: dict[str, dict[str, Any]], run: str) -> dict[str, Any] | None:
    """The four cells (and pass rate) then and now, when both reports judged the run."""
    try:
        before, after = then["attribution"][run], now[run]
        return {
            "then": before["cells"],
            "now": after["cells"],
            "pass_rate": {"then": before.get("pass_rate"), "now": after.get("pass_rate")},
            "stale": {"then": _stale_counts(before), "now": _stale_counts(after)},
        }
    except (KeyError, TypeError):
        return None


def _stale_counts(section: dict[str, Any]) -> dict[str, int] | None:
    """Per cell, how many of its questions had gold ids that report's index manifest
    did not hold: a change in a cell may then be the gold set's, not search's. None when
    the report predates ``attribution.<run>.stale`` and cannot say."""
    stale = section.get("stale")
    if not isinstance(stale, dict):
        return None
    return {cell: len(ids) for cell, ids in stale.items()}


def gold_change_warnings(versus: BaselineComparison | None) -> list[ReportWarning]:
    """A warning when the gold set changed since the baseline and the comparison was
    cut to the questions both share (``--on-gold-change intersect``, the action's
    default): every delta then covers part of the questions, which the first screen
    must say before any number."""
    change = None if versus is None else versus.section.get("gold_change")
    if not isinstance(change, dict):
        return []
    left = change["left_out"]
    out = {name: left[name]["count"] for name in left if left[name]["count"]}
    said = "; ".join(f"{count} {left[name]['why']}" for name, count in out.items())
    examples = tuple(qid for name in out for qid in left[name]["examples"])[:5]
    return [
        ReportWarning(
            code="gold_changed",
            message=f"the gold set changed since the baseline (fingerprint "
            f"{change['baseline_fingerprint']} -> {change['fingerprint']}): the comparison "
            f"covers the {change['shared_questions']} questions both sets share"
            + (f", leaving out {said}" if said else ""),
            count=max(sum(out.values()), 1),
            examples=examples,
        )
    ]


def baseline_gate_warnings(baseline: Baseline | None) -> list[ReportWarning]:
    """A warning when the baseline failed its own quality gate: a comparison with it
    starts from numbers that were not good enough (a site publishes such versions, and
    marks them)."""
    if baseline is None:
        return []
    gate = baseline.report.get("gate")
    if not isinstance(gate, dict) or gate.get("passed") is not False:
        return []
    failed = [
        f"{rule.get('rule')} ({rule.get('run')})"
        for rule in gate.get("rules") or []
        if isinstance(rule, dict) and rule.get("passed") is False
    ]
    version = baseline.report.get("version")
    return [
        ReportWarning(
            code="baseline_failed_gate",
            message=f"the baseline {version} failed its own quality gate"
            + (f" ({'; '.join(failed)})" if failed else "")
            + ": a run that matches it is not known to be good",
            count=max(len(failed), 1),
            examples=tuple(failed[:5]),
        )
    ]
