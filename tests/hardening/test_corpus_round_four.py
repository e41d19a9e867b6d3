"""Bad input on the newest surfaces, round four (issue 39): each case a finding of the
held-out corpora, through the real CLI or API, as exit 2 and one line in the house form
(``file[:line]: problem. Fix: ...``), never exit 3."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

import reportgen
from reportgen.core.model import ChunkMap
from reportgen.errors import InputError, UsageError
from reportgen.report.labelling import chunk_texts
from tests.hardening.corpus import assert_clean_failure, run_cli, write_inputs

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


def test_the_api_refusing_a_verdicts_dataframe_offers_no_dataframe() -> None:
    frame = pl.DataFrame({"id": ["q1"], "correct": [True]})
    with pytest.raises(UsageError) as refused:
        reportgen.evaluate({"q1": ["c1"]}, {"q1": ["c1"]}, verdicts=frame)
    assert "DataFrame" not in refused.value.fix.split("(")[0]
    assert "dict" in refused.value.fix
