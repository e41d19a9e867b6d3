"""docs/predictors.md: its trace file, run through the command line, gives the numbers the
page works out by hand (pass rates by first gold rank, the Cochran-Armitage z and p, the
AUCs, the headroom)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from tests.docs.test_docs_pages import DOCS, write_files

PAGE = "predictors.md"


def test_the_hand_worked_numbers_are_the_report_s(tmp_path: Path) -> None:
    (trace,) = write_files(PAGE, tmp_path)
    out = tmp_path / "out"
    args = ["report", str(trace), "--context-k", "3", "--k", "1,3", "--out", str(out)]
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    section = json.loads((out / "report.json").read_text())["attribution"]["rag"]
    text = (DOCS / PAGE).read_text()

    ranks = {r: (row["n"], row["correct"]) for r, row in section["by_first_gold_rank"].items()}
    assert ranks == {"1": (4, 3), "2": (2, 1), "3": (2, 0), "none": (2, 1)}
    assert "| 1 | 4 | 3 | 0.75 |" in text and "| none | 2 | 1 | 0.50 |" in text
    low, high = section["by_first_gold_rank"]["1"]["interval"]
    assert f"rank 1: {low:.2f} to {high:.2f}" in text

    # T = -2, Var T = 1.375: the page's arithmetic, then the report's
    z = -2 / math.sqrt(0.25 * (30 - 14**2 / 8))
    trend = section["first_gold_rank"]["trend"]
    assert trend["z"] == pytest.approx(z, abs=1e-9)
    minus = "\N{MINUS SIGN}"  # the page prints a typographic minus
    assert f"z = {minus}2 / √1.375 = {z:.3f}".replace("-", minus) in text
    assert f"two-sided p = {trend['p']:.3f}" in text
    assert not trend["falls"] and section["first_gold_rank"]["sentence"] is None

    measures = section["association"]["measures"]
    for key, hand in (("recall@3", (12 + 2 + 0.5) / 25), ("hit@3", 0.5), ("mrr@3", 17.5 / 25)):
        assert measures[key]["auc"] == pytest.approx(hand, abs=1e-9), key
    assert "AUC = (12 + 2 + 0.5) / 25 = **0.58**" in text
    recall_note = next(n for n in section["association"]["notes"] if n.startswith("recall@3"))
    assert recall_note in text

    headroom = section["headroom"]
    assert headroom["retrieval"]["added"] == pytest.approx(1 * 4 / 8)
    assert headroom["retrieval"]["pass_rate_after"] == pytest.approx((5 + 0.5) / 10)
    assert headroom["generation"]["added"] == 4
    assert headroom["generation"]["pass_rate_after"] == pytest.approx(0.9)
    assert "Fixing retrieval: up to +0.5 answers (pass rate 0.500 → 0.550)" in text
    assert "Fixing retrieval: up to +0.5 answers (pass rate 0.500 → 0.550)" in result.output
