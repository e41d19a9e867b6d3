"""Bad input on the newest surfaces, round four (issue 39): each case a finding of the
held-out corpora, through the real CLI or API, as exit 2 and one line in the house form
(``file[:line]: problem. Fix: ...``), never exit 3."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest

from reportgen.core.model import ChunkMap
from reportgen.errors import InputError
from reportgen.report.labelling import chunk_texts
from tests.hardening.corpus import Outcome, assert_clean_failure, run_cli, write_inputs

DEEP = "[" * 100_000 + "]" * 100_000
"""Past Python's recursion limit when parsed."""


@pytest.mark.parametrize(
    ("name", "text", "role"),
    [
        ("gold.jsonl", '{"id": "q1", "gold": ' + DEEP + "}\n", "gold"),
        ("gold.jsonl", '{"id": "q1", "gold": ["c1"], "question": ' + DEEP + "}\n", "gold"),
        ("ranx.json", '{"q1": {"c1": ' + DEEP + "}}", "run"),
    ],
    ids=["gold's gold", "gold's question", "a ranx run"],
)
def test_json_nested_past_the_recursion_limit(
    tmp_path: Path, name: str, text: str, role: str
) -> None:
    gold, run = write_inputs(tmp_path)
    deep = tmp_path / f"deep-{name}"
    deep.write_text(text)
    args = [str(deep), f"r={run}"] if role == "gold" else [str(gold), f"r={deep}"]
    outcome = run_cli(["report", *args, "--out", str(tmp_path / "o")])
    assert_clean_failure(outcome, where=deep.name, problem="nested too deeply")


def test_a_30_digit_limit_queues_the_whole_pool(tmp_path: Path) -> None:
    gold, run = write_inputs(tmp_path)
    huge = "9" * 30
    args = ["label", "export", str(gold), f"r={run}", "--out", str(tmp_path / "q.csv")]
    outcome = run_cli([*args, "--limit", huge, "--per-question", huge])
    assert outcome.code == 0, outcome.stderr
    assert (tmp_path / "q.csv").is_file()


def _retriever(trace: str, qid: str, documents: list[tuple[str, str]]) -> dict[str, object]:
    attributes = [
        {"key": "openinference.span.kind", "value": {"stringValue": "RETRIEVER"}},
        {"key": "qid", "value": {"stringValue": qid}},
    ]
    attributes += [
        {"key": f"retrieval.documents.{index}.document.id", "value": {"stringValue": chunk}}
        for index, chunk in documents
    ]
    return {"traceId": trace, "startTimeUnixNano": "1", "attributes": attributes}


@pytest.mark.parametrize("index", [str(2**64 + 1), "9" * 5000])
def test_an_otlp_document_index_past_64_bits_still_orders(tmp_path: Path, index: str) -> None:
    gold, _ = write_inputs(tmp_path)
    spans = [
        _retriever("aa", "q1", [(index, "c2"), ("10", "c9"), ("0", "c1")]),
        _retriever("bb", "q2", [("0", "c2")]),
    ]
    export = tmp_path / "spans.otlp.json"
    export.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))
    out = tmp_path / "o"
    args = ["report", str(gold), f"r={export}", "--trace-question-key", "qid"]
    outcome = run_cli([*args, "--out", str(out), "--format", "json", "-q"])
    assert outcome.code == 0, outcome.stderr
    rows = pl.read_csv(out / "per_question.csv").filter(pl.col("qid") == "q1")
    assert rows["mrr"].item() == 1.0  # c1, index 0, ranks first; c2 last


def test_an_unreadable_document_is_named_by_the_label_queue() -> None:
    """The error of a document read for a chunk's text reaches the user as itself (a
    Polars function around the read turned it into a TypeError: exit 3)."""
    chunks = pl.DataFrame(
        {"chunk_id": ["a"], "doc": ["d.md"], "start": [0], "end": [3], "text": [None]},
        schema={
            "chunk_id": pl.String,
            "doc": pl.String,
            "start": pl.Int64,
            "end": pl.Int64,
            "text": pl.String,
        },
    )

    def unreadable(doc: str) -> str | None:
        raise InputError(doc, "permission denied", "give read access")

    chunk_map = ChunkMap(chunks, "chunks.jsonl")
    with pytest.raises(InputError, match=r"d\.md: permission denied"):
        chunk_texts(chunk_map, unreadable)
    texts = chunk_texts(chunk_map, lambda doc: "abcdef")
    assert texts["chunk_text"].to_list() == ["abc"]


def test_a_nan_verdict_threshold_in_the_config_names_the_file(tmp_path: Path) -> None:
    gold, run = write_inputs(tmp_path)
    verdicts = tmp_path / "v.jsonl"
    verdicts.write_text('{"id": "q1", "score": 0.9}\n{"id": "q2", "score": 0.1}\n')
    (tmp_path / "reportgen.toml").write_text("verdict-threshold = nan\n")
    args = ["report", str(gold), f"r={run}", "--verdicts", str(verdicts), "--out", "o"]
    outcome = run_cli(args, cwd=tmp_path)
    assert_clean_failure(outcome, where="reportgen.toml:1", problem="not a finite number")


# label export and import


def _import(tmp_path: Path, gold: Path, labels: Path, *extra: str) -> tuple[Path, Outcome]:
    out = tmp_path / f"new{gold.suffix}"
    return out, run_cli(["label", "import", str(gold), str(labels), "--out", str(out), *extra])


@pytest.mark.parametrize(
    "header", ["ID,Chunk_ID,Grade", "\nid,chunk_id,grade", "\n\nQID,DocID,grade"]
)
def test_label_import_reads_a_csv_gold_set_as_report_does(tmp_path: Path, header: str) -> None:
    gold = tmp_path / "gold.csv"
    gold.write_text(f"{header}\nq1,c1,1\nq2,c2,2\n")
    _, run = write_inputs(tmp_path / "in")
    assert run_cli(["report", str(gold), f"r={run}", "--out", str(tmp_path / "o"), "-q"]).code == 0
    labels = tmp_path / "labels.csv"
    labels.write_text("qid,chunk_id,grade\nq1,c9,1\n")
    out, outcome = _import(tmp_path, gold, labels)
    assert outcome.code == 0, outcome.stderr
    rows = out.read_text().strip().splitlines()
    assert rows[-1] == "q1,c9,1" and rows[-2] == "q2,c2,2"
    again = run_cli(["report", str(out), f"r={run}", "--out", str(tmp_path / "o2"), "-q"])
    assert again.code == 0, again.stderr


@pytest.mark.parametrize("grade", ["0.9", "1.5", "2.0001", "1,5"])
def test_a_fractional_grade_is_refused_not_truncated(tmp_path: Path, grade: str) -> None:
    gold, _ = write_inputs(tmp_path)
    labels = tmp_path / "labels.csv"
    labels.write_text(f'qid,chunk_id,grade\nq1,c9,"{grade}"\n')
    out, outcome = _import(tmp_path, gold, labels, "--version", "v2")
    assert_clean_failure(outcome, where="labels.csv:2", problem="not a whole number")
    assert not out.exists()


def test_a_fractional_judgment_grade_is_refused(tmp_path: Path) -> None:
    gold, run = write_inputs(tmp_path)
    judgments = tmp_path / "judgments.csv"
    judgments.write_text("qid,chunk_id,grade,source\nq1,c9,0.7,llm\n")
    args = ["report", str(gold), f"r={run}", "--judgments", str(judgments), "--out", "o"]
    outcome = run_cli(args, cwd=tmp_path)
    assert_clean_failure(outcome, where="judgments.csv:2", problem="'0.7' is not a whole number")


def test_a_grade_choice_with_words_is_still_read(tmp_path: Path) -> None:
    gold, _ = write_inputs(tmp_path)
    labels = tmp_path / "labels.csv"
    labels.write_text('qid,chunk_id,grade\nq1,c9,"2 (highly relevant)"\n')
    out, outcome = _import(tmp_path, gold, labels, "--version", "v2")
    assert outcome.code == 0, outcome.stderr
    assert '"c9": 2' in out.read_text()


def _task(qid: str, chunk: str, annotations: object) -> dict[str, object]:
    return {"data": {"qid": qid, "chunk_id": chunk}, "annotations": annotations}


def _choice(grade: str) -> dict[str, object]:
    return {"result": [{"value": {"choices": [grade]}}]}


@pytest.mark.parametrize(
    ("tasks", "problem"),
    [
        ([_task("q1", "c9", 5)], "task 1: its annotations are not a list"),
        ([_task("q1", "c9", [{"result": 7}])], "task 1 has an annotation without a grade"),
        ([5], "task 1 has no data object"),
        ([_task("q1", "c9", [_choice("1")]), _task("q1", "c9", [_choice("2")])], "in task 2"),
        ([_task("q1", "c9", [_choice("1")]), _task("q9", "c1", [_choice("1")])], "task 2:"),
        ([_task("q1", "c9", [{**_choice("1"), "updated_at": 5, "completed_by": 3}])], None),
    ],
    ids=["annotations", "result", "task", "conflict", "unknown question", "numbers"],
)
def test_label_studio_numbers_where_objects_belong(
    tmp_path: Path, tasks: list[object], problem: str | None
) -> None:
    """A task is named by its number, never as a line of the (one-line) export."""
    gold, _ = write_inputs(tmp_path)
    labels = tmp_path / "export.json"
    labels.write_text(json.dumps(tasks))
    out, outcome = _import(tmp_path, gold, labels, "--version", "v2")
    if problem is None:
        assert outcome.code == 0, outcome.stderr
        return
    assert_clean_failure(outcome, where="export.json", problem=problem)
    assert not re.search(r"export\.json:\d", outcome.error_line)
    assert not out.exists()


def test_a_new_gold_set_that_does_not_read_back_is_not_left_behind(tmp_path: Path) -> None:
    """The new file is checked before it is written: a refusal leaves nothing at --out."""
    gold, _ = write_inputs(tmp_path)
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"qid": "q1", "chunk_id": "c9", "grade": 1, "judged_at": 5}\n')
    out, outcome = _import(tmp_path, gold, labels, "--version", "v2")
    if outcome.code != 0:
        assert not out.exists()
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_label_export_never_queues_a_forbidden_chunk(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        '{"id": "q1", "gold": ["c1"], "forbidden": ["c2"]}\n{"id": "q2", "gold": ["c2"]}\n'
    )
    _, run = write_inputs(tmp_path / "in")
    queue = tmp_path / "queue.csv"
    outcome = run_cli(["label", "export", str(gold), f"r={run}", "--out", str(queue)])
    assert outcome.code == 0, outcome.stderr
    assert "q1,,c2" not in queue.read_text() and ",c2," not in queue.read_text()


# latency and cost, clusters, baselines


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("run.jsonl", '{"id": "q1", "chunks": ["c1"], "latency_ms": 1e308}\n'),
        ("run.jsonl", '{"id": "q1", "chunks": ["c1"], "cost": 1.7e308}\n'),
        ("run.csv", "id,chunk_id,rank,latency_ms\nq1,c1,1,1e308\n"),
        ("run.csv", "id,chunk_id,rank,cost\nq1,c1,1,9e307\n"),
    ],
)
def test_latency_and_cost_whose_sums_would_overflow(tmp_path: Path, name: str, text: str) -> None:
    gold, _ = write_inputs(tmp_path)
    run = tmp_path / name
    run.write_text(text + text.splitlines()[-1].replace("q1", "q2").replace("c1", "c2") + "\n")
    outcome = run_cli(["report", str(gold), f"r={run}", "--out", str(tmp_path / "o")])
    assert_clean_failure(outcome, where=name, problem="is not a number from 0 to 1e+15")


def _clustered(tmp_path: Path, kinds: list[str | None], field: str) -> Outcome:
    rows = [
        {"id": f"q{i}", "gold": [f"c{i}"], "doc": "d", **({"kind": kind} if kind else {})}
        for i, kind in enumerate(kinds)
    ]
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps(row) + "\n" for row in rows))
    runs = []
    for name, miss in (("a", 0), ("b", 1)):
        run = tmp_path / f"{name}.jsonl"
        run.write_text(
            "".join(
                json.dumps({"id": f"q{i}", "chunks": ["x" if i == miss else f"c{i}"]}) + "\n"
                for i in range(len(kinds))
            )
        )
        runs.append(f"{name}={run}")
    args = ["report", str(gold), *runs, "--cluster-by", field, "--out", str(tmp_path / "o")]
    return run_cli([*args, "--format", "json", "-q"])


def test_one_cluster_holding_every_question_is_refused(tmp_path: Path) -> None:
    outcome = _clustered(tmp_path, ["a", "a", "a"], "doc")
    assert_clean_failure(outcome, where="--cluster-by doc", problem="one cluster holds every")


@pytest.mark.parametrize("field", ["kind", "question"])
def test_cluster_by_the_gold_fields_kept_in_their_own_columns(tmp_path: Path, field: str) -> None:
    """docs/verdicts.md: any field of the gold records; kind and question included."""
    if field == "question":
        outcome = _clustered(tmp_path, [None, None, None], field)
        assert_clean_failure(outcome, where="--cluster-by question", problem="no question")
        return
    outcome = _clustered(tmp_path, ["a", "a", "b"], field)
    assert outcome.code == 0, outcome.stderr
    report = json.loads((tmp_path / "o" / "report.json").read_text())
    assert report["comparisons"]["method"]["cluster"]["field"] == "kind"
    assert report["comparisons"]["pairs"][0]["clusters"] == 2


@pytest.mark.hand_made_reports  # the tampered baseline
def test_a_baseline_threshold_of_another_type_is_refused(tmp_path: Path) -> None:
    gold, run = write_inputs(tmp_path)
    first = tmp_path / "first"
    args = ["report", str(gold), f"r={run}", "--format", "json", "-q"]
    assert run_cli([*args, "--out", str(first)]).code == 0
    report = json.loads((first / "report.json").read_text())
    report["settings"]["relevance_threshold"] = "1"
    (first / "report.json").write_text(json.dumps(report))
    outcome = run_cli([*args, "--baseline", str(first), "--out", str(tmp_path / "o")])
    assert_clean_failure(outcome, where="report.json", problem="settings.relevance_threshold")


def test_a_full_disk_during_publish_names_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """shutil's copy names its source first: the error must name where it writes."""
    import errno
    import shutil

    gold, run = write_inputs(tmp_path)
    out = tmp_path / "out"
    args = ["report", str(gold), f"r={run}", "--out", str(out), "--version", "v1", "-q"]
    assert run_cli(args).code == 0
    real = shutil.copyfile

    def full(source: str, target: str, **options: object) -> str:
        error = OSError(errno.ENOSPC, "No space left on device")
        error.filename, error.filename2 = str(source), str(target)  # as sendfile's copy does
        raise error

    monkeypatch.setattr(shutil, "copyfile", full)
    site = tmp_path / "site"
    outcome = run_cli(["publish", str(out), "--site", str(site)])
    monkeypatch.setattr(shutil, "copyfile", real)
    assert_clean_failure(outcome, problem="no space left")
    assert outcome.error_line.startswith(f"Error: {site}: ")


def test_an_unreadable_merge_file_is_named_as_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Permission denied on merge/scores.parquet is its access, not a damaged file (the
    message said to measure the shard again)."""
    import errno

    from reportgen.load.previous import merge_data

    path = tmp_path / "merge" / "scores.parquet"
    path.parent.mkdir()
    path.write_bytes(b"PAR1")
    real_open = Path.open

    def denied(self: Path, *args: object, **kwargs: object) -> object:
        if self == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", denied)
    with pytest.raises(InputError) as refused:
        merge_data._frame(path, pl.Schema({"qid": pl.String}))
    assert refused.value.problem == "permission denied"
    assert "read access" in refused.value.fix


def test_a_comparison_whose_questions_share_one_cluster_has_no_mde() -> None:
    """A subset of questions (those two runs share) in one cluster: its variance cannot
    be estimated (infinite), so no mde, and n_needed from the questions' own spread
    (math.ceil of infinity was an OverflowError)."""
    import numpy as np

    from reportgen.analyse.paired import _detectable, _pair

    old = np.array([[0.0], [1.0], [0.0], [1.0]])
    new = np.array([[1.0], [1.0], [0.0], [0.0]])
    pair = _pair(old, new, np.zeros(4, dtype=np.int64))
    mde, needed, _ = _detectable(pair, [False], [0.05], [1.0])
    assert mde == [None]
    assert needed[0] > 0
