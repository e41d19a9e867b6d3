"""`reportgen report` with trace files and span exports: what it reads, prints and refuses."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TRACE = FIXTURES / "traces" / "multihop.jsonl"
OTLP = FIXTURES / "otel" / "openinference.otlp.jsonl"


def _run(tmp_path: Path, *args: str | Path) -> tuple[int, str, dict]:  # type: ignore[type-arg]
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["report", *map(str, args), "--out", str(out), "--format", "json"]
    )
    report = json.loads((out / "report.json").read_text()) if result.exit_code == 0 else {}
    return result.exit_code, result.output, report


def test_a_span_export_is_a_run_next_to_the_trace_file(tmp_path: Path) -> None:
    code, output, report = _run(
        tmp_path, TRACE, f"spans={OTLP}", "--trace-question-key", "metadata.question_id"
    )
    assert code == 0, output
    spans = report["runs"]["spans"]
    assert spans["traces"]["traces"] == 4
    assert [u["trace_id"] for u in spans["traces"]["unmatched"]] == [
        "0af7651916cd43dd8448eb211c80319c",
        "0af7651916cd43dd8448eb211c80319d",
    ]
    assert spans["context"]["source"] == "top_k"
    assert report["runs"]["ircot"]["context"]["source"] == "trace"
    # only the trace has verdicts: the span run gets no cells
    assert list(report["attribution"]) == ["ircot"]
    codes = {w["code"] for w in report["warnings"]}
    assert "unmatched_traces" in codes
    assert "2 of its 4 traces match no gold question" in output


def test_a_second_trace_file_adds_a_run_with_its_own_cells(tmp_path: Path) -> None:
    second = tmp_path / "rerank.jsonl"
    second.write_text(TRACE.read_text().replace('"run": "ircot"', '"run": "rerank"'))
    code, output, report = _run(tmp_path, TRACE, second, "--retrieved-when", "all")
    assert code == 0, output
    assert list(report["attribution"]) == ["ircot", "rerank"]
    assert report["attribution"]["rerank"]["rule"] == "all"
    assert report["settings"]["retrieved_when"] == "all"


def test_verdicts_for_a_traced_run_from_a_file_too_are_refused(tmp_path: Path) -> None:
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text('{"id": "h1", "correct": false}\n')
    code, output, _ = _run(tmp_path, TRACE, "--verdicts", verdicts)
    assert code == 2
    assert "run 'ircot' has verdicts in" in output and "one source of verdicts per run" in output


def test_verdicts_for_no_run_of_the_report_beside_a_trace_are_refused(tmp_path: Path) -> None:
    verdicts = tmp_path / "verdicts.csv"
    verdicts.write_text("id,run,correct\nh1,small,true\n")
    code, output, _ = _run(tmp_path, TRACE, "--verdicts", verdicts)
    assert code == 2, output
    assert "has verdicts for run(s) small, none for a run of this report (ircot)" in output
    assert "Traceback" not in output


def test_a_question_key_without_a_span_run_is_refused(tmp_path: Path) -> None:
    code, output, _ = _run(tmp_path, TRACE, "--trace-question-key", "qid")
    assert code == 2
    assert "--trace-question-key qid: names a span attribute, but no run is" in output


def test_a_trace_over_another_gold_set_is_refused_by_fingerprint(tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text(TRACE.read_text().replace('"canada"]', '"canada", "ottawa"]'))
    code, output, _ = _run(tmp_path, TRACE, other)
    assert code == 2
    assert "other.jsonl: its gold set (fingerprint" in output
    assert "Fix: give trace files written over the same gold set" in output


def test_context_k_given_is_not_called_assumed(tmp_path: Path) -> None:
    code, output, report = _run(tmp_path, TRACE, "--context-k", "3")
    assert code == 0, output
    assert report["settings"]["context_k_assumed"] is False
    assert "was assumed" not in output
    code, output, report = _run(tmp_path, TRACE)
    assert report["settings"]["context_k_assumed"] is True
    assert output.count("k_ctx = 5 was assumed") == 1


def test_a_gold_file_that_is_no_trace_still_needs_a_run(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "q1", "gold": ["a"]}\n')
    code, output, _ = _run(tmp_path, gold)
    assert code == 2
    assert "reportgen report: missing argument RUNS" in output
    assert "a trace file as GOLD needs no RUNS" in output


def test_a_trace_file_given_as_a_run_after_its_gold_set_just_works(tmp_path: Path) -> None:
    """It used to exit 2 with a hint naming a Python function; now it is a run."""
    gold = tmp_path / "gold.jsonl"
    lines = [json.loads(line) for line in TRACE.read_text().splitlines()[1:]]
    keys = ("id", "question", "kind", "gold", "unanswerable")
    gold.write_text("".join(json.dumps({k: q[k] for k in keys if k in q}) + "\n" for q in lines))
    code, output, report = _run(tmp_path, gold, TRACE, "--context-k", "2")
    assert code == 0, output
    assert list(report["runs"]) == ["ircot"]  # named by _meta.run
    section = report["attribution"]["ircot"]
    assert (section["context_source"], section["traced_questions"]) == ("trace", 7)
    assert list(section["cells"].values()) == [3, 2, 1, 1]  # the context, not the top 2
    assert "Run ircot: the four cells use the chunks its trace says were sent" in output


def test_a_run_shorter_than_k_ctx_is_said(tmp_path: Path) -> None:
    code, output, report = _run(tmp_path, TRACE, "--context-k", "10", "--k", "10")
    assert code == 0, output
    context = report["runs"]["ircot"]["context"]
    assert (context["longest_list"], context["shorter_than_context_k"]) == (4, True)
    # the trace says what was sent, so the short lists are not what the note is about
    assert "returns at most" not in output


def test_a_trace_file_where_only_a_ranked_list_is_read_says_what_to_do(tmp_path: Path) -> None:
    """`reportgen shard` cuts ranked lists only: the refusal names the command that reads it."""
    result = CliRunner().invoke(
        cli, ["shard", str(TRACE), str(TRACE), "--shards", "2", "--out", str(tmp_path / "s")]
    )
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "load_run_inputs" not in result.output
    assert "a trace file holds more than a ranked list" in result.output
    assert "Fix: give it to reportgen report: a trace file as the gold set" in result.output


def test_a_ranked_list_shorter_than_k_ctx_is_said_once(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "q1", "gold": ["a"]}\n{"id": "q2", "gold": ["b"]}\n')
    run = tmp_path / "short.jsonl"
    run.write_text('{"id": "q1", "chunks": ["a", "x"]}\n{"id": "q2", "chunks": ["y"]}\n')
    code, output, report = _run(tmp_path, gold, run, "--context-k", "5")
    assert code == 0, output
    assert report["runs"]["short"]["context"] == {
        "source": "top_k",
        "traced_questions": 0,
        "longest_list": 2,
        "shorter_than_context_k": True,
        "sent_not_retrieved": [],
    }
    assert output.count("Run short returns at most 2 chunks per question, fewer than") == 1


def test_a_ranked_list_of_one_chunk_is_said_in_the_singular(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "q1", "gold": ["a"]}\n')
    run = tmp_path / "short.jsonl"
    run.write_text('{"id": "q1", "chunks": ["a"]}\n')
    code, output, _ = _run(tmp_path, gold, run, "--context-k", "5")
    assert code == 0, output
    assert "Run short returns at most 1 chunk per question, fewer than" in output
