"""What a comparison could and could not tell, in words for the first screen and summary.md.

A change is "within noise" only when a change of its ``mde`` would have shown; when
nothing could have (4 questions can never reach p < 0.05) the label is "too few
questions", and the headline names the raw change in questions instead. Large raw drops
are listed whatever the test says, so that a collapse on a small gold set is never
hidden behind "not significant".
"""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.core.records import dataclass
from reportgen.render.views.common import fmt, plural
from reportgen.schema import BaselineComparison, Comparison, MeasureChange, Report

DEFAULT_DROP = 0.05
"""A drop listed as large when no --max-drop rule names its measure."""
DROPS_SHOWN = 6
"""Large drops the first screen lists before counting the rest."""
DESIGN_EFFECT_SHOWN = 1.5
"""Above this design effect the first screen says the questions are clustered."""
TOO_FEW = "too few questions"


@dataclass(frozen=True)
class Drop:
    """A large raw drop against the baseline, and what the test made of it."""

    text: str
    mark: str
    """``worse``, ``not significant`` or ``too few questions``."""

    @property
    def css(self) -> str:
        return "drop drop-worse" if self.mark == "worse" else "drop drop-unproven"


@dataclass(frozen=True)
class DigestItem:
    """One class of warnings on the first screen's digest line, linking to them."""

    text: str
    anchor: str


@dataclass(frozen=True)
class VerdictNotes:
    drops: list[Drop]
    drops_more: int
    """Large drops beyond :data:`DROPS_SHOWN`, counted only."""
    clustered: str
    """Why the intervals are wider: the design effect, when above 1.5; else empty."""
    digest: list[DigestItem]


def moved_in_questions(measure: MeasureChange, n: int, binary: bool) -> str:
    """``3 of 4 questions lost``: a change told as the questions that moved."""
    lost, gained = measure["losses"], measure["wins"]
    down, up = ("lost", "gained") if binary else ("fell", "rose")
    parts = [f"{lost} of {n} questions {down}"] if lost else []
    if gained:
        parts.append(f"{gained} {up}" if parts else f"{gained} of {n} questions {up}")
    return ", ".join(parts) or f"none of {n} questions moved"


def too_few_title(run: str, version: str, entry: BaselineComparison, keys: Sequence[str]) -> str:
    """The headline when nothing was detectable: the largest raw change, in questions,
    and about how many questions a drop of 0.10 would need."""
    measures = {key: entry["measures"][key] for key in keys if key in entry["measures"]}
    # the largest change; on a tie, the first of ``keys`` (hit before recall)
    key = max(measures, key=lambda k: abs(measures[k]["difference"]))
    measure = measures[key]
    n = measure.get("n", entry["n"])
    moved = moved_in_questions(measure, n, key.startswith("hit@"))
    return (
        f"{run} against baseline {version}: {key} {fmt(measure['before'])} → "
        f"{fmt(measure['after'])}, {moved}; {plural(n, 'question')} cannot show a "
        f"significant change; about {measure['n_needed']} would be needed for a drop of 0.10"
    )


def _threshold(report: Report, run: str, key: str) -> float:
    """The gate's max-drop on this run's measure (its smallest), else 0.05."""
    gate = report["gate"]
    found = [
        rule["threshold"]
        for rule in (gate["rules"] if gate else [])
        if rule["type"] == "max-drop" and rule["measure"] == key and rule["kind"] is None
        if rule["run"] == run
    ]
    return min(found, default=DEFAULT_DROP)


def _mark(label: str) -> str:
    return label if label in ("worse", TOO_FEW) else "not significant"


def large_drops(report: Report) -> list[Drop]:
    """Every measure of every run that fell against the baseline by at least the gate's
    max-drop (0.05 without one), largest first, marked as the test found it."""
    baseline = report["baseline"]
    if not baseline:
        return []
    found: list[tuple[float, int, int, Drop]] = []
    for place, entry in enumerate(baseline["comparisons"]):
        for order, (key, measure) in enumerate(entry["measures"].items()):
            drop = measure["before"] - measure["after"]
            if key.startswith("context_chars@") or drop < _threshold(report, entry["run"], key):
                continue
            n = measure.get("n", entry["n"])
            text = (
                f"{entry['run']}: {key} {fmt(measure['before'])} → {fmt(measure['after'])} "
                f"({moved_in_questions(measure, n, key.startswith('hit@'))})"
            )
            found.append((-round(drop, 6), order, place, Drop(text, _mark(measure["label"]))))
    return [drop for *_, drop in sorted(found, key=lambda item: item[:3])]


def clustered_line(report: Report) -> str:
    """The first screen's word on clustered questions, when they widen the intervals."""
    sections: list[Sequence[Comparison]] = [report["comparisons"]["pairs"]]
    method = report["comparisons"]["method"].get("cluster")  # absent from older reports
    if report["baseline"]:
        sections.append(report["baseline"]["comparisons"])
        method = method or report["baseline"]["method"].get("cluster")
    entries: list[Comparison] = [entry for section in sections for entry in section]
    if method is None or not entries:
        return ""
    worst = max(entries, key=lambda entry: entry.get("design_effect", 1.0))
    if worst.get("design_effect", 1.0) <= DESIGN_EFFECT_SHOWN:
        return ""
    return (
        f"Questions are clustered by {method['field']}: {worst['n']} questions in "
        f"{worst['clusters']} clusters count as about {worst['effective_n']:g} independent "
        f"ones (design effect {worst['design_effect']:.2f}, {worst['before']} → "
        f"{worst['after']}); intervals and tests resample whole clusters."
    )


def digest(report: Report, phrases: dict[str, str], anchors: dict[str, str]) -> list[DigestItem]:
    """Every warning class with its count, the stale gold first, each linking to where
    its messages are (``anchors``: code -> anchor on the page)."""
    counts: dict[str, int] = {}
    for warning in report["warnings"]:
        counts[warning["code"]] = counts.get(warning["code"], 0) + warning["count"]
    first = [code for code in ("stale_gold", "possibly_stale_gold") if code in counts]
    # then the other alerts, then the folded lines in page order
    rest = sorted(
        (code for code in counts if code not in first),
        key=lambda code: (anchors.get(code, "warnings") != "alerts", anchors.get(code, "")),
    )
    order = first + rest
    return [
        DigestItem(
            f"{phrases.get(code, code.replace('_', ' '))} ({counts[code]})",
            anchors.get(code, "warnings"),
        )
        for code in order
    ]


def verdict_notes(report: Report, phrases: dict[str, str], anchors: dict[str, str]) -> VerdictNotes:
    drops = large_drops(report)
    return VerdictNotes(
        drops=drops[:DROPS_SHOWN],
        drops_more=max(0, len(drops) - DROPS_SHOWN),
        clustered=clustered_line(report),
        digest=digest(report, phrases, anchors),
    )
