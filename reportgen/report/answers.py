"""report.json's sections on the answers: how the verdicts joined the gold set, the four
cells per judged run (``attribution``) and the top-1 score cutoff (``cutoff``).

They read the verdict and cutoff analyses, not the scores: assemble.py lays out the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from reportgen.analyse.attribution import CELLS, Attribution, CellSummary
from reportgen.analyse.cutoff import CutoffAnalysis
from reportgen.analyse.run import Findings
from reportgen.analyse.trials import TrialFindings
from reportgen.schema import rounded
from reportgen.schema.pages import ANSWERABLE, UNANSWERABLE


def _listed(ids: Sequence[str]) -> dict[str, Any]:
    return {"count": len(ids), "ids": list(ids)}


def verdicts_section(findings: Findings) -> dict[str, Any] | None:
    verdicts, attribution = findings.verdicts, findings.attribution
    if verdicts is None or attribution is None:
        return None
    join = attribution.join
    return {
        "source": verdicts.source,
        "format": verdicts.format,
        "run": join.run,
        "k": attribution.k,
        "joined_on": verdicts.join_on,
        "metric": verdicts.metric,
        "threshold": verdicts.threshold,
        "rows": verdicts.rows.height,
        "questions_with_verdict": join.rows.height,
        "gold_without_verdict": _listed(join.gold_without),
        "unknown_questions": _listed(join.unknown_questions),
        "unknown_verdicts": _listed(join.unknown_verdicts),
        "other_runs": list(join.other_runs),
        **trials_section(findings.trials),
    }


def trials_section(trials: TrialFindings | None) -> dict[str, Any]:
    """The judge's trials: one unless ``--verdicts`` was given several times."""
    if trials is None:
        return {
            "trials": 1,
            "flaky": _listed(()),
            "tied": _listed(()),
            "cell_ranges": None,
            "agreement": None,
        }
    agreement = trials.agreement
    return {
        "trials": trials.trials,
        "flaky": _listed(trials.flaky),
        "tied": _listed(trials.tied),
        "cell_ranges": {
            cell: {"min": low, "max": high} for cell, (low, high) in trials.cell_ranges.items()
        },
        "agreement": {
            "questions": agreement.questions,
            "fleiss_kappa": rounded(agreement.fleiss_kappa),
            "unanimous": rounded(agreement.unanimous),
        },
    }


def cells_section(summary: CellSummary) -> dict[str, Any]:
    """A group's four cells, their shares, focus and pass rate (slices use it too)."""
    return {
        "n": summary.n,
        "cells": dict(summary.counts),
        "shares": {cell: rounded(summary.share(cell)) for cell in CELLS},
        "focus": summary.focus,
        "pass_rate": rounded(summary.pass_rate),
    }


def attribution_section(
    attribution: Attribution, stale_cells: dict[str, list[str]]
) -> dict[str, Any]:
    outcomes = {
        outcome: attribution.unanswerable(outcome)
        for outcome in ("declined", "answered", "unknown")
    }
    return {
        "k": attribution.k,
        "rule": attribution.rule,
        "context_source": attribution.context_source,
        "traced_questions": attribution.traced,
        **cells_section(attribution.overall),
        "by_coverage": {
            name: {**split, "pass_rate": rounded(split["pass_rate"])}
            for name, split in attribution.by_coverage.items()
        },
        "questions": {cell: list(ids) for cell, ids in attribution.overall.questions.items()},
        "stale": stale_cells,
        "stale_count": sum(len(ids) for ids in stale_cells.values()),
        "by_kind": {kind: cells_section(summary) for kind, summary in attribution.by_kind.items()},
        "unanswerable": {
            **{outcome: len(ids) for outcome, ids in outcomes.items()},
            "questions": outcomes,
        },
    }


def _range(values: pl.Series) -> dict[str, Any]:
    empty = values.len() == 0
    return {
        "n": values.len(),
        "min": None if empty else rounded(values.min()),  # type: ignore[arg-type]
        "max": None if empty else rounded(values.max()),  # type: ignore[arg-type]
    }


def cutoff_section(analysis: CutoffAnalysis) -> dict[str, Any]:
    found = analysis.cutoff is not None
    return {
        "gap": None if analysis.gap is None else [rounded(v) for v in analysis.gap],
        "cutoff": rounded(analysis.cutoff),
        "errors": {
            "answered_unanswerable": len(analysis.answered_unanswerable),
            "declined_answerable": len(analysis.declined_answerable),
        }
        if found
        else None,
        "rule": "answer when the top-1 score is at least the cutoff, else decline",
        "overlap": None if analysis.overlap is None else [rounded(v) for v in analysis.overlap],
        "reason": analysis.reason,
        "answerable": _range(analysis.group(ANSWERABLE)),
        "unanswerable": _range(analysis.group(UNANSWERABLE)),
        "unscored": analysis.unscored,
        "questions": {
            "answered_unanswerable": list(analysis.answered_unanswerable),
            "declined_answerable": list(analysis.declined_answerable),
            "in_overlap": {
                ANSWERABLE: analysis.in_overlap(ANSWERABLE),
                UNANSWERABLE: analysis.in_overlap(UNANSWERABLE),
            },
        },
    }
