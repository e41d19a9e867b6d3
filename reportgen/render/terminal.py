"""What the CLI prints when a command is done: the lines a person reads first.

Each function returns lines (an empty one is a blank line); the CLI echoes them. The
words come from the same views as the pages' (headlines, cells, gold-change notes),
so the terminal and the report say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportgen.core.model import outcome_word
from reportgen.errors import printable
from reportgen.render.views.attribution import attribution_lines
from reportgen.render.views.common import fmt, plural
from reportgen.render.views.comparisons import (
    cells_line,
    families_text,
    gold_change_lines,
    selection_sentence,
    unjudged_note,
)
from reportgen.render.views.context import context_notes
from reportgen.render.views.first_screen import ALERT_CODES, FirstScreen, first_screen
from reportgen.render.views.methods import headline
from reportgen.render.views.replicates import compared_runs, noise_floor_note, replicates_line
from reportgen.render.views.secondary import secondary_lines
from reportgen.schema import (
    BaselineSection,
    CellsThenNow,
    Comparison,
    GateSection,
    MeasureChange,
    MergedReport,
    Report,
    RuleResult,
    counted,
)

TERMINAL_BUDGET = 25
"""Lines the demo prints without --verbose (tests/render/test_summary_budget.py): the
terminal follows summary.md's headline, in its order."""


OTHER_WARNINGS_SHOWN = 2
"""Warnings other than alerts printed whole; more are counted in one line."""


def report_lines(report: Report, files: Sequence[Path], verbose: bool = False) -> list[str]:
    """What a person reads first, in summary.md's order: per run the headline (first,
    for ``| head -1``), the context note, the gate, the comparisons, the cells, the facts
    that change the verdict, the warnings and where the files went.

    Without ``verbose``, the tables by kind, the comparisons within noise, the cells'
    definitions and, past OTHER_WARNINGS_SHOWN, the warnings other than alerts are
    counted, not printed.
    """
    lines = _run_lines(report, verbose)  # first, for `| head -1`
    replicated = replicates_line(report)
    lines += [replicated, ""] if replicated else []
    notes = context_notes(report)
    lines += [*notes, ""] if notes else []
    lines += [*_gate_lines(report), ""] if report["gate"] else []
    lines += secondary_lines(report)
    lines += comparison_lines(report, verbose)
    lines += attribution_lines(report, verbose)
    screen = first_screen(report)
    lines += screen.attention
    lines += [f"warning: {message}" for message in screen.alerts]
    others = [w["message"] for w in report["warnings"] if w["code"] not in ALERT_CODES]
    if verbose or len(others) <= OTHER_WARNINGS_SHOWN:
        lines += [f"warning: {message}" for message in others]
    else:
        lines.append(
            f"warning: {plural(len(others), 'other warning')} ({', '.join(_phrases(screen))}): "
            "see summary.md, or --verbose"
        )
    if lines and lines[-1] != "":
        lines.append("")
    return [*lines, written_line(files)]


def _phrases(screen: FirstScreen) -> list[str]:
    """The other warnings' short phrases, as the folded lines of the pages name them."""
    return [group.summary.split(": ", 1)[-1] for group in screen.warning_groups]


def _run_lines(report: Report, verbose: bool) -> list[str]:
    """Per run its headline; with ``verbose``, a small table by kind under each."""
    k = report["context_k"]
    lines = []
    for name, run in report["runs"].items():
        lines.append(headline(name, run, k))
        if not verbose or len(run["by_kind"]) < 2:  # one kind would repeat the headline
            continue
        rows = [("kind", "n", f"hit@{k}", f"recall@{k}", f"MRR@{k}")]
        rows += [
            (
                kind,
                str(counted(values)),
                fmt(values[f"hit@{k}"]),
                fmt(values[f"recall@{k}"]),
                fmt(values[f"mrr@{k}"]),
            )
            for kind, values in run["by_kind"].items()
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            cells = [row[0].ljust(widths[0])] + [
                cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
            ]
            lines.append("  " + "  ".join(cells))
        lines.append("")
    return lines if lines[-1:] == [""] else [*lines, ""]


def comparison_lines(report: Report, verbose: bool = True) -> list[str]:
    """One line per comparison on recall at k_ctx (and a baseline's four cells, stale
    gold marked); without ``verbose``, the pairs of runs within noise are counted only
    and their families' note (summary.md folds it too) is left out."""
    key = f"recall@{report['context_k']}"
    lines = []
    pairs = report["comparisons"]["pairs"]
    sections: list[tuple[str, Sequence[Comparison], Sequence[CellsThenNow | None], list[str]]] = [
        (
            "Runs compared",
            pairs,
            [None] * len(pairs),
            [families_text(report["comparisons"]["method"])] if verbose else [],
        )
    ]
    if baseline := report["baseline"]:
        lines.append(baseline_source_line(report, baseline))
        against = baseline["comparisons"]
        sections.insert(
            0,
            (
                f"Against baseline {baseline['version']}",
                against,
                [entry["cells"] for entry in against],
                [*gold_change_lines(baseline), families_text(baseline["method"])],
            ),
        )
    for title, entries, then_now, notes in sections:
        if not entries:
            continue
        n = entries[0]["n"]
        moves = fmt(entries[0]["one_question"])
        shown = [
            (entry, cells)
            for entry, cells in zip(entries, then_now, strict=True)
            if verbose or cells is not None or _moved(entry, key)
        ]
        hidden = len(entries) - len(shown)
        quiet = f"; {hidden} within noise on {key}, see --verbose" if hidden else ""
        lines.append(
            f"{title} ({n} paired questions; one question moves a mean by {moves}{quiet}):"
        )
        lines += [f"  {note}" for note in notes]
        for entry, entry_cells in shown:
            lines.append(_comparison_line(entry, key))
            floor = noise_floor_note(report, compared_runs(entry))
            if floor:
                lines.append(f"   {floor}")
            cells = cells_line(entry_cells)
            if cells:
                lines.append(f"    {cells}")
    return [*lines, ""] if lines else []


def _moved(entry: Comparison, key: str) -> bool:
    measure = entry["measures"].get(key)
    return measure is not None and measure["label"] != "within noise"


def _gate_lines(report: Report) -> list[str]:
    """The gate's outcome, then each rule (failed first) and its notice."""
    gate = report["gate"]
    if not gate:
        return []
    lines = [f"Quality gate: {outcome_word(gate['passed'])}"]
    whole = [rule for rule in gate["rules"] if not rule.get("slice")]
    sliced = [rule for rule in gate["rules"] if rule.get("slice")]
    rules = sorted(whole, key=lambda rule: rule["passed"])
    lines += [f"  {rule['message']}" for rule in rules]
    lines += [f"  {rule['message']}" for rule in sliced if not rule["passed"]]
    lines += slice_gate_lines(gate, sliced)
    if gate["notice"]:
        lines.append(f"  notice: {gate['notice']}")
    return lines


def slice_gate_lines(gate: GateSection, sliced: Sequence[RuleResult]) -> list[str]:
    """The per-slice rules in one line: how many passed, and the slices too small to gate."""
    found = gate.get("slices")
    if found is None:
        return []
    passed = sum(rule["passed"] for rule in sliced)
    small = ", ".join(f"{s['value']} ({s['n']})" for s in found["not_gated"])
    return [
        f"  {passed} of {len(sliced)} rules on the slices of {found['field']} passed"
        + (f"; not gated, under {found['min_n']} questions: {small}" if small else "")
    ]


def _comparison_line(entry: Comparison, key: str) -> str:
    measure = entry["measures"].get(key)
    if measure is None:
        return f"  {entry['before']} -> {entry['after']}: no shared question"
    return (
        f"  {entry['before']} -> {entry['after']}: {key} {fmt(measure['before'])} -> "
        f"{fmt(measure['after'])} ({measure['difference']:+.3f}, 95% CI "
        f"{measure['ci_low']:+.3f} to {measure['ci_high']:+.3f}, Holm p {measure['p_holm']:.3g}): "
        f"{measure['label']}{_detectable(measure)}{unjudged_note(entry)}"
    )


def _detectable(measure: MeasureChange) -> str:
    """What the comparison could have shown: its mde, or the questions it would need."""
    if "mde" not in measure:  # a report written before it
        return ""
    if measure["mde"] is None:
        return (
            f" (no change is detectable; about {measure['n_needed']} questions would be "
            "needed for a drop of 0.10)"
        )
    return f" (smallest detectable change {fmt(measure['mde'])})"


def baseline_source_line(report: Report, baseline: BaselineSection) -> str:
    """Which report the baseline is, and why that version when it came from a site."""
    version, created, source = baseline["version"], baseline["created"], baseline["source"]
    line = f"Baseline: {version} ({created}), read from {source}."
    if selection := baseline["selection"]:
        line += " " + selection_sentence(version, selection, report["gold"])
    return line


def merge_lines(report: MergedReport, shards: int, files: Sequence[Path]) -> list[str]:
    """The merged questions, each run's means at the context k, where the files went."""
    lines = [f"Merged {shards} shards: {plural(report['gold']['questions'], 'question')}."]
    k = report["context_k"]
    for name, run in report["runs"].items():
        shown = [key for key in (f"hit@{k}", f"recall@{k}", f"mrr@{k}") if key in run["means"]]
        shown = shown or list(run["means"])[:3]  # no context k (trec_eval's output)
        values = " | ".join(f"{key} {fmt(run['means'][key])}" for key in shown)
        lines.append(f"{name}: {plural(run['n'], 'question')} in the means. {values}")
    return [*lines, written_line(files)]


def shard_lines(questions: Sequence[int], out_dir: Path, command: str) -> list[str]:
    """What `reportgen shard` cut (``questions`` per shard), and ``command``, the line
    that measures one shard."""
    sizes = ", ".join(str(n) for n in questions)
    cut = f"Cut {plural(sum(questions), 'question')} into {len(questions)} shards"
    return [
        printable(f"{cut} ({sizes}) in {out_dir}/."),
        printable(f"Measure each one inside its folder: {command}"),
    ]


def written_line(files: Sequence[Path]) -> str:
    """Where the files went, one line: the report's folder, its files, chart files
    counted, then any file written elsewhere (``--junit``) by its path."""
    if not files:
        return "Wrote nothing."
    shallowest = min(files, key=lambda path: len(path.parts)).parent
    folder = next((path.parent for path in files if path.name == "report.json"), shallowest)
    inside = [path for path in files if path.is_relative_to(folder)]
    top = [path.name for path in inside if path.parent == folder]
    nested: dict[str, int] = {}
    for path in inside:
        if path.parent != folder:
            name = path.relative_to(folder).parts[0]
            nested[name] = nested.get(name, 0) + 1
    parts = top + [f"{name}/ ({count} files)" for name, count in sorted(nested.items())]
    elsewhere = [str(path) for path in files if not path.is_relative_to(folder)]
    also = f"; also {', '.join(elsewhere)}" if elsewhere else ""
    return printable(f"Wrote {folder}/: " + ", ".join(parts) + also)
