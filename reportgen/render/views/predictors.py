"""What predicts the answers (report.json's ``attribution.<run>`` predictors): the pass
rate by first gold rank with its chart, the AUC of each measure against the verdict, and
the headroom of each fix, for the run the verdicts judge.

The four cells say which failure is larger; this section says how much fixing each is
worth, whether the model uses the gold it gets wherever it sits, and whether the measure
a team gates on tracks its answers at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from reportgen.core.records import dataclass
from reportgen.render.charts import FIRST_GOLD_RANK
from reportgen.render.views.common import Cell, Table, fmt, fmt_interval, plural
from reportgen.schema import Report

ANCHOR = "predictors"
TITLE = "What predicts the answers"
FEW_QUESTIONS = 30
"""Below this many judged questions the section says its estimates are rough."""


@dataclass(frozen=True)
class KindRanks:
    table: Table
    sentence: str | None


@dataclass(frozen=True)
class PredictorsView:
    run: str
    basis: str
    ranks: Table
    trend: str
    svg: Markup | None
    caption: str
    chart_stem: str
    kinds: list[KindRanks]
    association: Table
    association_lines: list[str]
    headroom: Table
    headroom_line: str | None
    cautions: list[str]


def _judged(report: Report) -> tuple[str, Any] | None:
    """The run the verdicts judge and its section, when it carries the predictors."""
    found = next(iter((report.get("attribution") or {}).items()), None)
    if found is None or "headroom" not in found[1]:
        return None
    return found


def _rank_table(ranks: Mapping[str, Any], caption: str) -> Table:
    header = ["first gold rank", "questions", "right", "pass rate", "95% interval"]
    rows = [
        [
            Cell(rank),
            Cell(str(row["n"])),
            Cell(str(row["correct"])),
            Cell(fmt(row["pass_rate"])),
            Cell(fmt_interval(row["interval"])),
        ]
        for rank, row in ranks.items()
    ]
    return Table(caption, header, rows, css="predictors")


def trend_words(trend: Mapping[str, Any], sentence: str | None) -> str:
    """The trend test in one sentence: the falling-pass-rate one, or why there is none."""
    if sentence:
        return sentence
    if trend["p"] is None:
        return f"No trend test: {trend['reason']}."
    return (
        f"The pass rate shows no fall with rank beyond noise (Cochran-Armitage trend test, "
        f"p = {trend['p']:.2g})."
    )


def headroom_line(section: Mapping[str, Any]) -> str | None:
    """``Fixing retrieval: up to +3.2 answers (pass rate 0.74 → 0.80); fixing generation:
    up to +9 (→ 0.92).``: the line beside the four cells, in summary.md and on stdout."""
    headroom = section.get("headroom")
    if not headroom or headroom["generation"]["added"] is None:
        return None
    retrieval, generation = headroom["retrieval"], headroom["generation"]
    now = fmt(headroom["pass_rate"])
    if retrieval["added"] is None:
        fixed = "Fixing retrieval: no estimate (no question had its gold sent)"
    else:
        fixed = (
            f"Fixing retrieval: up to +{_answers(retrieval['added'])} answers "
            f"(pass rate {now} → {fmt(retrieval['pass_rate_after'])})"
        )
    return (
        f"{fixed}; fixing generation: up to +{_answers(generation['added'])} "
        f"(→ {fmt(generation['pass_rate_after'])})."
    )


def _answers(added: float) -> str:
    text = f"{added:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _span(bounds: list[float] | None) -> str:
    """An interval of answers: ``+0.7 to +6.5``."""
    return "" if bounds is None else f"+{_answers(bounds[0])} to +{_answers(bounds[1])}"


def _headroom_table(headroom: Mapping[str, Any]) -> Table:
    header = ["fix", "failures", "answers added (up to)", "95% interval", "pass rate after"]
    header.append("assumes")
    rows = [
        [
            Cell(name),
            Cell(str(fix["failures"])),
            Cell("n/a" if fix["added"] is None else f"+{_answers(fix['added'])}"),
            Cell(_span(fix["added_interval"])),
            Cell(fmt(fix["pass_rate_after"])),
            Cell(fix["assumption"] if fix["reason"] is None else fix["reason"]),
        ]
        for name, fix in (
            ("retrieval", headroom["retrieval"]),
            ("generation", headroom["generation"]),
        )
    ]
    return Table(
        f"What each fix is worth, over {plural(headroom['n'], 'question')}",
        header,
        rows,
        css="predictors",
    )


def _association_table(association: Mapping[str, Any], k: int) -> Table:
    header = ["measure", "questions", "AUC", "95% interval", ""]
    best = association["best"]
    gated = "gated" if association["gated_from"] == "gate" else "headline"
    rows = [
        [
            Cell(key),
            Cell(str(entry["n"])),
            Cell(fmt(entry["auc"]) if entry["auc"] is not None else "n/a", best=key == best),
            Cell(fmt_interval(entry["interval"])),
            Cell(entry["reason"] or (gated if key in association["gated"] else "")),
        ]
        for key, entry in association["measures"].items()
    ]
    return Table(
        f"How well each measure at top {k} tells right answers from wrong (AUC: 0.5 is a "
        "coin toss, 1 separates them)",
        header,
        rows,
    )


def _cautions(section: Mapping[str, Any]) -> list[str]:
    """When not to trust the section: few questions, or one rank holding most of them."""
    cautions = []
    n = section["n"]
    if n < FEW_QUESTIONS:
        cautions.append(
            f"Only {plural(n, 'question')} with a verdict: every estimate here is rough; "
            "read the intervals, not the points."
        )
    ranks = section["by_first_gold_rank"]
    dominant = max(ranks.items(), key=lambda item: item[1]["n"], default=None)
    if n and dominant is not None and dominant[1]["n"] >= 0.8 * n:
        cautions.append(
            f"{dominant[1]['n']} of the {n} questions sit at first gold rank {dominant[0]}: "
            "the other ranks hold too few to show a trend."
        )
    return cautions


def predictors_view(report: Report, charts: Mapping[str, bytes]) -> PredictorsView | None:
    judged = _judged(report)
    if judged is None:
        return None
    run, section = judged
    k = section["k"]
    first = section["first_gold_rank"]
    association = section["association"]
    lines = [line for line in (association["sentence"], association["reason"]) if line]
    lines += association["notes"]
    svg = charts.get(f"{FIRST_GOLD_RANK}.svg")
    return PredictorsView(
        run=run,
        basis=first["note"],
        ranks=_rank_table(
            section["by_first_gold_rank"], f"Pass rate by the rank of the first gold chunk ({run})"
        ),
        trend=trend_words(first["trend"], first["sentence"]),
        svg=None if svg is None else Markup(svg.decode()),
        caption=f"Pass rate by the rank of the first gold chunk sent ({run}); "
        "the bars' lines are 95% intervals.",
        chart_stem=FIRST_GOLD_RANK,
        kinds=[
            KindRanks(
                _rank_table(part["by_first_gold_rank"], f"Pass rate by first gold rank: {kind}"),
                part["sentence"],
            )
            for kind, part in first["by_kind"].items()
        ],
        association=_association_table(association, k),
        association_lines=lines,
        headroom=_headroom_table(section["headroom"]),
        headroom_line=headroom_line(section),
        cautions=_cautions(section),
    )
