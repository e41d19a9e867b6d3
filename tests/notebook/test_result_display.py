"""Every result object the API returns shows in a notebook as a short line (its repr,
at most 300 characters) and a small HTML table, not as every field it holds (a
ReportResult's dataclass repr was 19,562 characters for two questions); and the errors
of ``evaluate(..., baseline=...)`` name evaluate's parameters, not the CLI's options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import reportgen
from reportgen.api import (
    LabelImport,
    LabelQueue,
    MergeResult,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    make_report,
)
from reportgen.core.display import REPR_LIMIT
from reportgen.errors import InputError, ParameterError
from reportgen.scale.shard import ShardPlan
from reportgen.site.publish import Published

GOLD = {"q1": ["c1"], "q2": ["c2"], "q3": ["c3"], "q4": ["c4"]}
RUN = {"q1": ["x", "c1"], "q2": ["c2"], "q3": ["x"], "q4": ["x", "y", "c4"]}
HOSTILE = "<script>alert(1)</script>"


def written_report(tmp_path: Path) -> reportgen.api.ReportResult:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"id": q, "gold": c}) + "\n" for q, c in GOLD.items()))
    run = tmp_path / "run.jsonl"
    run.write_text("".join(json.dumps({"id": q, "chunks": c}) + "\n" for q, c in RUN.items()))
    inputs = ReportInputs(gold, [(HOSTILE, run)])
    return make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "out", formats=("json",))))


def check_display(result: object, *expected: str) -> None:
    shown = repr(result)
    assert len(shown) <= REPR_LIMIT, (len(shown), shown)
    assert "\n" not in shown
    for text in expected:
        assert text in shown, (text, shown)
    page = result._repr_html_()  # type: ignore[attr-defined]
    assert page.startswith("<table>") and "<script>" not in page


def test_a_written_report_shows_its_label_runs_gate_and_folder(tmp_path: Path) -> None:
    result = written_report(tmp_path)
    check_display(result, "ReportResult", "questions=4", "gate=not set", "out/")
    assert HOSTILE in repr(result)  # a repr is for Python, the HTML escapes it
    assert "&lt;script&gt;" in result._repr_html_()


def test_results_show_in_one_line() -> None:
    runs = {f"run-{index}": RUN for index in range(12)}
    check_display(reportgen.evaluate(GOLD, runs), "12 run(s)", "+8 more", "4 questions")


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (Published("v2", Path("site/v2"), Path("site/index.html")), "version=v2"),
        (LabelQueue(Path("queue.csv"), "csv", 10, 250, 4, 1), "pairs=10 of 250"),
        (
            LabelImport(Path("g2.jsonl"), "v2", ("q1",) * 900, 3, 5, "a" * 16, "b" * 16, ()),
            "questions_changed=900",
        ),
        (ShardPlan([Path("s/0"), Path("s/1")], "g", {"a": "r"}, None, [2, 2], "f"), "shards=2"),
        (
            MergeResult(
                {"runs": {"a": {}}, "gold": {"questions": 4}},  # type: ignore[typeddict-item]
                [Path("m/report.json")] * 1000,
            ),
            "files=1000",
        ),
    ],
)
def test_every_result_object_shows_short(result: object, expected: str) -> None:
    check_display(result, expected)


def test_a_gold_change_from_evaluate_names_its_parameter() -> None:
    """The CLI says ``pass --on-gold-change intersect``; evaluate has no such option:
    it says on_gold_change='intersect', and that parameter does what it says."""
    before = reportgen.evaluate(GOLD, {"a": RUN})
    grown = {**GOLD, "q5": ["c5"]}
    with pytest.raises(InputError) as refused:
        reportgen.evaluate(grown, {"a": RUN}, baseline=before)
    message = str(refused.value)
    assert "on_gold_change='intersect'" in message and "--" not in message
    after = reportgen.evaluate(grown, {"a": RUN}, baseline=before, on_gold_change="intersect")
    assert set(after.baseline["run"].to_list()) == {"a"}
    with pytest.raises(ParameterError, match="on_gold_change='merge'"):
        reportgen.evaluate(GOLD, {"a": RUN}, on_gold_change="merge")  # type: ignore[arg-type]
