"""The four cells of the run with verdicts (SPEC.md, "The four cells"), and the sentence
that says where the next week of work goes."""

from __future__ import annotations

from reportgen.core.records import dataclass
from reportgen.render.cells import CELL_NAMES, FOCUS_CELL, advice_sentence
from reportgen.render.views.common import Cell, Table, fmt, fmt_share, plural
from reportgen.render.views.predictors import headroom_line
from reportgen.render.views.trials import ranges_line, trials_line
from reportgen.schema import (
    AttributionSection,
    Cells,
    CoverageSplit,
    Outcome,
    Report,
    VerdictsSection,
)

COVERAGE_NAMES = {
    "all": "all of its gold sent",
    "some": "some of its gold sent",
    "none": "none of its gold sent",
}


def conclusion(summary: Cells) -> str:
    """The plain sentence that says where the next week of work goes (SPEC.md)."""
    cells = summary["cells"]
    generation, retrieval = cells["retrieved_wrong"], cells["missed_wrong"]
    focus = summary["focus"]
    if summary["n"] == 0:
        return "No answerable question has a verdict, so no failure can be located."
    if focus == "generation":
        return (
            f"Generation failures are the larger failure cell ({generation} vs {retrieval} "
            "retrieval failures): the model had the passage and did not use it. "
            + advice_sentence("generation")
        )
    if focus == "retrieval":
        return (
            f"Retrieval failures are the larger failure cell ({retrieval} vs {generation} "
            "generation failures): the evidence never reached the model, and no prompt can "
            "fix that. " + advice_sentence("retrieval")
        )
    if focus == "tie":
        return (
            f"Generation and retrieval failures are tied ({generation} each): neither stage "
            "is the clear culprit; look at the questions of both cells before choosing."
        )
    return "No judged answer is wrong: neither stage shows a failure on these questions."


def pass_rate_note(summary: Cells) -> str:
    cells = summary["cells"]
    right = cells["retrieved_correct"] + cells["missed_correct"]
    return (
        f"End-to-end pass rate {fmt(summary['pass_rate'])} ({right} of {summary['n']}). "
        "It counts right answers whichever stage did the work, so it cannot tell the "
        f"{plural(cells['retrieved_wrong'], 'generation failure')} from the "
        f"{plural(cells['missed_wrong'], 'retrieval failure')}."
    )


STALE_MARK = " (stale gold)"


def marked_ids(ids: list[str], stale: list[str]) -> list[str]:
    """The cell's ids, those whose gold ids the index no longer holds marked as such."""
    flagged = set(stale)
    return [f"{qid}{STALE_MARK}" if qid in flagged else qid for qid in ids]


def with_stale(count: int | str, stale: int) -> str:
    """A cell's count, and how many of its questions have stale gold ids, if any."""
    return f"{count} ({stale} with stale gold)" if stale else str(count)


def stale_note(section: AttributionSection) -> str | None:
    """The sentence under the table when retrieval failures rest on stale gold ids."""
    stale = len(section["stale"]["missed_wrong"])
    if not stale:
        return None
    failures = section["cells"]["missed_wrong"]
    has = "has" if stale == 1 else "have"
    return (
        f"{stale} of the {plural(failures, 'retrieval failure')} {has} stale gold ids: "
        "fix the gold set before blaming search."
    )


def row_headers(section: AttributionSection) -> tuple[str, str]:
    """The four cells' row headers, retrieved and missed, in the words of the rule used."""
    every = section["rule"] == "all"
    if section["context_source"] == "trace":
        if every:
            return "all gold in the context sent", "not all gold in the context sent"
        return "gold in the context sent", "no gold in the context sent"
    k = section["k"]
    if every:
        return f"all gold retrieved (recall@{k} = 1)", "not all gold retrieved"
    return f"gold retrieved (hit@{k} = 1)", "gold not retrieved"


def sent_words(section: AttributionSection) -> str:
    """Which chunks reached the model: ``top 5`` or the trace's context."""
    if section["context_source"] == "trace":
        return "the chunks the trace says were sent"
    return f"top {section['k']}"


def rule_note(section: AttributionSection) -> str:
    """What "retrieved" means here, and where the chunks sent came from."""
    sent = sent_words(section)
    if section["context_source"] != "trace":
        sent = f"the {sent} chunks"
    if section["rule"] == "all":
        note = f"Retrieved: every relevant gold chunk among {sent} (--retrieved-when all)."
    else:
        note = (
            f"Retrieved: at least one relevant gold chunk among {sent} (--retrieved-when "
            "any; all asks for every one)."
        )
    untraced = section["n"] - section["traced_questions"]
    if section["context_source"] == "trace" and untraced > 0:
        note += (
            f" {plural(untraced, 'question')} of the cells had no context in the trace: "
            f"their top {section['k']} counts as sent."
        )
    return note


def splits(section: AttributionSection) -> list[tuple[str, CoverageSplit]]:
    """The coverage split's rows in order: all, some, none."""
    split = section["by_coverage"]
    return [("all", split["all"]), ("some", split["some"]), ("none", split["none"])]


def coverage_words(section: AttributionSection) -> str:
    """The pass rate split by coverage in one sentence (terminal, summary.md)."""
    parts = [
        f"{name} {fmt(row['pass_rate'])} ({row['correct']} of {row['questions']})"
        for name, row in splits(section)
    ]
    return "Pass rate when all, some or none of the gold was sent: " + ", ".join(parts) + "."


def coverage_table(section: AttributionSection) -> Table:
    """The pass rate by how much of each question's gold reached the model."""
    rows = [
        [
            Cell(COVERAGE_NAMES[name]),
            Cell(str(row["questions"])),
            Cell(str(row["correct"])),
            Cell(fmt(row["pass_rate"])),
        ]
        for name, row in splits(section)
    ]
    return Table(
        "Pass rate by how much of the gold reached the model (questions with one gold "
        "chunk are all or none)",
        ["gold sent", "questions", "correct", "pass rate"],
        rows,
    )


def other_runs_table(report: Report) -> Table | None:
    """The four cells and the coverage split of every run with verdicts after the first."""
    others = list(report["attribution"].items())[1:]
    if not others:
        return None
    header = [
        "run",
        *CELL_NAMES.values(),
        "pass rate",
        *[f"pass rate, {name} gold sent" for name in ("all", "some", "no")],
    ]
    rows = [
        [
            Cell(run),
            *[Cell(str(section["cells"][key])) for key in CELL_NAMES],
            Cell(fmt(section["pass_rate"])),
            *[Cell(fmt(row["pass_rate"])) for _, row in splits(section)],
        ]
        for run, section in others
    ]
    return Table("The other runs with verdicts, same rule", header, rows)


@dataclass(frozen=True)
class CellView:
    key: str
    label: str
    count: str
    share: str
    ids: list[str]
    focus: bool
    """The larger failure cell: labelled in text, not only by colour."""
    stale: int = 0
    """How many of its questions have stale gold ids."""

    @property
    def ids_text(self) -> str:
        return ", ".join(self.ids) or "none"


@dataclass(frozen=True)
class AttributionView:
    run: str
    k: int
    sent: str
    """Which chunks reached the model, for captions: ``top 5`` or the trace's."""
    rows: list[tuple[str, list[CellView]]]
    """The 2x2: (row header, [correct cell, wrong cell])."""
    pass_rate: str
    conclusion: str
    stale_note: str | None
    kinds: Table
    unanswerable: Table
    join: list[str]
    rule_note: str
    coverage: Table
    other_runs: Table | None
    trials: str = ""
    """The judge's trials in one line (empty for one trial)."""


def _cell_views(section: AttributionSection) -> dict[str, CellView]:
    focus_cell = FOCUS_CELL.get(section["focus"])
    stale = section["stale"]
    return {
        key: CellView(
            key=key,
            label=CELL_NAMES[key],
            count=str(section["cells"][key]),
            share=fmt_share(section["shares"][key]),
            ids=marked_ids(section["questions"][key], stale[key]),
            focus=key == focus_cell,
            stale=len(stale[key]),
        )
        for key in CELL_NAMES
    }


def _kinds_table(section: AttributionSection) -> Table:
    header = ["kind", "n", *CELL_NAMES.values(), "pass rate", "larger failure"]
    rows = [
        [
            Cell(kind),
            Cell(str(values["n"])),
            *[Cell(str(values["cells"][key])) for key in CELL_NAMES],
            Cell(fmt(values["pass_rate"])),
            Cell(values["focus"]),
        ]
        for kind, values in section["by_kind"].items()
    ]
    return Table(f"The four cells by kind, top {section['k']}", header, rows)


def _unanswerable_table(section: AttributionSection) -> Table:
    outcomes = section["unanswerable"]
    labels: dict[Outcome, str] = {
        "declined": "declined correctly",
        "answered": "answered anyway (wrong)",
        "unknown": "unknown",
    }
    rows = [
        [Cell(label), Cell(str(outcomes[key])), Cell(", ".join(outcomes["questions"][key]))]
        for key, label in labels.items()
        if key != "unknown" or outcomes[key]
    ]
    return Table("Unanswerable questions (not in the cells)", ["outcome", "n", "questions"], rows)


def _join_lines(
    verdicts: VerdictsSection, section: AttributionSection, report_runs: list[str]
) -> list[str]:
    joined = (
        "by question id"
        if verdicts["joined_on"] == "id"
        else "by question text (the file has no id column)"
    )
    lines = [
        f"Verdicts: {verdicts['source']} ({verdicts['format']}), for run {verdicts['run']} "
        + (
            "with the chunks its trace says were sent to the model"
            if section["context_source"] == "trace"
            else f"with its top {verdicts['k']} chunks sent to the model"
        )
        + f"; joined {joined}.",
    ]
    if verdicts["metric"] is not None:
        rule = f"{verdicts['metric']}"
        if verdicts["threshold"] is not None:
            rule += f" ≥ {verdicts['threshold']:g} counts as correct"
        else:
            rule += "'s own success counts as correct"
        lines.append(f"Verdict rule: {rule}.")
    judged = verdicts["questions_with_verdict"]
    lines.append(
        f"{plural(judged, 'gold question')} {'has' if judged == 1 else 'have'} a verdict "
        f"({section['n']} answerable in the cells, "
        f"{sum(section['unanswerable'][k] for k in ('declined', 'answered', 'unknown'))} "
        "unanswerable)."
    )
    for listed, noun, nouns, rest in (
        (verdicts["gold_without_verdict"], "gold question", "gold questions", "without a verdict"),
        (
            verdicts["unknown_verdicts"],
            "verdict",
            "verdicts",
            "unknown (the eval errored or left it empty)",
        ),
        (
            verdicts["unknown_questions"],
            "verdict",
            "verdicts",
            "for questions not in the gold set (ignored)",
        ),
    ):
        ids = f": {', '.join(listed['ids'])}" if listed["ids"] else ""
        lines.append(f"{plural(listed['count'], noun, nouns)} {rest}{ids}.")
    if verdicts.get("trials", 1) > 1:
        lines.append(ranges_line(verdicts))
    unshown = [run for run in verdicts["other_runs"] if run not in report_runs]
    if unshown:
        lines.append(f"The file also judges run(s) {', '.join(unshown)}: not shown.")
    return lines


def attribution_view(report: Report) -> AttributionView | None:
    if not report["attribution"] or report["verdicts"] is None:
        return None
    run, section = next(iter(report["attribution"].items()))
    cells = _cell_views(section)
    k = section["k"]
    retrieved, missed = row_headers(section)
    return AttributionView(
        run=run,
        k=k,
        sent=sent_words(section),
        rows=[
            (retrieved, [cells["retrieved_correct"], cells["retrieved_wrong"]]),
            (missed, [cells["missed_correct"], cells["missed_wrong"]]),
        ],
        pass_rate=pass_rate_note(section),
        conclusion=conclusion(section),
        stale_note=stale_note(section),
        kinds=_kinds_table(section),
        unanswerable=_unanswerable_table(section),
        join=_join_lines(report["verdicts"], section, list(report["attribution"])),
        rule_note=rule_note(section),
        coverage=coverage_table(section),
        other_runs=other_runs_table(report),
        trials=trials_line(report["verdicts"]),
    )


def attribution_lines(report: Report, verbose: bool = True) -> list[str]:
    """The four cells in a few terminal lines, for the CLI's summary; the definition of
    "retrieved" only with ``verbose``."""
    view = attribution_view(report)
    if view is None:
        return []
    counts = ", ".join(
        f"{cell.label} {with_stale(cell.count, cell.stale)}" for _, row in view.rows for cell in row
    )
    where = f"at {view.sent}" if view.sent.startswith("top") else f"with {view.sent}"
    lines = [f"{view.run}, four cells {where}: {counts}."]
    lines += [view.trials] if view.trials else []
    if verbose:
        lines.append(view.rule_note)
    lines += [coverage_words(report["attribution"][view.run]), view.conclusion]
    lines += filter(None, [headroom_line(report["attribution"][view.run])])
    return [*lines, view.stale_note] if view.stale_note else lines
