"""`reportgen label export` and `import`: the labelling loop from the outside.

One small set: q1 has a judged chunk (grade 0 too), q2 was answered correctly with no
gold chunk sent (missed_correct), q3 is unanswerable. Two runs overlap on some chunks.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.load import load_gold

GOLD = [
    {"_meta": {"version": "v3"}},
    {"id": "q1", "question": "Refunds?", "gold": {"c1": 2, "c7": 0}, "answer": "kept"},
    {"id": "q2", "question": "Shipping?", "gold": ["s1"]},
    {"id": "q3", "question": "Drones?", "unanswerable": True},
]
A = [("q1", ["c9", "c1", "c7", "c3"]), ("q2", ["x1", "x2", "s9"]), ("q3", ["d1", "d2"])]
B = [("q1", ["c3", "c4", "c1"]), ("q2", ["x2", "x5", "x6"]), ("q3", ["d1"])]
VERDICTS = [{"id": "q1", "correct": True}, {"id": "q2", "correct": True}]


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _trec(path: Path, lists: list[tuple[str, list[str]]]) -> Path:
    lines = [
        f"{qid} Q0 {chunk} {rank} {100 - rank} run\n"
        for qid, chunks in lists
        for rank, chunk in enumerate(chunks, start=1)
    ]
    path.write_text("".join(lines))
    return path


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    chunks = [
        {"chunk_id": c, "doc": "d.md", "start": 0, "end": 5, "text": f"text of {c}"}
        for c in ("c3", "x2")
    ]
    return {
        "gold": _jsonl(tmp_path / "gold.jsonl", GOLD),
        "a": _trec(tmp_path / "a.trec", A),
        "b": _trec(tmp_path / "b.trec", B),
        "verdicts": _jsonl(tmp_path / "verdicts.jsonl", VERDICTS),
        "chunks": _jsonl(tmp_path / "chunks.jsonl", chunks),
        "dir": tmp_path,
    }


def _run(*args: object) -> Any:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result


def _export(inputs: dict[str, Path], out: Path, *extra: object) -> list[dict[str, Any]]:
    result = _run(
        "label", "export", inputs["gold"], f"a={inputs['a']}", f"b={inputs['b']}",
        "--context-k", 3, "--out", out, *extra,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    if out.suffix == ".csv":
        return list(csv.DictReader(out.open()))
    if out.suffix == ".json":
        return [task["data"] for task in json.loads(out.read_text())]
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_export_pools_unjudged_pairs_once_in_order(inputs):
    rows = _export(inputs, inputs["dir"] / "q.jsonl", "--verdicts", inputs["verdicts"])
    pairs = [(r["qid"], r["chunk_id"]) for r in rows]
    # q2 is missed_correct (s1 in neither top 3, answer correct): its pairs first, by
    # how many runs returned them (x2: both), then best rank (x1 1, x5 2, s9 and x6 3);
    # then q1's: c3 (b, rank 1), c9 (a, rank 1), c4 (b, rank 2)
    assert pairs == [
        ("q2", "x2"), ("q2", "x1"), ("q2", "x5"), ("q2", "s9"), ("q2", "x6"),
        ("q1", "c3"), ("q1", "c9"), ("q1", "c4"),
    ]  # fmt: skip
    assert len(set(pairs)) == len(pairs)
    # judged pairs (c1 grade 2, c7 grade 0) and the unanswerable q3 are never queued
    assert ("q1", "c7") not in pairs and all(q != "q3" for q, _ in pairs)
    assert rows[0]["missed_correct"] is True and rows[5]["missed_correct"] is False
    assert rows[0]["runs"] == 2 and rows[0]["run_names"] == ["a", "b"]
    assert rows[0]["question"] == "Shipping?" and rows[0]["grade"] is None


def test_export_without_verdicts_orders_by_runs(inputs):
    rows = _export(inputs, inputs["dir"] / "q.jsonl")
    # x2, returned by both runs, first; then rank 1 of one run, by question and chunk
    assert [(r["qid"], r["chunk_id"]) for r in rows[:4]] == [
        ("q2", "x2"), ("q1", "c3"), ("q1", "c9"), ("q2", "x1"),
    ]  # fmt: skip


def test_limit_and_per_question(inputs):
    rows = _export(inputs, inputs["dir"] / "q.jsonl", "--per-question", 1, "--limit", 1)
    assert [(r["qid"], r["chunk_id"]) for r in rows] == [("q2", "x2")]
    rows = _export(inputs, inputs["dir"] / "q.jsonl", "--per-question", 2)
    assert sorted(r["qid"] for r in rows) == ["q1", "q1", "q2", "q2"]


def test_chunk_text_from_the_chunk_map_and_csv_has_an_empty_grade(inputs):
    rows = _export(inputs, inputs["dir"] / "q.csv", "--chunks", inputs["chunks"])
    by_pair = {(r["qid"], r["chunk_id"]): r for r in rows}
    assert by_pair["q1", "c3"]["chunk_text"] == "text of c3"
    assert by_pair["q1", "c9"]["chunk_text"] == ""
    assert {r["grade"] for r in rows} == {""}


def test_label_studio_tasks(inputs):
    data = _export(inputs, inputs["dir"] / "tasks.json", "--chunks", inputs["chunks"])
    assert data[0]["chunk_text"] == "text of x2" and "grade" not in data[0]
    assert data[2]["chunk_id"] == data[2]["chunk_text"] == "c9"  # no text: the id is shown


def _labels_csv(path: Path, rows: list[dict[str, Any]], grades: dict[tuple[str, str], str]):
    for row in rows:
        row["grade"] = grades.get((row["qid"], row["chunk_id"]), "")
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_the_loop_jsonl(inputs):
    d = inputs["dir"]
    rows = _export(inputs, d / "q.csv")
    c3 = next(row for row in rows if row["chunk_id"] == "c3")
    c3["judged_by"], c3["judged_at"] = "ann", "2026-12-01"
    labels = _labels_csv(d / "labels.csv", rows, {("q1", "c3"): "1", ("q1", "c9"): "0"})
    result = _run("label", "import", inputs["gold"], labels, "--out", d / "gold2.jsonl")
    assert result.exit_code == 0, result.output
    assert "1 question(s) changed, 2 judgment(s) added" in result.output
    before, after = load_gold(inputs["gold"]), load_gold(d / "gold2.jsonl")
    assert after.version == "v4"  # bumped from v3
    assert after.fingerprint != before.fingerprint
    assert f"{before.fingerprint} -> {after.fingerprint}" in result.output
    # only the labelled question changes
    changed = {
        q
        for q in before.question_digests
        if before.question_digests[q] != after.question_digests[q]
    }
    assert changed == {"q1"}
    grades = {(q, c): g for q, c, g in after.judgments.iter_rows()}
    assert grades["q1", "c3"] == 1 and grades["q1", "c9"] == 0 and grades["q1", "c7"] == 0
    record = json.loads((d / "gold2.jsonl").read_text().splitlines()[1])
    assert record["provenance"] == {"c3": {"judged_by": "ann", "judged_at": "2026-12-01"}}
    assert record["answer"] == "kept"  # keys reportgen does not read survive
    # untouched lines stay byte for byte
    assert (d / "gold2.jsonl").read_text().splitlines()[2:] == inputs[
        "gold"
    ].read_text().splitlines()[2:]
    # a second export finds none of the pairs just labelled
    again = _export({**inputs, "gold": d / "gold2.jsonl"}, d / "q2.jsonl")
    pairs = {(r["qid"], r["chunk_id"]) for r in again}
    assert not pairs & {("q1", "c3"), ("q1", "c9")} and len(again) == len(rows) - 2


def test_import_version_given_and_qrels_and_csv_gold(inputs, tmp_path):
    d = inputs["dir"]
    rows = _export(inputs, d / "q.csv")
    labels = _labels_csv(d / "labels.csv", rows, {("q1", "c3"): "0"})
    result = _run(
        "label", "import", inputs["gold"], labels, "--out", d / "g.jsonl", "--version", "2027-a"
    )
    assert result.exit_code == 0 and load_gold(d / "g.jsonl").version == "2027-a"

    qrels = tmp_path / "gold.qrels"
    qrels.write_text("q1 0 c1 2\nq1 0 c7 0\nq2 0 s1 1\n")
    result = _run(
        "label", "import", qrels, labels, "--out", d / "g.qrels", "--gold-format", "qrels"
    )
    assert result.exit_code == 0, result.output
    assert (d / "g.qrels").read_text().endswith("q1 0 c3 0\n")
    assert load_gold(d / "g.qrels", "qrels").judgments.height == 4

    gold_csv = tmp_path / "gold.csv"
    gold_csv.write_text("qid,chunk_id,question\nq1,c1,Refunds?\nq2,s1,Shipping?\n")
    result = _run("label", "import", gold_csv, labels, "--out", d / "g.csv")
    assert result.exit_code == 0, result.output
    grades = {(q, c): g for q, c, g in load_gold(d / "g.csv").judgments.iter_rows()}
    assert grades == {("q1", "c1"): 1, ("q2", "s1"): 1, ("q1", "c3"): 0}


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (
            '{"qid": "q1", "chunk_id": "c3", "grade": 1}\n'
            '{"qid": "q1", "chunk_id": "c3", "grade": 0}\n',
            "labels.jsonl:2: question q1 chunk c3 is graded 0 here and 1 on line 1",
        ),
        ('{"qid": "q1", "chunk_id": "c1", "grade": 0}\n', "is graded 0 here and 2 in the gold set"),
        ('{"qid": "q9", "chunk_id": "c1", "grade": 0}\n', "question q9 is not in the gold set"),
        ('{"qid": "q3", "chunk_id": "d1", "grade": 1}\n', "question q3 is unanswerable"),
        ('{"qid": "q1", "chunk_id": "c3", "grade": "yes"}\n', "grade 'yes' is not a whole number"),
        ('{"qid": "q1", "chunk_id": "c3", "grade": null}\n', "no graded label in the file"),
        ('{"qid": "q1", "chunk_id": "c3", "grade": -1}\n', "grade -1 is below 0"),
    ],
)
def test_import_refuses_bad_labels(inputs, labels, message):
    d = inputs["dir"]
    (d / "labels.jsonl").write_text(labels)
    result = _run("label", "import", inputs["gold"], d / "labels.jsonl", "--out", d / "g.jsonl")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output and not (d / "g.jsonl").exists()


def test_never_overwrites_an_input(inputs):
    d = inputs["dir"]
    (d / "labels.jsonl").write_text('{"qid": "q1", "chunk_id": "c3", "grade": 1}\n')
    before = inputs["gold"].read_bytes()
    result = _run("label", "import", inputs["gold"], d / "labels.jsonl", "--out", inputs["gold"])
    assert result.exit_code == 2 and "is the gold set" in result.output
    assert inputs["gold"].read_bytes() == before
    result = _run("label", "export", inputs["gold"], inputs["a"], "--out", inputs["a"])
    assert result.exit_code == 2 and "is run" in result.output


def test_label_studio_export_round_trip(inputs):
    d = inputs["dir"]
    data = _export(inputs, d / "t.json")
    exported = [
        {
            "id": i,
            "data": task,
            "annotations": [
                {
                    "result": [{"from_name": "grade", "to_name": "chunk", "type": "choices",
                                "value": {"choices": [str(i % 3)]}}],
                    "completed_by": {"email": "ann@example.com"},
                    "updated_at": "2026-12-01T10:00:00Z",
                    "was_cancelled": False,
                },
                {"result": [], "was_cancelled": True},
            ],
        }
        for i, task in enumerate(data[:3])
    ]  # fmt: skip
    (d / "export.json").write_text(json.dumps(exported))
    result = _run("label", "import", inputs["gold"], d / "export.json", "--out", d / "g.jsonl")
    assert result.exit_code == 0, result.output
    after = load_gold(d / "g.jsonl")
    grades = {(q, c): g for q, c, g in after.judgments.iter_rows()}
    for i, task in enumerate(data[:3]):
        assert grades[task["qid"], task["chunk_id"]] == i % 3
    records = [json.loads(line) for line in (d / "g.jsonl").read_text().splitlines()[1:]]
    record = next(r for r in records if r["id"] == data[0]["qid"])
    assert record["provenance"][data[0]["chunk_id"]]["judged_by"] == "ann@example.com"


def test_texts_from_a_trace_file(inputs):
    d = inputs["dir"]
    trace = [
        {"id": "q1", "question": "Refunds, from the trace?", "gold": {"c1": 2, "c7": 0},
         "retrieved": [{"id": "c9", "text": "nine", "score": 0.9}, "c1"], "correct": True},
        {"id": "q4", "question": "Only in the trace", "gold": ["z1"],
         "retrieved": [{"chunk_id": "z2", "page_content": "zed two"}], "correct": True},
    ]  # fmt: skip
    _jsonl(d / "trace.jsonl", trace)
    # a trace as the gold set (it is gold set, run and verdicts): its texts fill the queue
    result = _run("label", "export", d / "trace.jsonl", "--out", d / "t.jsonl")
    assert result.exit_code == 0, result.output
    rows = {r["chunk_id"]: r for r in map(json.loads, (d / "t.jsonl").read_text().splitlines())}
    assert rows["c9"]["chunk_text"] == "nine"
    assert rows["c9"]["question"] == "Refunds, from the trace?"
    assert rows["z2"]["question"] == "Only in the trace" and rows["z2"]["chunk_text"] == "zed two"
    assert rows["z2"]["missed_correct"] is True  # the trace's verdict: correct, z1 not sent
