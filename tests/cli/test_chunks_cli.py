"""One gold set of evidence spans scores two chunkings, and survives a re-ingestion."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.cli import cli

DOC = "".join(f"{i:03d}," for i in range(250))  # 1000 characters, no passage twice
# SPEC.md's worked example: evidence [100, 200) and [500, 550) of d
GOLD = [
    {"id": "q", "question": "What is in d?", "evidence": [
        {"doc": "d.md", "start": 100, "end": 200},
        {"doc": "d.md", "quote": DOC[500:550]},
    ]},
    {"id": "none", "unanswerable": True},
]  # fmt: skip
SPEC_CHUNKS = {"c1": (0, 250), "c2": (250, 500), "c3": (480, 730), "c4": (730, 1000)}


def jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def chunk_map(path: Path, chunks: dict[str, tuple[int, int]], **extra: str) -> Path:
    rows = [
        {"chunk_id": cid, "doc": "d.md", "start": s, "end": e, "text": DOC[s:e], **extra}
        for cid, (s, e) in chunks.items()
    ]
    return jsonl(path, rows)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "d.md").write_text(DOC)
    jsonl(tmp_path / "gold.jsonl", GOLD)
    chunk_map(tmp_path / "spec.jsonl", SPEC_CHUNKS)
    jsonl(tmp_path / "spec_run.jsonl", [{"id": "q", "chunks": ["c2", "c1", "c3"]}])
    return tmp_path


def report(folder: Path, *args: str, code: int = 0) -> dict[str, Any]:
    out = folder / "out"
    result = CliRunner().invoke(
        cli,
        [
            *("report", str(folder / "gold.jsonl"), *args, "--out", str(out)),
            *("--format", "json", "--k", "1,2,3", "--context-k", "2"),
            *("--docs", str(folder / "docs")),
        ],
    )
    assert result.exit_code == code, result.output
    if code:
        return {"output": result.output}
    loaded: dict[str, Any] = json.loads((out / "report.json").read_text())
    return loaded


def test_the_worked_example_end_to_end(folder: Path) -> None:
    found = report(
        folder, f"spec={folder / 'spec_run.jsonl'}", "--chunks", str(folder / "spec.jsonl")
    )
    means = found["runs"]["spec"]["means"]
    assert means["span_recall@2"] == pytest.approx(100 / 150, abs=1e-9)
    assert means["span_precision@2"] == pytest.approx(0.2, abs=1e-9)
    assert means["span_iou@2"] == pytest.approx(100 / 550, abs=1e-9)
    assert means["context_chars@3"] == 750
    # judgments derived from the evidence: c1 and c3
    assert (means["hit@1"], means["hit@2"], means["recall@2"]) == (0, 1, 0.5)
    assert means["ap@3"] == pytest.approx(0.5833, abs=5e-5)
    assert found["chunkings"]["runs"]["spec"]["derived_judgments"] == 2
    assert found["hygiene"]["manifest"] is not None  # the chunk map serves as the manifest


def test_a_reingestion_that_renames_every_chunk_keeps_every_number(folder: Path) -> None:
    renamed = {f"new-{cid}": span for cid, span in SPEC_CHUNKS.items()}
    chunk_map(folder / "renamed.jsonl", renamed)
    jsonl(folder / "renamed_run.jsonl", [{"id": "q", "chunks": ["new-c2", "new-c1", "new-c3"]}])
    before = report(
        folder, f"a={folder / 'spec_run.jsonl'}", "--chunks", str(folder / "spec.jsonl")
    )
    after = report(
        folder, f"a={folder / 'renamed_run.jsonl'}", "--chunks", str(folder / "renamed.jsonl")
    )
    assert after["gold"]["fingerprint"] == before["gold"]["fingerprint"]
    assert after["runs"]["a"]["means"] == before["runs"]["a"]["means"]


def test_two_chunkings_side_by_side(folder: Path) -> None:
    halves = {"h1": (0, 500), "h2": (500, 1000)}
    chunk_map(folder / "halves.jsonl", halves)
    jsonl(folder / "halves_run.jsonl", [{"id": "q", "chunks": ["h1", "h2"]}])
    found = report(
        folder,
        f"spec={folder / 'spec_run.jsonl'}",
        f"halves={folder / 'halves_run.jsonl'}",
        "--chunks",
        f"spec={folder / 'spec.jsonl'}",
        "--chunks",
        f"halves={folder / 'halves.jsonl'}",
    )
    halves_means = found["runs"]["halves"]["means"]
    # h1 holds [100, 200), h2 holds [500, 550): all 150 characters in 1000 sent
    assert halves_means["span_recall@2"] == 1
    assert halves_means["span_precision@2"] == pytest.approx(0.15)
    assert halves_means["context_chars@2"] == 1000
    pair = found["comparisons"]["pairs"][0]
    assert "span_recall@2" in pair["measures"]
    assert "context_chars@2" not in found["comparisons"]["measures"]


def test_a_stale_document_warns_instead_of_failing(folder: Path) -> None:
    gold = [{"id": "q", "evidence": [{"doc": "d.md", "quote": "not there", "doc_version": "1"}]}]
    gold.append({"id": "r", "evidence": [{"doc": "d.md", "start": 0, "end": 10}]})
    jsonl(folder / "gold.jsonl", gold)
    chunk_map(folder / "v2.jsonl", SPEC_CHUNKS, doc_version="2")
    found = report(
        folder, f"spec={folder / 'spec_run.jsonl'}", "--chunks", str(folder / "v2.jsonl")
    )
    (warning,) = [w for w in found["warnings"] if w["code"] == "stale_evidence"]
    assert "'not there' in d.md" in warning["message"]


@pytest.mark.parametrize(
    ("gold", "args", "message"),
    [
        (
            [{"id": "q7", "evidence": [{"doc": "d.md", "quote": "zzzz"}]}],
            ["--chunks", "{folder}/spec.jsonl"],
            "question q7: the quote 'zzzz' is not in d.md",
        ),
        (
            [{"id": "q7", "evidence": [{"doc": "d.md", "start": 900, "end": 1200}]}],
            ["--chunks", "{folder}/spec.jsonl"],
            "runs past the end of d.md (1000 characters)",
        ),
        (
            [{"id": "q7", "evidence": [{"doc": "d.md", "start": 0, "end": 10}]}],
            [],
            "question q7 has evidence spans and no chunk ids",
        ),
        (GOLD, ["--chunks", "nosuch={folder}/spec.jsonl"], "--chunks nosuch="),
        (GOLD, ["--chunks", "{folder}/spec.jsonl", "--min-coverage", "0"], "--min-coverage 0"),
    ],
)
def test_bad_evidence_or_options_exit_2(
    folder: Path, gold: list[dict[str, Any]], args: list[str], message: str
) -> None:
    jsonl(folder / "gold.jsonl", gold)
    filled = [arg.format(folder=folder) for arg in args]
    found = report(folder, f"spec={folder / 'spec_run.jsonl'}", *filled, code=2)
    assert message in found["output"]
    assert "Traceback" not in found["output"]


def test_merge_recomputes_the_span_means_from_the_shards(folder: Path) -> None:
    # per_question.csv carries the span measures; merge's means of two disjoint shards
    # equal the unsharded report's
    second = {"id": "q2", "evidence": [{"doc": "d.md", "start": 0, "end": 100}]}
    ranked = [{"id": "q", "chunks": ["c2", "c1", "c3"]}, {"id": "q2", "chunks": ["c4", "c1"]}]
    jsonl(folder / "run.jsonl", ranked)
    shards = {"all": [GOLD[0], second, GOLD[1]], "a": [GOLD[0], GOLD[1]], "b": [second]}
    for name, rows in shards.items():
        jsonl(folder / f"gold-{name}.jsonl", rows)
        result = CliRunner().invoke(
            cli,
            [
                *("report", str(folder / f"gold-{name}.jsonl"), f"spec={folder / 'run.jsonl'}"),
                *("--chunks", str(folder / "spec.jsonl"), "--docs", str(folder / "docs")),
                *("--format", "json", "--k", "1,2,3", "--out", str(folder / name)),
            ],
        )
        assert result.exit_code == 0, result.output
    merged = CliRunner().invoke(
        cli,
        [
            *("merge", str(folder / "a" / "per_question.csv")),
            *(str(folder / "b" / "per_question.csv"), "--out", str(folder / "merged")),
        ],
    )
    assert merged.exit_code == 0, merged.output
    whole = json.loads((folder / "all" / "report.json").read_text())["runs"]["spec"]["means"]
    found = json.loads((folder / "merged" / "report.json").read_text())["runs"]["spec"]["means"]
    spans = [key for key in whole if key.startswith(("span_", "context_chars"))]
    assert len(spans) == 4 * 4  # k = 1, 2, 3 and the context k, 5
    assert {key: found[key] for key in spans} == pytest.approx({key: whole[key] for key in spans})
    assert whole["span_recall@2"] == pytest.approx((100 / 150 + 100 / 100) / 2)


@pytest.mark.parametrize(("rule", "cell"), [("any", "retrieved_wrong"), ("all", "missed_wrong")])
def test_the_four_cells_read_the_judgments_derived_on_the_runs_chunking(
    folder: Path, rule: str, cell: str
) -> None:
    # q's evidence makes c1 and c3 relevant on this chunking; the top 2 (c2, c1) holds
    # one of the two: retrieved under "any", not under "all" (issue 16's rule)
    jsonl(folder / "verdicts.jsonl", [{"id": "q", "correct": False}])
    found = report(
        folder,
        f"spec={folder / 'spec_run.jsonl'}",
        *("--chunks", str(folder / "spec.jsonl"), "--verdicts", str(folder / "verdicts.jsonl")),
        *("--retrieved-when", rule),
    )
    cells = found["attribution"]["spec"]
    assert cells["questions"][cell] == ["q"]
    assert cells["by_coverage"]["some"]["questions"] == 1


def test_cost_per_1k_chars_prices_the_characters_sent(folder: Path) -> None:
    """SPEC's worked example at k_ctx = 2: c2 and c1 sent, 250 + 250 = 500 characters;
    at 0.002 per 1,000 characters that is 0.001. The run has no list for the other
    question: no characters known, so its cost is missing, not 0."""
    found = report(
        folder, f"spec={folder / 'spec_run.jsonl'}", "--chunks", str(folder / "spec.jsonl"),
        "--cost-per-1k-chars", "0.002",
    )  # fmt: skip
    run = found["runs"]["spec"]
    assert run["means"]["context_chars@2"] == 500
    assert run["cost"]["count"] == 1 and run["cost"]["missing"] == 1
    assert run["cost"]["p99"] == pytest.approx(0.001)
    assert run["context_size"]["mean"] == 500
    # the text of c2 and c1: "250,251,...,499," then "000,...": one word per chunk
    assert run["context_words"]["mean"] == 2 and run["context_words"]["unit"] == "words"
    assert "latency" not in run


def test_cost_per_1k_chars_needs_a_chunk_map_and_one_source(folder: Path) -> None:
    run = folder / "spec_run.jsonl"
    done = CliRunner().invoke(
        cli,
        ["report", str(folder / "gold.jsonl"), f"spec={run}", "--cost-per-1k-chars", "0.002",
         "--out", str(folder / "o"), "-q"],
    )  # fmt: skip
    assert done.exit_code == 2 and "--chunks" in done.output and "Traceback" not in done.output
    jsonl(run, [{"id": "q", "chunks": ["c2", "c1", "c3"], "cost": 0.5}])
    output = report(
        folder, f"spec={run}", "--chunks", str(folder / "spec.jsonl"),
        "--cost-per-1k-chars", "0.002", code=2,
    )["output"]  # fmt: skip
    assert "keep one source of cost" in output
