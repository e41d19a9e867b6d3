"""docs/gold.md tells the truth: its labelling loop runs, command by command, and prints
what the page says."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.load import load_gold
from tests.docs.test_docs_pages import blocks, write_files


def test_the_labelling_loop_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    write_files("gold.md", tmp_path)
    monkeypatch.chdir(tmp_path)
    page = (Path(__file__).resolve().parents[2] / "docs" / "gold.md").read_text()
    commands = [body.strip() for language, _, body in blocks("gold.md") if language == "shell"]
    assert len(commands) == 4
    outputs = []
    for command in commands:
        args = shlex.split(command)
        assert args[0] == "reportgen"
        result = CliRunner().invoke(cli, args[1:])
        assert result.exit_code == 0, (command, result.output)
        outputs.append(result.output.strip())
    # the printed line the page quotes, and the queue's first line it shows
    quoted = re.search(r"It prints `(queue\.jsonl: [^`]*)`", page.replace("\n", " "))
    assert quoted is not None and outputs[0] == quoted[1]
    (shown,) = [body for language, _, body in blocks("gold.md") if language == "json"]
    queue = [json.loads(line) for line in Path("queue.jsonl").read_text().splitlines()]
    assert queue[0] == json.loads(shown)
    # every label is a pair of the queue; the new gold set has them; a second export none
    labels = [json.loads(line) for line in Path("labels.jsonl").read_text().splitlines()]
    labelled = {(label["qid"], label["chunk_id"]) for label in labels}
    assert labelled <= {(row["qid"], row["chunk_id"]) for row in queue}
    gold = load_gold("gold-v2.jsonl")
    assert gold.version == "v2"
    assert labelled <= set(gold.judgments.select("qid", "chunk_id").iter_rows())
    again = [json.loads(line) for line in Path("queue-2.jsonl").read_text().splitlines()]
    assert not labelled & {(row["qid"], row["chunk_id"]) for row in again}
    assert len(again) == len(queue) - len(labelled)
    assert "2 question(s) changed" in outputs[1]
    report = json.loads(Path("report/report.json").read_text())
    section = report["secondary_judgments"]
    assert section["agreement"]["pairs"] == 1  # c7: graded 0 by both
    assert (
        section["runs"]["bm25"]["human"]["recall@3"] == report["runs"]["bm25"]["means"]["recall@3"]
    )


def test_the_ppi_worked_example_prints_what_the_page_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    write_files("gold.md", tmp_path)
    monkeypatch.chdir(tmp_path)
    page = (Path(__file__).resolve().parents[2] / "docs" / "gold.md").read_text()
    (command,) = [
        body.strip()
        for language, attributes, body in blocks("gold.md")
        if language == "text" and "file" not in attributes and "ppi/gold.jsonl" in body
    ]
    result = CliRunner().invoke(cli, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    report = json.loads(Path("ppi/report/report.json").read_text())
    stated = re.search(r'`secondary_judgments\.ppi\.r\["hit@2"\]` is then `(\{[^`]*\})`', page)
    assert stated is not None
    assert report["secondary_judgments"]["ppi"]["r"]["hit@2"] == json.loads(stated[1])
