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
    gold_change_lines,
    selection_sentence,
    unjudged_note,
)
from reportgen.render.views.context import context_notes
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


def report_lines(report: Report, files: Sequence[Path]) -> list[str]:
    """Per run: the headline, a small table by kind (when there are several); then
    the comparisons, the cells, the warnings and where the files went."""
    k = report["context_k"]
    runs = report["runs"]
    lines = []
    for index, (name, run) in enumerate(runs.items()):
        lines.append(headline(name, run, k))
        if len(run["by_kind"]) < 2:  # one kind would repeat the headline
            if index == len(runs) - 1:
                lines.append("")
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
    replicated = replicates_line(report)
    lines += [replicated, ""] if replicated else []
    lines += secondary_lines(report)
    notes = context_notes(report)
    lines += [*notes, ""] if notes else []
    lines += comparison_lines(report)
    lines += attribution_lines(report)
    lines += [f"warning: {warning['message']}" for warning in report["warnings"]]
    if report["warnings"]:
        lines.append("")
    return [*lines, written_line(files)]


def comparison_lines(report: Report) -> list[str]:
    """One line per comparison on recall at k_ctx (and a baseline's four cells, stale
    gold marked), then the gate's verdicts."""
    key = f"recall@{report['context_k']}"
    lines = []
    pairs = report["comparisons"]["pairs"]
    sections: list[tuple[str, Sequence[Comparison], Sequence[CellsThenNow | None], list[str]]] = [
        ("Runs compared", pairs, [None] * len(pairs), [])
    ]
    if baseline := report["baseline"]:
        lines += [baseline_source_line(report, baseline), ""]
        against = baseline["comparisons"]
        sections.append(
            (
                f"Against baseline {baseline['version']}",
                against,
                [entry["cells"] for entry in against],
                gold_change_lines(baseline),
            )
        )
    for title, entries, then_now, notes in sections:
        if not entries:
            continue
        n = entries[0]["n"]
        moves = fmt(entries[0]["one_question"])
        lines.append(f"{title} ({n} paired questions; one question moves a mean by {moves}):")
        lines += [f"  {note}" for note in notes]
        for entry, entry_cells in zip(entries, then_now, strict=True):
            lines.append(_comparison_line(entry, key))
            floor = noise_floor_note(report, compared_runs(entry))
            if floor:
                lines.append(f"   {floor}")
            cells = cells_line(entry_cells)
            if cells:
                lines.append(f"    {cells}")
        lines.append("")
    gate = report["gate"]
    if gate:
        lines.append(f"Quality gate: {outcome_word(gate['passed'])}")
        whole = [rule for rule in gate["rules"] if not rule.get("slice")]
        sliced = [rule for rule in gate["rules"] if rule.get("slice")]
        lines += [f"  {rule['message']}" for rule in whole]
        lines += [f"  {rule['message']}" for rule in sliced if not rule["passed"]]
        lines += slice_gate_lines(gate, sliced)
        if gate["notice"]:
            lines.append(f"  notice: {gate['notice']}")
        lines.append("")
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
