"""The four cells (SPEC.md): the worked 31/9/4/6 case, a tie, partial verdicts, the demo,
and the same numbers in report.json, the HTML and the Markdown."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from reportgen.analyse.attribution import choose_run
from reportgen.analyse.run import AnalysisOptions, Findings, run_analyses
from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    demo_request,
    make_report,
)
from reportgen.errors import UsageError
from reportgen.load import load_gold, load_run, load_verdicts
from reportgen.measure.scoring import Settings, evaluate
from tests.collects import counting_collects

K = 5


def qids(first: int, last: int) -> list[str]:
    return [f"q{i:02d}" for i in range(first, last + 1)]


RETRIEVED_CORRECT = qids(1, 31)
RETRIEVED_WRONG = qids(32, 40)
MISSED_CORRECT = qids(41, 44)
MISSED_WRONG = qids(45, 50)


def ranked(qid: str) -> list[str]:
    """Gold at rank 1; at rank 5 (the edge of k_ctx) for the generation failures; at
    rank 6 (just outside) for answers from memory; absent for retrieval failures."""
    noise = [f"{qid}-x{i}" for i in range(1, 8)]
    if qid in RETRIEVED_WRONG:
        return [*noise[:4], f"{qid}-gold", *noise[4:]]
    if qid in MISSED_CORRECT:
        return [*noise[:5], f"{qid}-gold", *noise[5:]]
    if qid in MISSED_WRONG:
        return noise
    return [f"{qid}-gold", *noise]


Files = tuple[Path, Path, Path]


def write_case(
    folder: Path,
    verdicts: dict[str, dict[str, Any]] | None = None,
    extra: list[dict[str, Any]] | None = None,
) -> Files:
    """SPEC.md's 50 answerable questions (q01-q25 plain, q26-q50 table) and two
    unanswerable ones: u1 declined, u2 answered anyway."""
    answerable = qids(1, 50)
    gold = [
        {"id": q, "kind": "plain" if q <= "q25" else "table", "gold": [f"{q}-gold"]}
        for q in answerable
    ] + [{"id": u, "kind": "none", "unanswerable": True} for u in ("u1", "u2")]
    run = [{"id": q, "chunks": ranked(q)} for q in answerable] + [
        {"id": u, "chunks": [f"{u}-x1", f"{u}-x2"]} for u in ("u1", "u2")
    ]
    if verdicts is None:
        verdicts = {
            q: {"correct": q in RETRIEVED_CORRECT or q in MISSED_CORRECT} for q in answerable
        }
        verdicts["u1"] = {"correct": True, "abstained": True}
        verdicts["u2"] = {"correct": False, "abstained": False}
    records = [{"id": q, **v} for q, v in verdicts.items()] + (extra or [])
    paths = (folder / "gold.jsonl", folder / "run.jsonl", folder / "verdicts.jsonl")
    for path, lines in zip(paths, (gold, run, records), strict=True):
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return paths


def evaluated(files: Files, run: str | None = None) -> Findings:
    gold, run_path, verdicts = files
    evaluation = evaluate(
        load_gold(gold), [load_run(run_path, "rag")], Settings(ks=(1, K), context_k=K)
    )
    options = AnalysisOptions(verdicts=load_verdicts(verdicts), verdicts_run=run)
    return run_analyses(evaluation, options, version="t")


def test_spec_worked_example_31_9_4_6(tmp_path: Path) -> None:
    attribution = evaluated(write_case(tmp_path)).attribution
    assert attribution is not None and attribution.k == K
    overall = attribution.overall
    assert overall.counts == {
        "retrieved_correct": 31,
        "retrieved_wrong": 9,
        "missed_correct": 4,
        "missed_wrong": 6,
    }
    assert overall.questions["retrieved_wrong"] == RETRIEVED_WRONG
    assert overall.questions["missed_correct"] == MISSED_CORRECT
    assert overall.n == 50
    assert overall.pass_rate == pytest.approx(0.70)  # (31 + 4) / 50
    assert overall.share("retrieved_wrong") == pytest.approx(0.18)  # 9 / 50
    assert overall.focus == "generation"  # 9 > 6
    # plain: q01-q25 all retrieved and right; table: 6 / 9 / 4 / 6, pass (6 + 4) / 25
    assert attribution.by_kind["plain"].counts["retrieved_correct"] == 25
    assert attribution.by_kind["plain"].focus == "none"
    table = attribution.by_kind["table"]
    assert list(table.counts.values()) == [6, 9, 4, 6]
    assert table.pass_rate == pytest.approx(0.4)
    assert "none" not in attribution.by_kind  # unanswerable ones stay out of the cells
    assert attribution.unanswerable("declined") == ["u1"]
    assert attribution.unanswerable("answered") == ["u2"]


def test_the_cells_collect_four_times_however_many_kinds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the verdicts matched, the questions sorted into cells, every summary (overall, per
    # kind) with the traced count, the stale gold ids per cell: a filter and a group_by
    # per kind were four collects each
    files = write_case(tmp_path)
    with counting_collects(monkeypatch, "analyse/attribution.py") as count:
        attribution = evaluated(files).attribution
    assert attribution is not None and list(attribution.by_kind) == ["plain", "table"]
    assert count[0] == 4


def test_gold_at_rank_k_counts_retrieved_and_at_k_plus_1_missed(tmp_path: Path) -> None:
    """The same questions move between cells when k_ctx moves past their gold chunk."""
    gold, run, verdicts = write_case(tmp_path)
    wider = run_analyses(
        evaluate(load_gold(gold), [load_run(run, "rag")], Settings(ks=(6,), context_k=6)),
        AnalysisOptions(verdicts=load_verdicts(verdicts)),
    ).attribution
    assert wider is not None
    assert list(wider.overall.counts.values()) == [35, 9, 0, 6]  # q41-q44 now retrieved


def test_tie_between_failure_cells(tmp_path: Path) -> None:
    # 31 right with gold, 9 wrong with gold, 4 right without, 6 wrong without; make
    # three generation failures right (q32-q34): 34 / 6 / 4 / 6.
    verdicts = {q: {"correct": q in RETRIEVED_CORRECT or q in MISSED_CORRECT} for q in qids(1, 50)}
    for q in ("q32", "q33", "q34"):
        verdicts[q] = {"correct": True}
    attribution = evaluated(write_case(tmp_path, verdicts)).attribution
    assert attribution is not None
    assert list(attribution.overall.counts.values()) == [34, 6, 4, 6]
    assert attribution.overall.focus == "tie"


def test_verdicts_that_do_not_cover_every_question(tmp_path: Path) -> None:
    verdicts = {q: {"correct": q in RETRIEVED_CORRECT or q in MISSED_CORRECT} for q in qids(1, 50)}
    del verdicts["q50"]  # no verdict
    verdicts["q49"] = {"correct": None}  # the eval errored
    verdicts["u1"] = {"correct": True}  # no abstained field: correct means declined
    extra = [{"id": "zz", "correct": True}]  # not in the gold set
    findings = evaluated(write_case(tmp_path, verdicts, extra))
    attribution = findings.attribution
    assert attribution is not None
    assert list(attribution.overall.counts.values()) == [31, 9, 4, 4]  # q49, q50 left out
    assert attribution.overall.pass_rate == pytest.approx(35 / 48)
    join = attribution.join
    assert join.gold_without == ("q50", "u2")
    assert join.unknown_questions == ("zz",)
    assert join.unknown_verdicts == ("q49",)
    assert attribution.unanswerable("declined") == ["u1"]
    assert attribution.unanswerable("answered") == []
    codes = {w.code: w for w in findings.warnings}
    assert codes["verdicts_missing"].count == 2
    assert codes["verdicts_unknown_questions"].examples == ("zz",)
    assert codes["verdicts_unknown"].examples == ("q49",)


def test_ragas_joined_by_question_text(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        json.dumps({"id": "A", "question": "How do refunds work?", "gold": ["a"]})
        + "\n"
        + json.dumps({"id": "B", "question": "Where is my parcel?", "gold": ["b"]})
        + "\n"
    )
    run = tmp_path / "run.jsonl"
    run.write_text('{"id": "A", "chunks": ["a"]}\n{"id": "B", "chunks": ["x"]}\n')
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "verdicts" / "ragas.csv"
    verdicts = load_verdicts(fixture, metric="faithfulness", threshold=0.7)
    attribution = run_analyses(
        evaluate(load_gold(gold), [load_run(run)], Settings(ks=(1,), context_k=1)),
        AnalysisOptions(verdicts=verdicts),
    ).attribution
    assert attribution is not None
    assert attribution.overall.questions["retrieved_correct"] == ["A"]  # 0.92, gold at 1
    assert attribution.overall.questions["missed_wrong"] == ["B"]  # 0.40, no gold
    assert attribution.join.unknown_questions == ("What is the meaning of life?",)


def test_choose_run(tmp_path: Path) -> None:
    verdicts = load_verdicts(write_case(tmp_path)[2])
    assert choose_run(verdicts, ["bm25", "rag"], None) == "bm25"  # no run field: the first
    named = tmp_path / "named.jsonl"
    named.write_text('{"id": "q01", "run": "rerank", "correct": true}\n')
    verdicts = load_verdicts(named)
    assert choose_run(verdicts, ["bm25", "rerank"], None) == "rerank"  # the one it names
    with pytest.raises(UsageError, match="none for 'bm25'"):
        choose_run(verdicts, ["bm25", "rerank"], "bm25")
    with pytest.raises(UsageError, match="not one of the runs"):
        choose_run(verdicts, ["bm25", "rerank"], "dense")


def test_same_numbers_in_json_html_and_markdown(tmp_path: Path) -> None:
    gold, run, verdicts = write_case(tmp_path)
    out = tmp_path / "out"
    inputs = ReportInputs(gold, [("rag", run)], verdicts=verdicts)
    settings = ReportSettings(Settings(ks=(1, K), context_k=K))
    result = make_report(ReportRequest(inputs, ReportOutputs(out), settings))
    report = json.loads((out / "report.json").read_text())
    assert report == json.loads(json.dumps(result.report))
    section = report["attribution"]["rag"]
    assert section["cells"] == {
        "retrieved_correct": 31,
        "retrieved_wrong": 9,
        "missed_correct": 4,
        "missed_wrong": 6,
    }
    assert section["k"] == K and section["n"] == 50
    assert section["pass_rate"] == 0.7
    assert section["focus"] == "generation"
    assert section["questions"]["missed_wrong"] == MISSED_WRONG
    assert section["by_kind"]["table"]["cells"]["retrieved_wrong"] == 9
    assert section["unanswerable"]["declined"] == 1
    assert section["unanswerable"]["questions"]["answered"] == ["u2"]
    assert report["verdicts"]["questions_with_verdict"] == 52
    assert report["verdicts"]["gold_without_verdict"] == {"count": 0, "ids": []}

    html = (out / "index.html").read_text()
    markdown = (out / "report.md").read_text()
    for text in (html, markdown):
        assert "Generation failures are the larger failure cell (9 vs 6" in text.replace("\\", "")
        assert "End-to-end pass rate 0.700" in text
        assert "larger failure cell" in text
    # Each cell's count and share, in the 2x2 table.
    for count, share in (("31", "62.0%"), ("9", "18.0%"), ("4", "8.0%"), ("6", "12.0%")):
        assert re.search(rf'>{count}</span> <span class="cell-share">\({share}\)', html)
        assert f"**{count}** ({share})" in markdown
    cells_md = markdown.split("### The four cells")[1].split("## Methods")[0]
    assert "| **gold retrieved (hit@5 = 1)** | **31** (62.0%) working as designed |" in (cells_md)
    assert "- retrieval failure (6): " + ", ".join(MISSED_WRONG) in cells_md
    assert '<th scope="row">gold not retrieved</th>' in html
    # the ids fold away, so that the cells stay on the first screen
    assert '<details class="cell-ids"><summary>Question ids per cell</summary>' in html


def test_report_without_verdicts_says_how_to_add_them(tmp_path: Path) -> None:
    gold, run, _ = write_case(tmp_path)
    outputs = ReportOutputs(tmp_path / "out", formats=("md",))
    result = make_report(ReportRequest(ReportInputs(gold, [("rag", run)]), outputs))
    assert result.report["attribution"] == {} and result.report["verdicts"] is None
    assert "--verdicts FILE" in (tmp_path / "out" / "report.md").read_text()


def test_demo_story(tmp_path: Path) -> None:
    """The bundled example's generator promises rerank at k=5: 36 / 9 / 1 / 4."""
    report = make_report(demo_request(ReportOutputs(tmp_path, formats=("json",)))).report
    section = report["attribution"]["rerank"]
    assert list(section["cells"].values()) == [36, 9, 1, 4]
    assert section["n"] == 50 and section["focus"] == "generation"
    assert section["pass_rate"] == pytest.approx(37 / 50)
    assert report["verdicts"]["gold_without_verdict"]["ids"] == ["q008", "q021"]
    assert section["unanswerable"]["declined"] == 6
    assert section["unanswerable"]["questions"]["answered"] == ["q003", "q046"]
