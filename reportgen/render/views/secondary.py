"""Secondary judgments beside the gold set's numbers (``secondary_judgments``): each run
human-only and with them, then how far they agree with the gold set where both graded."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.render.views.common import Cell, Table, fmt, plural
from reportgen.schema import Report

ANCHOR = "secondary"


@dataclass(frozen=True)
class SecondaryView:
    intro: str
    table: Table
    agreement: str
    matrix: Table | None


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
    intro = (
        f"{plural(section['judgments'], 'secondary judgment')} from {section['source']}"
        f"{f' ({who})' if who else ''}: {plural(section['added'], 'pair')} the gold set does "
        "not grade are added for the second row of each run. The gate, the comparisons and "
        "every other number use the gold set alone."
    )
    if section["outside_gold"]:
        ignored = plural(section["outside_gold"], "judgment")
        intro += f" {ignored} of questions not in the gold set are ignored."
    agreement = section["agreement"]
    if agreement["pairs"] == 0:
        return SecondaryView(intro, Table("With secondary judgments", header, rows),
                             "No pair is graded by both the gold set and the secondary source.",
                             None)  # fmt: skip
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
    return SecondaryView(intro, Table("With secondary judgments", header, rows), text, matrix)


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
    return [*lines, ""]
