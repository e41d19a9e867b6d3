"""Does the PPI interval keep its promise? Simulated judges and audits (simulation.py):
the held-out check of issue 43, and docs/gold.md's table, recomputed and compared."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

import pytest

from tests.analyse.ppi.simulation import one_draw

DOC = Path(__file__).resolve().parents[3] / "docs" / "gold.md"
QUESTIONS = 300
DRAWS = 100
ERROR_RATES = (0.05, 0.15, 0.30)
AUDITS = (30, 60, 120)


@pytest.mark.slow
def test_held_out_check():
    # 300 questions, an audit of 60, a judge wrong on 15% of relevant and 8% of
    # non-relevant pairs: 30 draws of recall@5
    draws = [one_draw(300, 60, 0.15, 0.08, seed) for seed in range(1000, 1030)]
    assert sum(d.covers for d in draws) / 30 >= 0.85
    assert sum(d.narrower for d in draws) / 30 >= 0.8


def table_row(rate: float, audit: int) -> str:
    """One row of docs/gold.md's table: coverage and mean width of the PPI interval, the
    gold-set-only interval's width, and the judge-only mean's bias, over DRAWS draws."""
    draws = [one_draw(QUESTIONS, audit, rate, rate, seed) for seed in range(DRAWS)]
    coverage = sum(d.covers for d in draws) / DRAWS
    width = statistics.mean(d.ci_high - d.ci_low for d in draws)
    human = statistics.mean(d.human_high - d.human_low for d in draws)
    return f"| {rate:.0%} | {audit} | {coverage:.2f} | {width:.3f} | {human:.3f} |"


def documented_rows() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if re.match(r"\| \d+% \| \d+ \|", line)]


@pytest.mark.slow
@pytest.mark.parametrize("rate", ERROR_RATES)
def test_docs_simulation_table(rate: float):
    rows = [table_row(rate, audit) for audit in AUDITS]
    documented = [row for row in documented_rows() if row.startswith(f"| {rate:.0%} |")]
    assert documented == rows, "docs/gold.md's PPI table: replace its rows with\n" + "\n".join(rows)
    for row in rows:
        coverage = float(row.split("|")[3])
        assert coverage >= 0.88, row
