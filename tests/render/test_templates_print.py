"""Templates print what the views decided: no class, wording or placeholder made there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reportgen.analyse.compare import label
from reportgen.core.model import outcome_word
from reportgen.render.cells import ADVICE, CELL_NAMES, FOCUS_CELL
from reportgen.render.views.common import VERDICT_CLASSES, Cell, Table, verdict_class
from reportgen.render.views.first_screen import GateView, overall_verdict

TEMPLATES = sorted((Path(__file__).parents[2] / "templates").glob("*.j2"))


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_no_template_decides_a_class_a_gate_word_or_a_placeholder(template: Path) -> None:
    text = template.read_text()
    code = " ".join(re.findall(r"\{[{%](.*?)[}%]\}", text))
    assert "|replace(" not in code, "a CSS class made from display text"
    assert not re.search(r"['\"](passed|FAILED|gate-passed|gate-failed)['\"]", code)
    assert not re.search(r"else ['\"]none['\"]", code), "a placeholder chosen in a template"
    assert "style=" not in text, "an inline style: give the element a class in report.css"
    assert "<table" not in text or template.name in {
        "_table.html.j2",
        "_first_screen.html.j2",  # the 2x2 of the four cells
        "_hygiene.html.j2",  # stale gold ids: two text columns
        "_drilldown.html.j2",  # chunk text with the evidence marked inside its cells
        "_questions.html.j2",  # the questions, with ranked lists in cells
        "_transitions.html.j2",  # the transitions matrix, with row and column totals
        "site_index.html.j2",  # the versions, with links
    }


def test_one_table_partial_per_format() -> None:
    names = {path.name for path in TEMPLATES}
    assert {"_table.html.j2", "_table.md.j2"} <= names
    for name in ("_comparisons.html.j2", "_comparisons.md.j2"):
        text = next(path for path in TEMPLATES if path.name == name).read_text()
        assert "_table." in text and "<table" not in text and "---" not in text


def test_every_comparison_label_has_a_class() -> None:
    labels = {
        label(p, low, high, mde)
        for p, low, high, mde in [
            (0.01, 0.1, 0.2, 0.1),
            (0.01, -0.2, -0.1, 0.1),
            (0.5, -1, 1, 0.1),
            (None, None, None, 0.1),
            (0.5, -1, 1, None),
        ]
    }
    labels |= {overall_verdict(["better", "worse"]), ""}
    assert labels == set(VERDICT_CLASSES)
    assert verdict_class("within noise") == "verdict-within-noise"
    assert verdict_class("too few questions", "moved") == "moved-too-few"
    assert verdict_class("", "moved") == "moved-none"


def test_gate_words_come_from_one_place() -> None:
    passed = GateView(True, "t", [], ["a", "b"], None)
    failed = GateView(False, "t", ["x"] * 5, [], None)
    assert outcome_word(True) == "passed" and outcome_word(False) == "FAILED"
    assert (passed.css, passed.mark, passed.passed_summary) == ("gate gate-passed", "✓", "2 passed")
    assert (failed.css, failed.mark, failed.badge) == ("gate gate-failed", "✗", "❌")
    assert failed.folded_summary == "2 more failed"


def test_cells_and_advice_have_one_source() -> None:
    assert list(CELL_NAMES) == [
        "retrieved_correct",
        "retrieved_wrong",
        "missed_correct",
        "missed_wrong",
    ]
    assert set(FOCUS_CELL) == set(ADVICE) == {"generation", "retrieval"}


def test_table_and_cell_classes() -> None:
    table = Table("c", ["a"], [[Cell("x", best=True), Cell("y", css="verdict verdict-worse")]])
    assert table.sortable and not Table("c", [], [], css="comparison").sortable
    assert [cell.classes for cell in table.rows[0]] == ["best", "verdict verdict-worse"]
