"""Secondary judgments beside the gold set's numbers (``secondary_judgments``): each run
human-only and with them, then how far they agree with the gold set where both graded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reportgen.core.records import dataclass
from reportgen.render.views.common import Cell, Table, fmt, plural
from reportgen.schema import Report

ANCHOR = "secondary"


@dataclass(frozen=True)
class SecondaryView:
    intro: str
    table: Table
    agreement: str
    matrix: Table | None
    ppi_intro: str | None = None
    ppi: Table | None = None
    """Prediction-powered means beside the judge-only and the gold-set-only ones."""
    ppi_comparisons: Table | None = None


def secondary_view(report: Report) -> SecondaryView | None:
    """The tables of --judgments; None without them."""
    section = report.get("secondary_judgments")
    if not section:
        return None
    keys = section["measures"]
    header = ["run", "numbers", *keys]
    rows = []
    for name, means in section["runs"].items():
        for label, values in (("gold set (gated)", means["human"]),
                              ("+ secondary", means["with_secondary"])):  # fmt: skip
            rows.append([Cell(name), Cell(label), *[Cell(fmt(values[key])) for key in keys]])
    who = ", ".join(
        part
        for part in (
            "sources " + ", ".join(section["sources"]) if section["sources"] else "",
            "models " + ", ".join(section["models"]) if section["models"] else "",
            "prompt hashes " + ", ".join(section["prompt_hashes"])
            if section["prompt_hashes"]
            else "",
        )
        if part
    )
    ppi_estimate = section.get("estimate") == "ppi"
    uses = (
        "The gate reads the prediction-powered means below (--estimate ppi), and the runs "
        "are compared by them after the table; the Comparisons section and every other "
        "number use the gold set alone."
        if ppi_estimate
        else "The gate, the comparisons and every other number use the gold set alone."
    )
    intro = (
        f"{plural(section['judgments'], 'secondary judgment')} from {section['source']}"
        f"{f' ({who})' if who else ''}: {plural(section['added'], 'pair')} the gold set does "
        f"not grade are added for the second row of each run. {uses}"
    )
    if section["outside_gold"]:
        ignored = plural(section["outside_gold"], "judgment")
        where = " here (the prediction-powered means use them)" if "ppi" in section else ""
        intro += f" {ignored} of questions not in the gold set are ignored{where}."
    ppi_parts = ppi_tables(section)
    agreement = section["agreement"]
    if agreement["pairs"] == 0:
        return SecondaryView(intro, Table("With secondary judgments", header, rows),
                             "No pair is graded by both the gold set and the secondary source.",
                             None, *ppi_parts)  # fmt: skip
    kappa = "n/a" if agreement["kappa"] is None else f"{agreement['kappa']:.3f}"
    text = (
        f"Where both graded a pair ({plural(agreement['pairs'], 'pair')}): Cohen's kappa "
        f"{kappa}. Rows: the gold set's grade; columns: the secondary grade."
    )
    labels = [str(label) for label in agreement["labels"]]
    matrix = Table(
        "Agreement (confusion matrix)",
        ["gold \\ secondary", *labels],
        [
            [Cell(label), *[Cell(str(n)) for n in counts]]
            for label, counts in zip(labels, agreement["matrix"], strict=True)
        ],
    )
    table = Table("With secondary judgments", header, rows)
    return SecondaryView(intro, table, text, matrix, *ppi_parts)


def _interval(entry: Mapping[str, Any]) -> str:
    clipped = " (cut to the range)" if entry["clipped"] else ""
    return f"{fmt(entry['ci_low'])} to {fmt(entry['ci_high'])}{clipped}"


def ppi_tables(section: Mapping[str, Any]) -> tuple[str | None, Table | None, Table | None]:
    """The prediction-powered part: what the audit is, the PPI means, and (--estimate
    ppi) the comparisons by the same estimator; Nones without it."""
    if "ppi" not in section:
        return None, None, None
    audit = section["audit"]
    sample = audit["sample"]
    drawn = (
        f"drawn as sample {sample['size']} of {sample['population']}, seed {sample['seed']}"
        if sample
        else "not marked as a random sample"
    )
    kappa = "n/a" if audit["kappa"] is None else f"{audit['kappa']:.3f}"
    intro = (
        f"Prediction-powered means: the judge's grades over its {audit['judge_questions']} "
        f"questions, corrected by the gold set as a human audit of {audit['questions']} of "
        f"them ({drawn}; Cohen's kappa {kappa} on {plural(audit['pairs'], 'audited pair')}). "
        "The judge-only mean is biased by its errors; the gold-set-only mean is unbiased but "
        "wide. A question with nothing relevant counts as trec_eval scores it (0; nDCG's "
        "gains below the relevance threshold still count), in every column."
    )
    if audit["guards"]:
        intro += " Not to be trusted yet: " + " ".join(g["message"] for g in audit["guards"])
    rows = [
        [
            Cell(run),
            Cell(key),
            Cell(fmt(entry["estimate"])),
            Cell(_interval(entry)),
            Cell(fmt(entry["judge_only"])),
            Cell(fmt(entry["human_only"])),
            Cell(f"{entry['n_human']} / {entry['n_all']}"),
        ]
        for run, measures in section["ppi"].items()
        for key, entry in measures.items()
    ]
    header = ["run", "measure", "prediction-powered", "95% interval", "judge only (biased)",
              "gold set only", "audited / all"]  # fmt: skip
    table = Table("Prediction-powered means", header, rows)
    compared = section.get("ppi_comparisons")
    if not compared:
        return intro, table, None
    pairs = [
        [
            Cell(f"{pair['before']} -> {pair['after']}"),
            Cell(key),
            Cell(fmt(entry["estimate"])),
            Cell(_interval(entry)),
            Cell(f"{entry['p_holm']:.3g}"),
            Cell(fmt(entry["mde"])),
            Cell(entry["label"]),
        ]
        for pair in compared["pairs"]
        for key, entry in pair["measures"].items()
    ]
    header = ["runs", "measure", "difference (ppi)", "95% interval", "p (Holm)", "mde", "label"]
    return intro, table, Table("Comparisons by the prediction-powered estimate", header, pairs)


def secondary_lines(report: Report) -> list[str]:
    """The terminal's lines: each run's headline measure, human-only and with them."""
    section = report.get("secondary_judgments")
    if not section:
        return []
    key = section["measures"][1]  # recall@k_ctx
    lines = [f"Secondary judgments ({section['source']}), {key}: gold set -> with them"]
    for name, means in section["runs"].items():
        lines.append(f"  {name}: {fmt(means['human'][key])} -> {fmt(means['with_secondary'][key])}")
    kappa = section["agreement"]["kappa"]
    lines.append(
        f"  agreement with the gold set on {plural(section['agreement']['pairs'], 'pair')}: "
        f"Cohen's kappa {'n/a' if kappa is None else f'{kappa:.3f}'}"
    )
    if "ppi" in section:
        audit = section["audit"]
        lines.append(
            f"Prediction-powered {key} (the judge over {audit['judge_questions']} questions, "
            f"an audit of {audit['questions']}; the gate reads "
            f"{'these' if section.get('estimate') == 'ppi' else 'the gold set'}):"
        )
        for name, measures in section["ppi"].items():
            entry = measures[key]
            lines.append(
                f"  {name}: {fmt(entry['estimate'])} ({_interval(entry)}); judge only "
                f"{fmt(entry['judge_only'])}, gold set only {fmt(entry['human_only'])}"
            )
        lines += [f"  warning: {guard['message']}" for guard in audit["guards"]]
        compared = section.get("ppi_comparisons")
        for pair in compared["pairs"] if compared else []:
            change = pair["measures"][key]
            lines.append(
                f"  {pair['before']} -> {pair['after']}: {key} {fmt(change['estimate'])} "
                f"({_interval(change)}, Holm p {change['p_holm']:.3g}): {change['label']} "
                "(prediction-powered)"
            )
    return [*lines, ""]
