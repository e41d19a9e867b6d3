"""Trace files: one JSON Lines file holds the gold set, one run, what was sent, and verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reportgen.errors import InputError
from reportgen.load.formats.vocabulary import detect_format, is_trace_file
from reportgen.load.inputs.run_files import load_gold_input, load_run_inputs
from reportgen.load.inputs.traces import load_trace
from tests.load.conftest import Write

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MULTIHOP = FIXTURES / "traces" / "multihop.jsonl"


def lines(*records: dict[str, object]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def ranked(trace_run_results: object) -> dict[str, list[str]]:
    import polars as pl

    assert isinstance(trace_run_results, pl.DataFrame)
    grouped = trace_run_results.sort("qid", "rank").group_by("qid", maintain_order=True)
    return dict(grouped.agg("chunk_id").rows())


def test_the_multihop_trace_gives_gold_run_sent_chunks_and_verdicts() -> None:
    trace = load_trace(MULTIHOP)
    assert trace.run.name == "ircot"  # _meta.run
    assert trace.gold.version == "hops-1"
    assert trace.gold.questions.height == 8
    gold = dict(
        trace.gold.judgments.group_by("qid").agg("chunk_id").sort("qid").rows()  # type: ignore[arg-type]
    )
    assert sorted(gold["h1"]) == ["eiffel", "paris", "seine"]
    assert ranked(trace.run.results)["h2"] == ["jaws", "x2", "x3"]
    assert trace.run.sent is not None
    sent = dict(trace.run.sent.rows())
    assert sent["h3"] == ["dune", "x4"]
    assert trace.verdicts is not None
    verdicts = dict(trace.verdicts.rows.select("qid", "correct").rows())
    assert verdicts == {
        "h1": True, "h2": False, "h3": True, "h4": True,
        "h5": False, "h6": False, "h7": True, "h8": True,
    }  # fmt: skip
    assert set(trace.verdicts.rows["run"]) == {"ircot"}
    assert trace.gold.misspelt_keys == ()  # retrieved, context, answer, correct are trace keys


def test_ids_and_scored_objects_may_mix_and_partial_scores_are_dropped(write: Write) -> None:
    path = write(
        "t.jsonl",
        lines(
            {"id": "q1", "gold": ["a"], "retrieved": ["a", {"id": "b", "score": 0.2}]},
            {"id": "q2", "gold": ["c"], "retrieved": [{"chunk_id": "c", "score": 0.9}]},
        ),
    )
    run = load_trace(path).run
    assert ranked(run.results) == {"q1": ["a", "b"], "q2": ["c"]}
    assert run.results["score"].null_count() == run.results.height
    assert run.order == "list"
    assert run.sent is None


def test_all_scored_objects_keep_their_scores_and_the_list_order(write: Write) -> None:
    path = write(
        "t.jsonl",
        lines(
            {
                "id": "q1",
                "gold": ["a"],
                "retrieved": [{"id": "b", "score": 0.1}, {"id": "a", "score": 0.9}],
            }
        ),
    )
    run = load_trace(path).run
    assert run.results.rows() == [("q1", "b", 1, 0.1), ("q1", "a", 2, 0.9)]


def test_the_run_is_named_by_the_caller_then_meta_then_the_file(write: Write) -> None:
    body = lines({"id": "q1", "gold": ["a"], "retrieved": ["a"]})
    plain = write("plain-trace.jsonl", body)
    assert load_trace(plain).run.name == "plain-trace"
    meta = write("m.jsonl", lines({"_meta": {"run": "hybrid"}}) + body)
    assert load_trace(meta).run.name == "hybrid"
    assert load_trace(meta, "mine").run.name == "mine"


def test_a_context_id_missing_from_retrieved_is_still_sent_and_noted(write: Write) -> None:
    path = write(
        "t.jsonl",
        lines(
            {"id": "q1", "gold": ["a"], "retrieved": ["b"], "context": ["b", "a", "a"]},
            {"id": "q2", "gold": ["c"], "retrieved": ["c"], "context": []},
        ),
    )
    run = load_trace(path).run
    assert run.sent is not None
    assert dict(run.sent.rows()) == {"q1": ["b", "a"], "q2": []}
    assert run.sent_unretrieved == ("q1",)


def test_no_correct_key_anywhere_means_no_verdicts(write: Write) -> None:
    path = write("t.jsonl", lines({"id": "q1", "gold": ["a"], "retrieved": ["a"]}))
    assert load_trace(path).verdicts is None


def test_null_correct_is_an_unknown_verdict(write: Write) -> None:
    path = write("t.jsonl", lines({"id": "q1", "gold": ["a"], "retrieved": ["a"], "correct": None}))
    verdicts = load_trace(path).verdicts
    assert verdicts is not None
    assert verdicts.rows["correct"].to_list() == [None]


BAD_LINES = [
    ({"retrieved": None}, "a line without retrieved"),
    ({"retrieved": "a"}, "retrieved is a JSON string, not an array"),
    ({"retrieved": [{"score": 1}]}, "an object in retrieved without an id"),
    ({"retrieved": [{"id": "a", "score": "high"}]}, "score 'high' is not a finite number"),
    ({"context": "a"}, "context is a JSON string, not an array"),
    ({"correct": "maybe"}, "correct is 'maybe'"),
    ({"retrieved": [None]}, "retrieved chunk id is a JSON null"),
]


@pytest.mark.parametrize(("change", "problem"), BAD_LINES)
def test_bad_trace_lines_name_the_line_and_the_fix(
    write: Write, change: dict[str, object], problem: str
) -> None:
    good = {"id": "q0", "gold": ["z"], "retrieved": ["z"]}
    record = {
        key: value for key, value in {**good, "id": "q1", **change}.items() if value is not None
    }
    path = write("t.jsonl", lines(good, record))
    with pytest.raises(InputError) as caught:
        load_trace(path)
    assert caught.value.line == 2
    assert problem in caught.value.problem
    assert "Fix:" in str(caught.value)


def test_trace_files_are_sniffed_as_runs_and_plain_runs_are_not(write: Write) -> None:
    assert detect_format(MULTIHOP, None, "run") == "trace"
    assert is_trace_file(MULTIHOP)
    plain = write("run.jsonl", lines({"id": "q1", "chunks": ["a"]}))
    assert detect_format(plain, None, "run") == "jsonl"
    assert not is_trace_file(plain)
    ranx = write("run.json", json.dumps({"q1": {"a": 1.0}}))
    assert detect_format(ranx, None, "run") == "json"
    gold = write("gold.jsonl", lines({"id": "q1", "gold": ["a"]}))
    assert not is_trace_file(gold)


def test_a_trace_as_the_gold_file_is_the_first_run(write: Write) -> None:
    gold, first = load_gold_input(MULTIHOP, None, "v9", None)
    assert first is not None
    assert gold.version == "v9"
    other = write(
        "second.jsonl",
        MULTIHOP.read_text().replace('"x2"', '"x22"').replace('"run": "ircot"', '"run": "rerank"'),
    )
    inputs = load_run_inputs([(None, other)], gold, first=first)
    assert [run.name for run in inputs.runs] == ["ircot", "rerank"]
    assert inputs.verdicts is not None
    assert sorted(set(inputs.verdicts.rows["run"])) == ["ircot", "rerank"]


def test_a_trace_file_over_another_gold_set_is_refused(write: Write) -> None:
    gold, first = load_gold_input(MULTIHOP, None, None, None)
    changed = write("other.jsonl", MULTIHOP.read_text().replace('"canada"]', '"canada", "ottawa"]'))
    with pytest.raises(InputError) as caught:
        load_run_inputs([(None, changed)], gold, first=first)
    assert "is not the report's" in caught.value.problem
    assert gold.fingerprint in caught.value.problem


def test_a_chunk_a_later_hop_found_again_takes_no_rank(write: Write) -> None:
    path = write(
        "t.jsonl",
        lines({"id": "q1", "gold": ["c41"], "retrieved": ["x9", "x10", "x10", "c41"]}),
    )
    run = load_trace(path).run
    found = run.results.sort("rank")
    assert list(zip(found["chunk_id"], found["rank"], strict=True)) == [
        ("x9", 1),
        ("x10", 2),
        ("c41", 3),
    ]
    assert (run.repeated_across_hops, run.repeated_chunks) == (1, 0)
    assert run.longest_list == 3


def _without_verdicts(text: str, run: str) -> str:
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    for record in records:
        record.pop("correct", None)
        if "_meta" in record:
            record["_meta"]["run"] = run
    return lines(*records)


def test_verdicts_run_may_name_the_run_whose_trace_file_judges_it(write: Write) -> None:
    """--verdicts-run needs verdicts from --verdicts or a trace file, one source per run."""
    from click.testing import CliRunner

    from reportgen.cli import cli

    other = write("rerank.jsonl", _without_verdicts(MULTIHOP.read_text(), "rerank"))
    bare = write("ircot.jsonl", _without_verdicts(MULTIHOP.read_text(), "ircot"))
    file = write("v.csv", "id,correct\nh1,true\n")
    out = ["--out", str(other.parent / "out"), "--format", "json"]

    def report(gold: Path, *extra: str) -> tuple[int, str]:
        result = CliRunner().invoke(cli, ["report", str(gold), f"rerank={other}", *out, *extra])
        return result.exit_code, result.output

    code, output = report(MULTIHOP, "--verdicts-run", "ircot")
    assert code == 0, output
    report_json = json.loads((other.parent / "out" / "report.json").read_text())
    assert list(report_json["attribution"]) == ["ircot"]
    code, output = report(MULTIHOP, "--verdicts-run", "rerank")
    assert code == 2 and "none for 'rerank'" in output
    code, output = report(bare, "--verdicts-run", "ircot")
    assert code == 2 and "--verdicts-run ircot: names the run the verdicts judge" in output
    code, output = report(MULTIHOP, "--verdicts", str(file), "--verdicts-run", "ircot")
    assert code == 2 and "run 'ircot' has verdicts in" in output and "trace file" in output
