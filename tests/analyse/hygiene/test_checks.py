"""Stale ids, provenance, forbidden chunks and leaks@k on the hand-worked scenario."""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from reportgen.analyse.hygiene import check, leak_counts, leak_line, stale_warning
from reportgen.analyse.run import AnalysisOptions, Findings, run_analyses
from reportgen.core.model import Manifest
from reportgen.errors import UsageError
from reportgen.load import load_gold, load_manifest, load_run
from reportgen.measure.scoring import Evaluation, Settings, evaluate
from reportgen.report.assemble import Report, assemble

SETTINGS = Settings(ks=(1, 3), context_k=3)
AS_OF = date(2026, 1, 1)


def _evaluation(scenario: dict[str, Path], run_index: str | None = None, runs: int = 1):  # type: ignore[no-untyped-def]
    run = load_run(scenario["run"], name="r")
    if run_index is not None:
        run = dataclasses.replace(run, index_version=run_index)
    more = [dataclasses.replace(run, name=f"r{n}") for n in range(2, runs + 1)]
    return evaluate(load_gold(scenario["gold"]), [run, *more], SETTINGS)


def _report(evaluation: Evaluation, manifest: Manifest | None = None) -> tuple[Report, Findings]:
    findings = run_analyses(evaluation, AnalysisOptions(manifest=manifest), version="t")
    return assemble(findings), findings


def _pairs(frame: pl.DataFrame) -> list[tuple[str, str]]:
    return [(q, c) for q, c in frame.select("qid", "chunk_id").iter_rows()]


def test_stale_against_the_manifest(scenario: dict[str, Path]) -> None:
    found = check(_evaluation(scenario), load_manifest(scenario["manifest"]))
    assert found.stale_basis == "manifest"
    assert _pairs(found.stale) == [("q2", "b2"), ("q3", "c1")]
    warning = next(w for w in found.warnings if w.code == "stale_gold")
    assert warning.count == 2
    assert warning.examples == ("q2: b2", "q3: c1")
    assert "not in the index manifest (kb-1)" in warning.message


def test_without_manifest_only_ids_no_run_returns_and_worded_as_possible(
    scenario: dict[str, Path],
) -> None:
    # b2 is returned (for q4), so only c1 is suspect.
    found = check(_evaluation(scenario, runs=2))
    assert found.stale_basis == "no_run_returns"
    assert _pairs(found.stale) == [("q3", "c1")]
    (warning,) = [w for w in found.warnings if "stale" in w.code]
    assert warning.code == "possibly_stale_gold"
    assert "may no longer exist" in warning.message


def test_means_without_the_stale_questions(scenario: dict[str, Path]) -> None:
    report, _ = _report(_evaluation(scenario), load_manifest(scenario["manifest"]))
    # all: q1 hit 1 recall 1; q2 hit 1 recall 1/2; q3 0 -> 2/3 and 0.5. Without q2, q3: 1 and 1.
    assert report["runs"]["r"]["means"]["hit@3"] == pytest.approx(2 / 3)
    assert report["runs"]["r"]["means"]["recall@3"] == pytest.approx(0.5)
    clean = report["hygiene"]["stale"]["means_without_stale"]["r"]
    assert clean["n"] == 1
    assert clean["hit@3"] == 1.0 and clean["recall@3"] == 1.0
    assert report["hygiene"]["stale"]["questions"] == {"q2": ["b2"], "q3": ["c1"]}


def test_index_versions_that_differ_are_a_warning(scenario: dict[str, Path]) -> None:
    found = check(_evaluation(scenario, run_index="kb-2"), load_manifest(scenario["manifest"]))
    assert found.provenance["gold"] == "kb-1"
    assert found.provenance["runs"] == {"r": "kb-2"}
    assert found.provenance["consistent"] is False
    warning = found.warnings[0]
    assert warning.code == "index_version_mismatch"
    assert warning.count == 1
    assert warning.examples == ("run 'r': kb-2",)


def test_same_index_versions_are_quiet(scenario: dict[str, Path]) -> None:
    found = check(_evaluation(scenario, run_index="kb-1"), load_manifest(scenario["manifest"]))
    assert found.provenance["consistent"] is True
    assert not [w for w in found.warnings if w.code == "index_version_mismatch"]


def test_leaks_at_k_per_reason(scenario: dict[str, Path]) -> None:
    found = check(
        _evaluation(scenario), load_manifest(scenario["manifest"]), audience="public", as_of=AS_OF
    )
    leaks = found.leaks["r"]
    # q1 s1 at 1 (gold's own reason), q2 old1 at 2 (valid to 2025-01-01), q4 s1 at 1 (staff).
    assert list(leaks.iter_rows()) == [
        ("q1", "s1", 1, "staff-only"),
        ("q2", "old1", 2, "wrong version"),
        ("q4", "s1", 1, "staff-only"),
    ]
    reasons = list(found.reasons)
    at1, at3 = leak_counts(leaks, 1, reasons), leak_counts(leaks, 3, reasons)
    assert (at1.total, at1.questions, at1.by_reason) == (
        2, 2, {"staff-only": 2, "wrong version": 0}
    )  # fmt: skip
    assert (at3.total, at3.questions, at3.by_reason) == (
        3, 3, {"staff-only": 2, "wrong version": 1}
    )  # fmt: skip
    assert leak_line(at1, found.reasons) == (
        "staff passages shown to a public audience: 2 | superseded or not yet valid versions: 0"
    )
    warning = next(w for w in found.warnings if w.code == "leaks")
    assert warning.count == 3
    assert "put 3 forbidden chunk(s) in the top 3 of 3 question(s)" in warning.message


def test_only_the_gold_sets_own_forbidden_list_without_audience(scenario: dict[str, Path]) -> None:
    # No audience, and as_of before old1 expired: only q1's own s1 is forbidden.
    found = check(
        _evaluation(scenario), load_manifest(scenario["manifest"]), as_of=date(2024, 6, 1)
    )
    assert list(found.leaks["r"].iter_rows()) == [("q1", "s1", 1, "staff-only")]
    assert found.reasons == {"staff-only": "staff-only"}


def test_a_gold_chunk_the_audience_may_not_see_is_flagged(tmp_path: Path) -> None:
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "q1", "gold": ["s1"]}\n')
    manifest = tmp_path / "m.csv"
    manifest.write_text("chunk_id,audience\ns1,staff\nx1,public\n")
    run = tmp_path / "r.jsonl"
    run.write_text('{"id": "q1", "chunks": ["x1", "s1"]}\n')
    evaluation = evaluate(load_gold(gold), [load_run(run)], SETTINGS)
    found = check(evaluation, load_manifest(manifest), audience="public")
    codes = [w.code for w in found.warnings]
    assert codes == ["forbidden_gold", "leaks"]
    assert found.warnings[0].examples == ("q1: s1 (staff-only)",)


def test_audience_needs_a_manifest_with_audiences(
    scenario: dict[str, Path], tmp_path: Path
) -> None:
    evaluation = _evaluation(scenario)
    with pytest.raises(UsageError, match="needs an index manifest"):
        check(evaluation, audience="public")
    bare = tmp_path / "ids.txt"
    bare.write_text("a1\nb1\n")
    with pytest.raises(UsageError, match="gives no audience"):
        check(evaluation, load_manifest(bare), audience="public")


def test_reports_without_checks_still_have_the_section(scenario: dict[str, Path]) -> None:
    report, _ = _report(_evaluation(scenario, runs=2))
    assert report["hygiene"]["stale"]["basis"] == "no_run_returns"
    assert report["hygiene"]["manifest"] is None
    assert report["warnings"][0]["code"] == "possibly_stale_gold"
    # the weak signal never gives numbers "without stale questions": only a manifest does
    assert report["hygiene"]["stale"]["means_without_stale"] is None
    assert report["runs"]["r"]["leaks"]["at"]["3"]["total"] == 1  # q1's own s1


def test_one_run_without_a_manifest_says_unreturned_gold_is_expected(
    scenario: dict[str, Path],
) -> None:
    from reportgen.render.views.hygiene import hygiene_view

    report, _ = _report(_evaluation(scenario))
    assert [w["code"] for w in report["warnings"] if "stale" in w["code"]] == []
    assert report["hygiene"]["stale"]["means_without_stale"] is None
    view = hygiene_view(report)
    assert view is not None
    assert view.stale_title == "Gold ids the run does not return"
    assert "expected when the run is shallow" in view.stale_note
    assert view.without_stale == []
    assert report["runs"]["r"]["leaks"]["at"]["3"]["total"] == 1  # q1's own s1


def test_report_lists_at_most_a_hundred_stale_questions_and_counts_them_all(
    tmp_path: Path,
) -> None:
    from reportgen.render.pages import render_markdown, view_model

    gold = tmp_path / "gold.tsv"
    gold.write_text("".join(f"q{i:03d} 0 gone{i} 1\nq{i:03d} 0 here{i} 1\n" for i in range(150)))
    run = tmp_path / "run.trec"  # returns half the gold ids: not a sign of shallow runs
    run.write_text("".join(f"q{i:03d} Q0 here{i} 1 1.0 r\n" for i in range(150)))
    evaluation = evaluate(load_gold(gold), [load_run(run, name="r")], SETTINGS)
    report, _findings = _report(evaluation)
    stale = report["hygiene"]["stale"]
    assert stale["chunks"] == 150 and stale["question_count"] == 150
    assert list(stale["questions"]) == [f"q{i:03d}" for i in range(100)]
    assert stale["questions_kept"] == 100
    markdown = render_markdown(view_model(report, {}, "per_question.csv"))
    assert "150 gold ids in 150 questions" in markdown
    assert "Showing the first 100 of 150 questions" in markdown


def test_stale_examples_are_the_first_pairs_as_text() -> None:
    # Seven stale ids: the warning counts them all and shows the first five "qid: chunk"
    # in text order, where "q10: a" comes before "q1: z" (":" sorts after "0").
    stale = pl.DataFrame(
        {
            "qid": ["q1", "q1", "q10", "q2", "q3", "q4", "q5"],
            "chunk_id": ["z", "b", "a", "c", "d", "e", "f"],
        }
    )
    (warning,) = stale_warning(stale, "no_run_returns", None, gold_chunks=20)
    assert warning.count == 7
    assert warning.examples == ("q10: a", "q1: b", "q1: z", "q2: c", "q3: d")


def test_no_numbers_without_stale_questions_when_every_question_has_one(tmp_path: Path) -> None:
    from reportgen.render.views.hygiene import without_stale_lines

    gold = tmp_path / "gold.tsv"
    gold.write_text("q1 0 a 1\nq1 0 gone1 1\nq2 0 b 1\nq2 0 gone2 1\n")
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 a 1 2.0 r\nq2 Q0 b 1 2.0 r\n")
    manifest = tmp_path / "ids.txt"
    manifest.write_text("a\nb\n")
    evaluation = evaluate(load_gold(gold), [load_run(run, name="r")], SETTINGS)
    report, _ = _report(evaluation, load_manifest(manifest))
    assert report["hygiene"]["stale"]["means_without_stale"]["r"]["n"] == 0
    assert without_stale_lines(report) == [
        "Every question has at least one of these ids, so no question is left to measure "
        "without them."
    ]


def test_no_warning_when_most_gold_ids_are_unreturned_as_with_pooled_qrels(
    tmp_path: Path,
) -> None:
    from reportgen.render.pages import render_markdown, view_model

    gold = tmp_path / "qrels.txt"  # four judged documents a question, the run finds one
    gold.write_text("".join(f"q{i} 0 d{i}{j} 1\n" for i in range(3) for j in range(4)))
    run = tmp_path / "run.trec"
    run.write_text("".join(f"q{i} Q0 d{i}0 1 1.0 r\n" for i in range(3)))
    evaluation = evaluate(load_gold(gold), [load_run(run, name="r")], SETTINGS)
    found = check(evaluation)
    assert found.stale.height == 9 and found.gold_chunks == 12
    assert [w.code for w in found.warnings] == []  # 9 of 12 unreturned: shallow runs
    report, findings = _report(evaluation)
    assert findings.hygiene.stale.equals(found.stale)
    assert report["hygiene"]["stale"]["gold_chunks"] == 12
    markdown = render_markdown(view_model(report, {}, "per_question.csv"))
    assert "9 of the 12 gold ids (3 questions) are returned by no run" in markdown
    assert "says nothing about stale ids; no warning is raised" in markdown
