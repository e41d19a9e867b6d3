"""The first screen: what a reviewer must see without scrolling.

In this order: the gate's result, the run that matters (the one the verdicts are for,
else the best at k_ctx) with hit and recall at k_ctx, their 95% intervals and the change
against the baseline; the four cells and where the work goes; the end-to-end pass rate;
the warnings that change what the numbers mean; the other runs in one table; the other
warnings, one line per severity.
"""

from __future__ import annotations

from reportgen.core.model import outcome_word
from reportgen.core.records import dataclass
from reportgen.render.views.attention import attention
from reportgen.render.views.attribution import AttributionView, attribution_view
from reportgen.render.views.common import (
    Cell,
    Table,
    change_words,
    fmt,
    fmt_interval,
    plural,
    verdict_class,
)
from reportgen.render.views.comparisons import unjudged_note
from reportgen.render.views.replicates import replicates_line
from reportgen.render.views.slices import worst_slice_alerts
from reportgen.render.views.verdicts import TOO_FEW, VerdictNotes, too_few_title, verdict_notes
from reportgen.schema import BaselineComparison, Report

HEADLINE_MEASURES = (("hit", "hit"), ("recall", "recall"))
"""The measures at k_ctx the first screen gives with their interval and change."""


@dataclass(frozen=True)
class Figure:
    """One measure of the run that matters: value, interval, and its change if any."""

    label: str
    value: str
    interval: str
    """The 95% interval, ``0.79\u20130.96``; empty when the report has none."""
    change: str
    """``a drop of 0.256 from 0.849``; empty without a baseline."""
    verdict: str
    """better, worse, within noise or too few questions against the baseline; empty
    without one."""

    @property
    def css(self) -> str:
        """The figure's class: ``figure``, and its move's colour against a baseline."""
        return f"figure {verdict_class(self.verdict, 'moved')}" if self.verdict else "figure"


GATE_RULES_SHOWN = 3
"""Failed rules the HTML's first screen lists before folding the rest: a gate over many
runs must not push the answer below the fold."""


@dataclass(frozen=True)
class GateView:
    passed: bool
    title: str
    failed: list[str]
    passed_rules: list[str]
    notice: str | None
    """Which max-drop rules were skipped for want of a baseline (a first run)."""

    @property
    def failed_shown(self) -> list[str]:
        return self.failed[:GATE_RULES_SHOWN]

    @property
    def failed_folded(self) -> list[str]:
        return self.failed[GATE_RULES_SHOWN:]

    @property
    def css(self) -> str:
        return f"gate gate-{'passed' if self.passed else 'failed'}"

    @property
    def mark(self) -> str:
        """The sign before the title on the page (the title says it in words too)."""
        return "\u2713" if self.passed else "\u2717"

    @property
    def badge(self) -> str:
        """The sign after the title in a PR comment, where GitHub colours emoji."""
        return "\u2705" if self.passed else "\u274c"

    @property
    def folded_summary(self) -> str:
        return f"{len(self.failed_folded)} more failed"

    @property
    def passed_summary(self) -> str:
        return passed_count(len(self.passed_rules))


def passed_count(count: int) -> str:
    """The line a list of passed rules folds into: ``3 passed``."""
    return f"{count} {outcome_word(True)}"


@dataclass(frozen=True)
class WarningGroup:
    """The warnings of one severity, folded to one line."""

    severity: str
    summary: str
    messages: list[str]


@dataclass(frozen=True)
class FirstScreen:
    gate: GateView | None
    run: str
    why: str
    """Why this run is the one shown: it has the verdicts, or it is the best."""
    k: int
    n: str
    title: str
    """The answer in a few words: ``rerank is worse than baseline 2026.10.1``, or the
    numbers without a baseline; the figures below it say what moved."""
    verdict: str
    """better, worse, mixed, within noise, too few questions, or empty without a baseline."""
    figures: list[Figure]
    cells: AttributionView | None
    cells_then: dict[str, str]
    """The baseline's count per cell, when both reports judged this run."""
    alerts: list[str]
    """Warnings that change what the numbers mean (stale gold ids, leaks): always shown."""
    warning_groups: list[WarningGroup]
    others: Table | None
    notes: VerdictNotes
    """Large raw drops, clustered questions, and the one-line digest of every warning."""
    attention: list[str]
    """What changes the verdict, named: the largest moves since the baseline, the stale
    gold ids, the unanswerable questions answered anyway (views/attention.py)."""
    replicates: str = ""
    """Runs given several times: replicates and flaky questions, in one line."""
    drops_inline: int = 2
    """Large drops summary.md's headline names; the rest are folded (the HTML folds all:
    its figures already show hit and recall's change)."""

    @property
    def css(self) -> str:
        """The section's class: ``verdict``, and the answer's colour against a baseline."""
        return f"verdict {verdict_class(self.verdict)}"

    @property
    def why_short(self) -> str:
        """Which run the screen is about and on how many questions (the PR summary)."""
        return f"{self.why.capitalize()}: {self.n}."

    @property
    def why_line(self) -> str:
        """:attr:`why_short` with the chunks sent to the model (the pages)."""
        return f"{self.why.capitalize()}: {self.n}, top {self.k} chunks sent to the model."


ALERT_CODES = (
    "partial_merge",
    "gold_changed",
    "baseline_failed_gate",
    "stale_gold",
    "possibly_stale_gold",
    "index_version_mismatch",
    "mixed_index_versions",
    "leaks",
    "forbidden_gold",
    "rule_below_detectable",
)
"""Warnings that change what a number means: a partial merge is over part of the
questions, a stale gold id scores 0 whatever search
does, a leak is a failure the means do not show, a gate rule below its measure's mde can
only fail by noise. They stay in view."""

ALERT_PHRASES = {
    "partial_merge": "partial merge",
    "gold_changed": "gold set changed since the baseline",
    "baseline_failed_gate": "baseline failed its gate",
    "stale_gold": "stale gold ids",
    "possibly_stale_gold": "possibly stale gold ids",
    "index_version_mismatch": "index versions differ",
    "mixed_index_versions": "mixed index versions",
    "leaks": "forbidden chunks retrieved",
    "forbidden_gold": "forbidden gold chunks",
    "rule_below_detectable": "gate rules below what can be detected",
}
"""The digest's short phrase for each alert."""

SEVERITIES = (
    (
        "about the numbers",
        {
            "missing_questions": "a run lacks questions",
            "ties_at_cutoff": "ties at the cutoff",
            "ties_within_top_k": "ties inside the top k",
            "unmatched_traces": "traces matching no question",
            "hop_order_ambiguous": "hops in a guessed order",
            "no_relevant": "questions with nothing relevant",
            "verdicts_missing": "questions without a verdict",
            "verdicts_unknown": "unknown verdicts",
            "verdicts_flaky": "questions the judge's trials disagree on",
            "replicates_flaky": "questions a run's replicates disagree on",
            "verdicts_run_assumed": "the verdicts' run assumed",
        },
    ),
    (
        "about ignored input",
        {
            "extra_questions": "questions not in the gold set",
            "repeated_chunks": "repeated chunks",
            "context_not_retrieved": "context chunks not in the ranked list",
            "verdicts_unknown_questions": "verdicts for unknown questions",
        },
    ),
)
"""The other warnings, one folded line per severity, each code with a short phrase.
A code not listed here (a newer one) goes with the first severity."""


def focus_run(report: Report) -> tuple[str, str]:
    """The run the verdicts are for, else the best by recall at k_ctx (then hit, then
    MRR, then report order): the run whose numbers the first screen gives, and why."""
    if report["attribution"]:
        return next(iter(report["attribution"])), "the run the verdicts are for"
    k = report["context_k"]
    runs = report["runs"]
    if len(runs) == 1:
        return next(iter(runs)), "the only run"

    def score(name: str) -> tuple[float, ...]:
        means = runs[name]["means"]
        return tuple(means.get(f"{key}@{k}") or 0.0 for key in ("recall", "hit", "mrr"))

    best = max(runs, key=score)
    return best, f"the best run at top {k} (no verdicts given)"


def baseline_entry(report: Report, run: str) -> BaselineComparison | None:
    baseline = report["baseline"]
    if not baseline:
        return None
    for entry in baseline["comparisons"]:
        if entry["run"] == run:
            return entry
    return None


def overall_verdict(labels: list[str]) -> str:
    """One word for several measures' labels: better, worse, mixed, within noise, or
    too few questions when one of them could not have shown any change."""
    worse, better = "worse" in labels, "better" in labels
    if worse and better:
        return "mixed"
    if worse or better:
        return "worse" if worse else "better"
    return TOO_FEW if TOO_FEW in labels else "within noise"


def _figures(report: Report, run: str, entry: BaselineComparison | None) -> list[Figure]:
    k = report["context_k"]
    section = report["runs"][run]
    figures = []
    for name, label in HEADLINE_MEASURES:
        key = f"{name}@{k}"
        measure = None if entry is None else entry["measures"].get(key)
        change = verdict = ""
        if measure is not None:
            change = f"{change_words(measure['difference'])} from {fmt(measure['before'])}"
            change += unjudged_note(entry) if entry else ""
            verdict = measure["label"]
        figures.append(
            Figure(
                label=f"{label}@{k}",
                value=fmt(section["means"][key]),
                interval=fmt_interval(section["intervals"].get(key)),
                change=change,
                verdict=verdict,
            )
        )
    return figures


VERDICT_WORDS = {
    "within noise": "within noise of",
    "mixed": "mixed against",
    "better": "better than",
    "worse": "worse than",
}


def _run_verdict(report: Report, entry: BaselineComparison) -> str:
    k = report["context_k"]
    measures = entry["measures"]
    keys = [f"{name}@{k}" for name, _ in HEADLINE_MEASURES]
    return overall_verdict([measures[key]["label"] for key in keys if key in measures])


def _others_moved(report: Report, run: str) -> str:
    """``; rerank is worse``: the other runs whose hit or recall at k_ctx moved beyond
    noise, so that a title about one run does not hide another's regression."""
    moved: dict[str, list[str]] = {}
    baseline = report["baseline"]
    for entry in [] if baseline is None else baseline["comparisons"]:
        if entry["run"] == run:
            continue
        verdict = _run_verdict(report, entry)
        if verdict not in ("within noise", TOO_FEW):
            moved.setdefault(verdict, []).append(entry["run"])
    parts = []
    for verdict, names in moved.items():
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        parts.append(f"{listed} {'is' if len(names) == 1 else 'are'} {verdict}")
    return "".join(f"; {part}" for part in parts)


def _title(report: Report, run: str, figures: list[Figure], verdict: str) -> str:
    baseline = report["baseline"]
    if not baseline:
        return f"{run}: " + " and ".join(f"{f.label} {f.value}" for f in figures)
    version = baseline["version"]
    if not verdict:
        return f"{run} is not in baseline {version}" + _others_moved(report, run)
    entry = baseline_entry(report, run)
    if verdict == TOO_FEW and entry is not None:
        keys = [f"{name}@{report['context_k']}" for name, _ in HEADLINE_MEASURES]
        return too_few_title(run, version, entry, keys) + _others_moved(report, run)
    return f"{run} is {VERDICT_WORDS[verdict]} baseline {version}" + _others_moved(report, run)


def _gate(report: Report, run: str) -> GateView | None:
    """The gate's outcome; failed rules on the run the screen is about come first."""
    gate = report["gate"]
    if not gate:
        return None
    rules = gate["rules"]
    failed = [
        rule["message"]
        for rule in sorted(rules, key=lambda rule: rule["run"] != run)
        if not rule["passed"]
    ]
    passed = [rule["message"] for rule in rules if rule["passed"]]
    skipped = gate["skipped"]
    if gate["passed"] and not rules:
        skipped_rules = plural(len(skipped), "max-drop rule")
        title = f"Quality gate {outcome_word(True)}: {skipped_rules} skipped, no baseline yet"
    elif gate["passed"]:
        title = f"Quality gate {outcome_word(True)}: {plural(len(rules), 'rule')}, all met"
    else:
        failing = f"{len(failed)} of {plural(len(rules), 'rule')} failed"
        title = f"Quality gate {outcome_word(False)}: {failing}"
    if skipped and rules:
        title += f" ({len(skipped)} max-drop skipped, no baseline yet)"
    return GateView(
        passed=gate["passed"],
        title=title,
        failed=failed,
        passed_rules=passed,
        notice=gate["notice"],
    )


def warning_anchor(index: int) -> str:
    """The page anchor of the first screen's ``index``-th folded warning line."""
    return f"warnings-{index + 1}"


def _notes(report: Report) -> VerdictNotes:
    """The first screen's notes; the digest links alerts to their box and the other
    warnings to their severity's folded line."""
    phrases = {code: phrase for _, named in SEVERITIES for code, phrase in named.items()}
    phrases.update(ALERT_PHRASES)
    anchors = dict.fromkeys(ALERT_CODES, "alerts")
    present = {w["code"] for w in report["warnings"] if w["code"] not in ALERT_CODES}
    known = {code for _, named in SEVERITIES for code in named}
    shown = 0
    for index, (_, named) in enumerate(SEVERITIES):
        members = [c for c in present if c in named or (index == 0 and c not in known)]
        if members:
            anchors.update(dict.fromkeys(members, warning_anchor(shown)))
            shown += 1
    return verdict_notes(report, phrases, anchors)


def _warning_groups(report: Report) -> tuple[list[str], list[WarningGroup]]:
    warnings = report["warnings"]
    alerts = [w["message"] for w in warnings if w["code"] in ALERT_CODES]
    rest = [w for w in warnings if w["code"] not in ALERT_CODES]
    known = {code for _, phrases in SEVERITIES for code in phrases}
    groups = []
    for index, (severity, phrases) in enumerate(SEVERITIES):
        members = [
            w for w in rest if w["code"] in phrases or (index == 0 and w["code"] not in known)
        ]
        if not members:
            continue
        named = list(dict.fromkeys(phrases.get(w["code"], w["code"]) for w in members))
        summary = f"{plural(len(members), 'warning')} {severity}: {', '.join(named)}"
        groups.append(WarningGroup(severity, summary, [w["message"] for w in members]))
    return alerts, groups


def _others(report: Report, run: str) -> Table | None:
    """The other runs in one table: the same measures, and their change if any."""
    names = [name for name in report["runs"] if name != run]
    if not names:
        return None
    k = report["context_k"]
    keys = [f"hit@{k}", f"recall@{k}", f"mrr@{k}"]
    baseline = report["baseline"]
    header = ["run", "n", f"hit@{k}", f"recall@{k}", f"MRR@{k}"]
    if baseline:
        header.append(f"recall@{k} against {baseline['version']}")
    rows = []
    for name in names:
        section = report["runs"][name]
        intervals = section["intervals"]
        row = [Cell(name), Cell(str(section["n"]))] + [
            Cell(fmt(section["means"][key]), note=fmt_interval(intervals.get(key))) for key in keys
        ]
        if baseline:
            entry = baseline_entry(report, name)
            measure = None if entry is None else entry["measures"].get(f"recall@{k}")
            row.append(
                Cell(
                    "not in the baseline"
                    if measure is None
                    else f"{change_words(measure['difference'])}, {measure['label']}"
                    + (unjudged_note(entry) if entry else "")
                )
            )
        rows.append(row)
    return Table("The other runs", header, rows)


def first_screen(report: Report) -> FirstScreen:
    run, why = focus_run(report)
    entry = baseline_entry(report, run)
    figures = _figures(report, run, entry)
    verdict = overall_verdict([f.verdict for f in figures]) if entry else ""
    cells = None if entry is None else entry["cells"]
    alerts, groups = _warning_groups(report)
    alerts = [*worst_slice_alerts(report), *alerts]
    return FirstScreen(
        gate=_gate(report, run),
        run=run,
        why=why,
        k=report["context_k"],
        n=plural(report["runs"][run]["n"], "question") + " with relevant passages",
        title=_title(report, run, figures, verdict),
        verdict=verdict,
        figures=figures,
        cells=attribution_view(report),
        cells_then={} if cells is None else {key: str(n) for key, n in cells["then"].items()},
        alerts=alerts,
        warning_groups=groups,
        others=_others(report, run),
        notes=_notes(report),
        attention=attention(report, run).lines,
        replicates=replicates_line(report),
    )
