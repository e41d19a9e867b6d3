"""Runs side by side and against a baseline (report["comparisons"], report["baseline"],
report["gate"]), formatted for _comparisons.html.j2 / .md.j2 and summary.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportgen.core.records import dataclass
from reportgen.render.cells import CELL_NAMES
from reportgen.render.views.attribution import with_stale
from reportgen.render.views.common import Cell, Table, fmt, plural, verdict_class
from reportgen.render.views.replicates import compared_runs, noise_floor_note
from reportgen.schema import (
    BaselineSection,
    CellsThenNow,
    Comparison,
    GoldSection,
    MeasureChange,
    Method,
    Report,
    Selection,
)

CHANGED_ROWS_SHOWN = 50
"""Questions that changed, per comparison, before the pages point to report.json."""


@dataclass(frozen=True)
class ComparisonBlock:
    title: str
    note: str
    table: Table
    changed: Table
    changed_total: int
    cells: Table | None = None
    cells_note: str | None = None
    """Said under the cells when some of their questions have stale gold ids."""

    @property
    def changed_summary(self) -> str:
        return f"{plural(self.changed_total, 'question')} changed"

    @property
    def changed_cut(self) -> str:
        """``Showing 20 of 35`` when the table lists only some of the questions that
        changed; empty when it lists them all."""
        shown = len(self.changed.rows)
        return f"Showing {shown} of {self.changed_total}" if self.changed_total > shown else ""


@dataclass(frozen=True)
class ComparisonsView:
    method: str
    gold: str
    pairs: list[ComparisonBlock]
    pairs_glance: Table | None
    """One row per pair of runs, the measures at k_ctx: the pairs' blocks are folded."""
    baseline_facts: list[str]
    baseline_glance: Table | None
    baseline_note: str
    baseline: list[ComparisonBlock]
    gate_passed: bool | None
    gate: list[tuple[bool, str]]


def _signed(value: float) -> str:
    return f"{value:+.3f}"


Titles = Mapping[tuple[str, bool], str]
"""(measure name, whether it takes a cutoff) -> its title, as ``hit@k``."""


def measure_titles(report: Report) -> Titles:
    """The titles of the measures report.json defines (``pages.measures``)."""
    return {(m["name"], m["cutoff"]): m["title"] for m in report["pages"]["measures"]}


def _measure_title(key: str, titles: Titles) -> str:
    name, _, k = key.partition("@")
    title = titles.get((name, bool(k)), key)
    return title.replace("@k", f"@{k}") if k else title


def _comparison_table(entry: Comparison, titles: Titles) -> Table:
    rows = []
    for key, m in entry["measures"].items():
        test = "McNemar" if m["test"] == "mcnemar" else "randomization"
        rows.append(
            [
                Cell(_measure_title(key, titles)),
                Cell(fmt(m["before"])),
                Cell(fmt(m["after"])),
                Cell(
                    f"{_signed(m['difference'])} [{_signed(m['ci_low'])}, {_signed(m['ci_high'])}]"
                ),
                Cell(f"{m['p']:.3g} ({test}) / {m['p_holm']:.3g}{_family_text(m)}"),
                Cell(f"{m['wins']} / {m['ties']} / {m['losses']}"),
                Cell(_mde_text(m)),
                Cell(m["label"] + unjudged_note(entry), css=f"verdict {verdict_class(m['label'])}"),
            ]
        )
    header = [
        "measure",
        "before",
        "after",
        "difference [95% CI]",
        "p / Holm p (family)",
        "wins / ties / losses",
        "smallest detectable change",
        "verdict",
    ]
    return Table("Per measure (after - before)", header, rows, css="comparison")


@dataclass
class _Changed:
    """One changed question: its kind, and per measure the move and its text."""

    kind: str
    delta: dict[str, float]
    text: dict[str, str]


def _changed_table(entry: Comparison, titles: Titles) -> tuple[Table, int]:
    """Questions whose values at k_ctx moved, one row each: largest losses first."""
    changed = entry["changed_questions"]
    keys = list(changed)
    found: dict[str, _Changed] = {}
    for key in keys:
        for row in changed[key]:
            item = found.setdefault(row["qid"], _Changed(row["kind"], {}, {}))
            item.text[key] = f"{fmt(row['before'])} → {fmt(row['after'])}"
            item.delta[key] = row["after"] - row["before"]
    order = sorted(found, key=lambda qid: (*(found[qid].delta.get(key, 0.0) for key in keys), qid))
    rows = [
        [Cell(qid), Cell(found[qid].kind), *[Cell(found[qid].text.get(key, "=")) for key in keys]]
        for qid in order[:CHANGED_ROWS_SHOWN]
    ]
    header = ["question", "kind", *[_measure_title(key, titles) for key in keys]]
    # report.json lists the first 100 changed questions; changed_total counts them all
    return (
        Table("Questions that changed (= unchanged)", header, rows, css="changed"),
        entry["changed_total"],
    )


def _cells_table(cells: CellsThenNow | None) -> Table | None:
    if cells is None:
        return None
    stale, rates = cells["stale"], cells["pass_rate"]
    sides = (
        (cells["then"], stale["then"] or {}),
        (cells["now"], stale["now"] or {}),
    )
    rows = [
        [
            Cell(label),
            *[Cell(with_stale(counts[name], marked.get(name, 0))) for counts, marked in sides],
        ]
        for name, label in CELL_NAMES.items()
    ]
    rows.append([Cell("pass rate"), Cell(fmt(rates["then"])), Cell(fmt(rates["now"]))])
    return Table("The four cells, then and now", ["cell", "then", "now"], rows, css="cells")


def stale_cells_note(cells: CellsThenNow | None) -> str | None:
    """Why a count "with stale gold" must not be read as search's doing."""
    if cells is None:
        return None
    then, now = cells["stale"]["then"], cells["stale"]["now"] or {}
    if not any((then or {}).values()) and not any(now.values()):
        return None
    note = (
        'A count "with stale gold" includes questions whose gold ids that report\'s index '
        "manifest did not hold: no run could retrieve them, so that part of the count, and "
        "of its change, is the gold set's fault, not search's. Update their gold ids before "
        "reading the change as a regression."
    )
    if then is None:
        note += (
            " The baseline's report.json predates this mark: which of its questions had "
            "stale gold ids is not known."
        )
    return note


def cells_line(cells: CellsThenNow | None) -> str | None:
    """The cells then and now on one terminal line, stale gold marked as on the pages."""
    table = _cells_table(cells)
    if table is None:
        return None
    parts = [f"{row[0].text} {row[1].text} -> {row[2].text}" for row in table.rows]
    return "four cells then -> now: " + ", ".join(parts)


GLANCE_MEASURES = ("hit", "recall", "ndcg", "mrr")
"""The measures at k_ctx that the at-a-glance table shows, when a comparison has them."""


def _moved(entry: Comparison, titles: Titles) -> str:
    """Which measures moved beyond noise, by label, and which could not have shown any
    change (too few questions); "nothing beyond noise" when none."""
    parts = []
    for label in ("worse", "better", "too few questions"):
        keys = [key for key, m in entry["measures"].items() if m["label"] == label]
        if keys:
            parts.append(f"{label}: {', '.join(_measure_title(key, titles) for key in keys)}")
    return "; ".join(parts) or "nothing beyond noise"


def glance_table(
    labelled: Sequence[tuple[str, Comparison]], k: int, titles: Titles, caption: str
) -> Table:
    """One row per comparison (a run against the baseline, or a pair of runs): headline
    measures before → after, and what moved beyond noise.

    A reviewer reads this first; the full tables (every measure, its interval and
    p-values) are one click away. The unjudged-chunks note goes with what moved, not
    into the name column, which stays a name.
    """
    keys = [f"{name}@{k}" for name in GLANCE_MEASURES]
    keys = [key for key in keys if any(key in entry["measures"] for _, entry in labelled)]
    rows = []
    for label, entry in labelled:
        cells = [Cell(label)]
        for key in keys:
            m = entry["measures"].get(key)
            text = "n/a" if m is None else f"{fmt(m['before'])} → {fmt(m['after'])}"
            if m is not None and m["label"] != "within noise":
                text += f" ({m['label']})"
            cells.append(Cell(text))
        cells.append(Cell(_moved(entry, titles) + unjudged_note(entry)))
        rows.append(cells)
    header = ["run", *[_measure_title(key, titles) for key in keys], "beyond noise (any measure)"]
    return Table(caption, header, rows, css="glance")


BASELINE_GLANCE = "Against the baseline, at a glance (before → after)"
PAIRS_GLANCE = "The runs pair by pair, at a glance (before → after)"


def pair_label(entry: Comparison) -> str:
    """A pair of runs as the glance table names it: ``keyword → rerank``."""
    return f"{entry['before']} → {entry['after']}"


def unjudged_note(entry: Comparison) -> str:
    """`` (may reflect unjudged chunks: judged@5 0.40 → 0.85)`` when the sides differ by
    more than 0.10 in judged@k_ctx, else nothing: written after a comparison's label."""
    judged = entry.get("judged")
    if not judged or not judged["unjudged"]:
        return ""
    return (
        f" (may reflect unjudged chunks: {judged['key']} {fmt(judged['before'])} → "
        f"{fmt(judged['after'])})"
    )


def _family_text(measure: MeasureChange) -> str:
    """`` (primary)``: the family the Holm p is within; empty in a report before families."""
    family = measure.get("family")
    return f" ({family})" if family else ""


def families_text(method: Method) -> str:
    """The sentence saying which family a label belongs to and what it was corrected
    across (report.json's ``method.families_text``); before families, the one family."""
    return method.get("families_text") or (
        f"Holm-corrected across all {method['family_size']} differences."
    )


def glance_note(
    method: Method,
    details: str = "each run below has every measure, its interval and p-values",
) -> str:
    return (
        f"better / worse only when the Holm-adjusted p < {method['alpha']} and the 95% "
        f"interval excludes 0. {families_text(method)} {details[:1].upper()}{details[1:]}."
    )


def _blocks(
    entries: Sequence[Comparison],
    titles: Titles,
    cells: Sequence[CellsThenNow | None] | None = None,
    report: Report | None = None,
) -> list[ComparisonBlock]:
    """A block per comparison; ``cells``, one per entry, against a baseline; ``report``
    gives the runs' noise floors (replicates)."""
    blocks = []
    for entry, then_now in zip(entries, cells or [None] * len(entries), strict=True):
        changed, total = _changed_table(entry, titles)
        moves = fmt(entry["one_question"])
        floor = "" if report is None else noise_floor_note(report, compared_runs(entry))
        blocks.append(
            ComparisonBlock(
                title=f"{entry['before']} → {entry['after']}",
                note=f"{entry['n']} paired questions; one question moves a mean by {moves} (1/n)."
                + _cluster_note(entry)
                + _fewer_note(entry)
                + floor,
                table=_comparison_table(entry, titles),
                changed=changed,
                changed_total=total,
                cells=_cells_table(then_now),
                cells_note=stale_cells_note(then_now),
            )
        )
    return blocks


def _fewer_note(entry: Comparison) -> str:
    """Which measures were paired on fewer questions (span measures: those with evidence)."""
    fewer: dict[int, list[str]] = {}
    for key, measure in entry["measures"].items():
        if "n" in measure:
            fewer.setdefault(measure["n"], []).append(key)
    return "".join(
        f" {', '.join(keys)}: the {plural(n, 'question')} with a value on both sides "
        "(for span measures, those with evidence spans)."
        for n, keys in sorted(fewer.items())
    )


def _mde_text(measure: MeasureChange) -> str:
    """The smallest detectable change; empty in a report written before it."""
    if "mde" not in measure:
        return ""
    return "none" if measure["mde"] is None else fmt(measure["mde"])


def _method_text(method: Method) -> str:
    return (
        f"Differences are after - before, paired by question. Intervals: 95% percentile "
        f"bootstrap ({method['interval']['resamples']:,} resamples, seed "
        f"{method['interval']['seed']}). p: two-sided paired randomization test "
        f"(sign flips, {method['test']['resamples']:,}, exact when few questions differ); "
        f"exact McNemar for hit@k. {families_text(method)} A difference is called better or "
        f"worse only when the Holm-adjusted p < {method['alpha']} and the interval excludes "
        "0; otherwise it is within noise when a change of its smallest detectable change "
        "(mde: the change its label detects with 80% power, its family's correction "
        "included) would have shown, and too few questions when no change within the "
        "measure's range would have." + _cluster_text(method)
    )


def _cluster_text(method: Method) -> str:
    cluster = method.get("cluster")  # absent from reports written before it
    if cluster is None:
        return ""
    return (
        f" Questions are clustered by {cluster['field']}: the bootstrap draws, and the "
        "randomization test flips, whole clusters (hit@k too, instead of McNemar)."
    )


def _cluster_note(entry: Comparison) -> str:
    """How many clusters, and how many independent questions they are worth."""
    if entry.get("clusters", entry["n"]) == entry["n"]:
        return ""
    return (
        f" {plural(entry['clusters'], 'cluster')}, design effect {entry['design_effect']:.2f}: "
        f"worth about {entry['effective_n']:g} independent questions."
    )


def gold_change_lines(baseline: BaselineSection) -> list[str]:
    """What changed in the gold set since the baseline, and on how many questions both
    sides are measured: the same count on every page and in the terminal."""
    change = baseline["gold_change"]
    if not change:
        return []
    out = change["left_out"]
    parts = (out["only_in_baseline"], out["only_in_this_report"], out["changed"])
    left = "; ".join(f"{part['count']} {part['why']}" for part in parts if part["count"])
    entries = baseline["comparisons"]
    paired = (
        f" ({entries[0]['n']} of them with relevant passages, paired run by run)" if entries else ""
    )
    lines = [
        f"The gold set changed since the baseline (fingerprint "
        f"{change['baseline_fingerprint']} → {change['fingerprint']}): both sides are measured "
        f"on the {plural(change['shared_questions'], 'question')} the two sets share{paired}. "
        f"Left out: {left or 'none'}."
    ]
    if change["note"]:
        lines.append(f"Note: {change['note']}.")
    return lines


def _baseline_facts(report: Report) -> list[str]:
    baseline = report["baseline"]
    if not baseline:
        return []
    gold = baseline["gold"]
    facts = [
        f"Baseline {baseline['version']} ({baseline['created']}), read from {baseline['source']}; "
        f"gold set {gold['version'] or 'unversioned'}, fingerprint {gold['fingerprint']}.",
    ]
    if selection := baseline["selection"]:
        facts.append(selection_sentence(baseline["version"], selection, report["gold"]))
    facts += gold_change_lines(baseline)
    if baseline["runs_not_in_baseline"]:
        facts.append("Not in the baseline: " + ", ".join(baseline["runs_not_in_baseline"]) + ".")
    if baseline["baseline_runs_not_here"]:
        facts.append("Only in the baseline: " + ", ".join(baseline["baseline_runs_not_here"]) + ".")
    return facts


def selection_sentence(version: str, selection: Selection, gold: GoldSection) -> str:
    """Why this version of the site is the baseline, and which newer ones were passed over."""
    site, count = selection["site"], selection["versions"]
    among = f"the {count} versions on {site}" if count != 1 else f"the one version on {site}"
    rule = selection["rule"]
    chosen = selection.get("commit") or "?"
    if rule == "requested":
        sentence = f"{version} was chosen with --baseline-version among {among}"
    elif rule == "commit":
        sentence = f"{version} is the version of --baseline-commit {chosen} among {among}"
    elif rule == "ancestor":
        sentence = (
            f"{version} is the version of {chosen}, the nearest first-parent ancestor of "
            f"--baseline-commit {selection.get('for_commit')} with one, among {among}"
        )
    elif rule == "same_gold":
        sentence = f"{version} is the newest of {among} measured on this report's gold set"
    else:
        sentence = (
            f"{version} is the newest of {among}; none was measured on this report's gold "
            f"set (fingerprint {gold['fingerprint']})"
        )
    if selection["newer"]:
        sentence += "; newer, passed over: " + ", ".join(selection["newer"])
    if note := selection.get("note"):
        sentence += f" ({note})"
    return sentence + "."


def gate_lines(report: Report) -> tuple[bool | None, list[tuple[bool, str]]]:
    """Whether the quality gate passed (None without a gate) and each rule's outcome."""
    gate = report["gate"]
    if not gate:
        return None, []
    return gate["passed"], [(rule["passed"], rule["message"]) for rule in gate["rules"]]


def comparisons_view(report: Report) -> ComparisonsView:
    """Every comparison of the report, formatted: runs, baseline, gate."""
    comparisons = report["comparisons"]
    gold = report["gold"]
    gate_passed, gate = gate_lines(report)
    baseline = report["baseline"]
    titles = measure_titles(report)
    return ComparisonsView(
        method=_method_text(comparisons["method"]),
        gold=f"Measured on gold set {gold['version'] or 'unversioned'}, fingerprint "
        f"{gold['fingerprint']}.",
        pairs=_blocks(comparisons["pairs"], titles, report=report),
        pairs_glance=glance_table(
            [(pair_label(pair), pair) for pair in comparisons["pairs"]],
            report["context_k"],
            titles,
            PAIRS_GLANCE,
        )
        if comparisons["pairs"]
        else None,
        baseline_facts=_baseline_facts(report),
        baseline_glance=glance_table(
            [(entry["run"], entry) for entry in baseline["comparisons"]],
            report["context_k"],
            titles,
            BASELINE_GLANCE,
        )
        if baseline
        else None,
        baseline_note=glance_note(baseline["method"]) if baseline else "",
        baseline=_blocks(
            baseline["comparisons"],
            titles,
            [entry["cells"] for entry in baseline["comparisons"]],
            report,
        )
        if baseline
        else [],
        gate_passed=gate_passed,
        gate=gate,
    )
