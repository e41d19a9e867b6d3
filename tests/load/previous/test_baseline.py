"""Reading a baseline, gold fingerprints, and comparisons across gold-set versions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reportgen.analyse.baseline import GoldChangePolicy
from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportResult,
    ReportSettings,
    make_report,
)
from reportgen.errors import InputError
from reportgen.load import load_gold
from reportgen.load.previous.baseline import find_report, load_baseline

GOLD = [
    {"id": f"q{i}", "kind": "even" if i % 2 == 0 else "odd", "gold": [f"c{i}"]} for i in range(8)
]


def write_gold(path: Path, records: list[dict[str, object]], version: str = "v1") -> Path:
    lines = [json.dumps({"_meta": {"version": version}})]
    lines += [json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n")
    return path


def write_run(path: Path, found: set[str], questions: list[str]) -> Path:
    rows = [{"id": q, "chunks": [f"c{q[1:]}" if q in found else "zz", "yy"]} for q in questions]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def build(
    tmp: Path,
    name: str,
    gold: list[dict[str, object]],
    found: set[str],
    baseline: Path | None = None,
    on_gold_change: GoldChangePolicy = "refuse",
    gold_version: str = "v1",
) -> ReportResult:
    folder = tmp / name
    folder.mkdir()
    gold_path = write_gold(folder / "gold.jsonl", gold, gold_version)
    run = write_run(folder / "m.jsonl", found, [str(r["id"]) for r in gold])
    inputs = ReportInputs(gold_path, [("m", run)], baseline=baseline)
    settings = ReportSettings(version=name, on_gold_change=on_gold_change)
    return make_report(ReportRequest(inputs, ReportOutputs(folder / "out"), settings))


def test_baseline_from_report_folder_and_file(tmp_path: Path) -> None:
    """(A published site as the baseline: test_baseline_site.py.)"""
    build(tmp_path, "one", GOLD, {"q0", "q1"})
    out = tmp_path / "one" / "out"
    assert load_baseline(out).report["version"] == "one"
    assert find_report(out) == (out / "report.json", None)
    columns = load_baseline(out / "report.json").per_question.columns
    assert columns[:4] == ["run", "qid", "kind", "status"]
    assert {"hit@5", "recall@5", "mrr"} <= set(columns[4:])


@pytest.mark.hand_made_reports
@pytest.mark.parametrize(
    ("setup", "problem"),
    [
        (lambda d: None, "no such file or folder"),
        (lambda d: d.mkdir(), "no report.json here"),
        (lambda d: (d.mkdir(), (d / "report.json").write_text("[1]")), "not a reportgen report"),
        (
            lambda d: (d.mkdir(), (d / "history.jsonl").write_text("{oops\n")),
            "history.jsonl:1: not JSON",
        ),
    ],
)
def test_bad_baselines_are_named_with_a_fix(tmp_path: Path, setup, problem: str) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "base"
    setup(target)
    with pytest.raises(InputError, match="Fix:") as error:
        load_baseline(target)
    assert problem in str(error.value)
    assert error.value.exit_code == 2


def test_missing_per_question_values_are_refused(tmp_path: Path) -> None:
    build(tmp_path, "one", GOLD, {"q0"})
    (tmp_path / "one" / "out" / "per_question.csv").unlink()
    with pytest.raises(InputError, match="per-question values are missing"):
        load_baseline(tmp_path / "one" / "out")


def test_fingerprint_ignores_order_and_layout_but_not_content(tmp_path: Path) -> None:
    base = load_gold(write_gold(tmp_path / "a.jsonl", GOLD))
    reordered = tmp_path / "b.jsonl"
    reordered.write_text(
        "\n\n".join(
            json.dumps(r, separators=(" ,", ":  "))
            for r in [*reversed(GOLD), {"_meta": {"version": "v1"}}]
        )
        + "\n"
    )
    assert load_gold(reordered).fingerprint == base.fingerprint
    graded = [dict(GOLD[0], gold={"c0": 2}), *GOLD[1:]]
    assert load_gold(write_gold(tmp_path / "c.jsonl", graded)).fingerprint != base.fingerprint
    extra = [dict(GOLD[0], gold=["c0", "c99"]), *GOLD[1:]]
    assert load_gold(write_gold(tmp_path / "d.jsonl", extra)).fingerprint != base.fingerprint


def _changed_gold() -> list[dict[str, object]]:
    """v2: q7 removed, q8 added, q1's gold chunk changed; the rest as in v1."""
    records = [dict(r) for r in GOLD if r["id"] != "q7"]
    records[1] = dict(records[1], gold=["c1", "c1b"])
    return [*records, {"id": "q8", "kind": "even", "gold": ["c8"]}]


def test_baseline_on_another_gold_set_is_refused(tmp_path: Path) -> None:
    build(tmp_path, "one", GOLD, {"q0", "q1"})
    with pytest.raises(InputError) as error:
        build(
            tmp_path,
            "two",
            _changed_gold(),
            {"q0"},
            baseline=tmp_path / "one" / "out",
            gold_version="v2",
        )
    message = str(error.value)
    assert "measured on gold set v1" in message and "v2" in message
    assert "--on-gold-change intersect" in message
    assert not (tmp_path / "two" / "out").exists()


def test_intersection_measures_both_on_the_unchanged_shared_questions(tmp_path: Path) -> None:
    build(tmp_path, "one", GOLD, {"q0", "q1", "q2", "q3"})
    result = build(
        tmp_path,
        "two",
        _changed_gold(),
        {"q0", "q1", "q2"},
        baseline=tmp_path / "one" / "out",
        on_gold_change="intersect",
        gold_version="v2",
    )
    baseline = result.report["baseline"]
    change = baseline["gold_change"]
    assert change["shared_questions"] == 6  # q0, q2..q6
    assert change["left_out"]["only_in_baseline"] == {
        "count": 1,
        "why": "removed from the gold set since the baseline",
        "examples": ["q7"],
    }
    assert change["left_out"]["only_in_this_report"]["examples"] == ["q8"]
    assert change["left_out"]["changed"]["examples"] == ["q1"]
    entry = baseline["comparisons"][0]
    assert entry["run"] == "m" and entry["n"] == 6
    recall = entry["measures"]["recall@5"]
    # shared: q0, q2..q6; found then q0, q2, q3 (3/6), now q0, q2 (2/6).
    assert recall["before"] == pytest.approx(0.5) and recall["after"] == pytest.approx(1 / 3)
    assert entry["changed_questions"]["recall@5"] == [
        {"qid": "q3", "kind": "odd", "before": 1.0, "after": 0.0}
    ]
    assert baseline["gold"]["fingerprint"] != result.report["gold"]["fingerprint"]
