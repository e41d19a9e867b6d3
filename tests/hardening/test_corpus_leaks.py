"""The adversarial corpus, "never lose or leak": outputs never land on inputs, hostile
text never becomes markup, --report-url never becomes a script.

Each case asserts the exit code, the message's form and that the previous ``--out`` is
byte-identical (issue 13), through the real CLI.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.hardening.corpus import (
    GOOD_GOLD,
    GOOD_RUN,
    assert_clean_failure,
    previous_report,
    run_cli,
    snapshot,
    write_inputs,
)
from tests.render.markdown_check import assert_well_formed, render

CONFIG = b'[tool.reportgen]\nmin = { "recall@5" = 0.1 }\n'
VERDICTS = b'{"id": "q1", "correct": true}\n{"id": "q2", "correct": false}\n'
MANIFEST = b"c1\nc2\n"


@dataclass(frozen=True)
class Collision:
    """A command whose output would land on one of its inputs, set up inside ``out``.

    ``setup(out, elsewhere)`` places the inputs (in ``out``, or in ``elsewhere`` with
    links in ``out``) and returns the arguments; ``where`` is the input the error names.
    """

    name: str
    setup: Callable[[Path, Path], list[str]]
    where: str
    role: str


def _gold_is_report_json(out: Path, elsewhere: Path) -> list[str]:
    """The issue's case: ``report D/report.json bm25=D/run.trec --out D``."""
    (out / "report.json").write_bytes(GOOD_GOLD)
    (out / "run.jsonl").write_bytes(GOOD_RUN)
    return ["report", f"{out}/report.json", f"r={out}/run.jsonl", "--gold-format", "jsonl"]


def _run_is_per_question_csv(out: Path, elsewhere: Path) -> list[str]:
    gold, _ = write_inputs(elsewhere)
    (out / "per_question.csv").write_bytes(b"id,chunk_id,rank\nq1,c1,1\nq2,c2,1\n")
    return ["report", str(gold), f"r={out}/per_question.csv"]


def _run_is_index_html(out: Path, elsewhere: Path) -> list[str]:
    gold, _ = write_inputs(elsewhere)
    (out / "index.html").write_bytes(GOOD_RUN)
    return ["report", str(gold), f"r={out}/index.html", "--run-format", "jsonl"]


def _verdicts_are_report_md(out: Path, elsewhere: Path) -> list[str]:
    gold, run = write_inputs(elsewhere)
    (out / "report.md").write_bytes(VERDICTS)
    return [
        *("report", str(gold), f"r={run}"),
        *("--verdicts", f"{out}/report.md", "--verdict-format", "jsonl"),
    ]


def _manifest_is_summary_md(out: Path, elsewhere: Path) -> list[str]:
    gold, run = write_inputs(elsewhere)
    (out / "summary.md").write_bytes(MANIFEST)
    return ["report", str(gold), f"r={run}", "--manifest", f"{out}/summary.md"]


def _manifest_is_a_chart(out: Path, elsewhere: Path) -> list[str]:
    gold, run = write_inputs(elsewhere)
    (out / "charts" / "recall_at_k.svg").write_bytes(MANIFEST)
    return [
        "report",
        *(str(gold), f"r={run}", "--manifest", f"{out}/charts/recall_at_k.svg"),
        *("--manifest-format", "lines"),
    ]


def _config_is_report_md(out: Path, elsewhere: Path) -> list[str]:
    gold, run = write_inputs(elsewhere)
    (out / "report.md").write_bytes(CONFIG)
    return ["report", str(gold), f"r={run}", "--config", f"{out}/report.md"]


def _baseline_is_out(out: Path, elsewhere: Path) -> list[str]:
    """``--baseline D --out D``: the report would replace what it is compared with."""
    gold, run = write_inputs(out.parent / "inputs")
    return ["report", str(gold), f"r={run}", "--baseline", str(out)]


def _baseline_report_json_in_out(out: Path, elsewhere: Path) -> list[str]:
    gold, run = write_inputs(out.parent / "inputs")
    return ["report", str(gold), f"r={run}", "--baseline", f"{out}/report.json"]


def _output_is_a_symlink_to_gold(out: Path, elsewhere: Path) -> list[str]:
    gold, run = write_inputs(elsewhere)
    (out / "report.md").unlink()
    (out / "report.md").symlink_to(gold)
    return ["report", str(gold), f"r={run}"]


def _gold_is_a_symlink_into_out(out: Path, elsewhere: Path) -> list[str]:
    (out / "report.json").write_bytes(GOOD_GOLD)
    _, run = write_inputs(elsewhere)
    link = elsewhere / "gold.jsonl"
    link.unlink()
    link.symlink_to(out / "report.json")
    return ["report", str(link), f"r={run}"]


def _output_is_a_hard_link_of_the_run(out: Path, elsewhere: Path) -> list[str]:
    gold, run = write_inputs(elsewhere)
    (out / "index.html").unlink()
    os.link(run, out / "index.html")
    return ["report", str(gold), f"r={run}"]


def _merge_into_a_shard(out: Path, elsewhere: Path) -> list[str]:
    """A shard of other questions (q3, q4) beside the previous report's (q1, q2)."""
    gold, run = elsewhere / "gold.jsonl", elsewhere / "run.jsonl"
    gold.write_bytes(GOOD_GOLD.replace(b"q", b"x"))
    run.write_bytes(GOOD_RUN.replace(b"q", b"x"))
    other = elsewhere / "shard"
    outcome = run_cli(["report", str(gold), f"r={run}", "--out", str(other), "--quiet"])
    assert outcome.code == 0, outcome.stderr
    return ["merge", str(out), str(other)]


def _merge_shard_file_in_out(out: Path, elsewhere: Path) -> list[str]:
    return ["merge", f"{out}/per_question.csv"]


def _demo_over_a_link_to_its_example(out: Path, elsewhere: Path) -> list[str]:
    from reportgen.api import example_dir

    (out / "summary.md").unlink()
    (out / "summary.md").symlink_to(example_dir() / "gold.jsonl")
    return ["demo"]


COLLISIONS = [
    Collision("gold-is-report-json", _gold_is_report_json, "out/report.json", "the gold set"),
    Collision("run-is-per-question-csv", _run_is_per_question_csv, "out/per_question.csv", "run"),
    Collision("run-is-index-html", _run_is_index_html, "out/index.html", "run 'r'"),
    Collision("verdicts-are-report-md", _verdicts_are_report_md, "out/report.md", "the verdicts"),
    Collision("manifest-is-summary-md", _manifest_is_summary_md, "out/summary.md", "manifest"),
    Collision("manifest-is-a-chart", _manifest_is_a_chart, "charts/recall_at_k.svg", "manifest"),
    Collision("config-is-report-md", _config_is_report_md, "out/report.md", "the config file"),
    Collision("baseline-is-out", _baseline_is_out, "out/report.json", "the baseline"),
    Collision("baseline-json-in-out", _baseline_report_json_in_out, "out/report.json", "baseline"),
    Collision("symlink-to-gold", _output_is_a_symlink_to_gold, "gold.jsonl", "symbolic link"),
    Collision("gold-links-into-out", _gold_is_a_symlink_into_out, "gold.jsonl", "symbolic link"),
    Collision("hard-link-of-run", _output_is_a_hard_link_of_the_run, "run.jsonl", "hard link"),
    Collision("merge-into-a-shard", _merge_into_a_shard, "out/per_question.csv", "the shard"),
    Collision("merge-shard-file", _merge_shard_file_in_out, "out/per_question.csv", "the shard"),
    Collision("demo-link-to-example", _demo_over_a_link_to_its_example, "gold.jsonl", "gold"),
]


@pytest.fixture(scope="module")
def written_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One previous report for every case (each gets its own copy)."""
    return previous_report(tmp_path_factory.mktemp("previous"))


@pytest.mark.hand_made_reports
@pytest.mark.parametrize("case", COLLISIONS, ids=lambda case: case.name)
def test_an_output_never_lands_on_an_input(
    case: Collision, written_once: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    shutil.copytree(written_once, out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    args = case.setup(out, elsewhere)
    before, inputs_before = snapshot(out), snapshot(elsewhere)
    outcome = run_cli([*args, "--out", str(out), "--quiet"])
    assert_clean_failure(outcome, 2, where=case.where, problem="would be overwritten")
    assert case.role in outcome.error_line
    assert str(out) in outcome.error_line  # the output's path, beside the input's
    assert snapshot(out) == before
    assert snapshot(elsewhere) == inputs_before


def test_inputs_beside_the_outputs_are_fine(tmp_path: Path) -> None:
    """An input in --out under a name reportgen does not write is read, and kept."""
    out = previous_report(tmp_path)
    gold, run = write_inputs(out)
    outcome = run_cli(["report", str(gold), f"r={run}", "--out", str(out), "--quiet"])
    assert outcome.code == 0, outcome.stderr
    assert gold.read_bytes() == GOOD_GOLD and run.read_bytes() == GOOD_RUN


def test_a_baseline_elsewhere_then_replaced_by_hand(tmp_path: Path) -> None:
    """The documented way to keep one folder: write beside it, then move it in place."""
    out = previous_report(tmp_path)
    gold, run = write_inputs(tmp_path / "inputs")
    new = tmp_path / "new"
    outcome = run_cli(
        ["report", str(gold), f"r={run}", "--baseline", str(out), "--out", str(new), "--quiet"]
    )
    assert outcome.code == 0, outcome.stderr
    assert "baseline" in (new / "report.json").read_text()


# --report-url: refused before any work, the previous report kept.

REFUSED_URLS = [
    "javascript:alert(document.domain)",
    "JAVASCRIPT:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "//evil.example/report",
    "java\tscript:alert(1)",
    "\\\\evil.example\\share",
    " javascript:alert(1)",
]


@pytest.mark.parametrize("command", ["report", "demo"])
@pytest.mark.parametrize("url", REFUSED_URLS)
def test_a_report_url_that_is_no_web_page_is_refused(
    url: str, command: str, written_once: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    shutil.copytree(written_once, out)
    gold, run = write_inputs(tmp_path / "inputs")
    args = ["report", str(gold), f"r={run}"] if command == "report" else ["demo"]
    before = snapshot(out)
    outcome = run_cli([*args, "--out", str(out), "--report-url", url, "--quiet"])
    assert_clean_failure(outcome, 2, where="--report-url", problem="--report-url")
    assert snapshot(out) == before


# Hostile text in ids, run names, kinds, questions and the version: the HTML, report.md
# and summary.md have exactly the elements a harmless report has.

HOSTILE_TEXTS = [
    "a|b||c \\| d",
    "`code` ``` ~~~ x",
    "</details><details open><summary>x</summary>",
    "<!-- hidden --> -->",
    '"] --> B["x %%{init: {}}%% title "t"',
    "```mermaid\nflowchart LR\nA-->B",
    "<script>alert(1)</script><img src=x onerror=alert(1)>",
    "[link](javascript:alert(1)) ![i](https://x.example/i.png)",
    "@octocat #1 **bold** _it_ # heading",
    '=HYPERLINK("https://x.example","click")',
    "-1+2 @SUM(A1) '=x",
]
VERSION = "1.0-rc+__x__"
"""Markdown's emphasis and list syntax, within the letters publish accepts."""


def _report_with(texts: list[str], version: str, folder: Path) -> Path:
    """A report with a question per text (its id, kind and question) and a run named
    after each text, beside a plain question and a plain run."""
    folder.mkdir(parents=True, exist_ok=True)
    ids = [f"q{i} {text}".replace("\n", " ") for i, text in enumerate(texts)]  # no control
    gold = [
        {"id": qid, "gold": ["c1"], "kind": f"k{i} {text}", "question": text}
        for i, (qid, text) in enumerate(zip(ids, texts, strict=True))
    ]
    gold.append({"id": "plain", "gold": ["c2"], "kind": "plain", "question": "fine"})
    run = [{"id": qid, "chunks": ["c1", "c2"]} for qid in ids]
    run.append({"id": "plain", "chunks": ["c3", "c2"]})
    verdicts = [{"id": qid, "correct": False} for qid in ids] + [{"id": "plain", "correct": True}]
    for name, lines in (("gold", gold), ("run", run), ("verdicts", verdicts)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    # NAME=PATH splits at the first '='
    names = [f"r{i} {text}".replace("\n", " ").replace("=", "-") for i, text in enumerate(texts)]
    out = folder / "out"
    outcome = run_cli(
        [
            *("report", str(folder / "gold.jsonl")),
            *(f"{name}={folder / 'run.jsonl'}" for name in [*names, "plain"]),
            *("--verdicts", str(folder / "verdicts.jsonl"), "--verdicts-run", "plain"),
            *("--version", version, "--out", str(out), "--quiet"),
        ]
    )
    assert outcome.code == 0, outcome.stderr
    assert "Traceback" not in outcome.stderr
    return out


class _Elements(HTMLParser):
    """Every element and comment of an HTML page, counted."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found[tag] += 1

    def handle_comment(self, data: str) -> None:
        self.found["<!-- -->"] += 1


def _elements(html: str) -> Counter[str]:
    reader = _Elements()
    reader.feed(html)
    return reader.found


def _structure(out: Path) -> dict[str, Counter[str]]:
    """The elements of each page as a browser and GitHub would build them."""
    return {
        "index.html": _elements((out / "index.html").read_text()),
        "report.md": _elements(render((out / "report.md").read_text()).html),
        "summary.md": _elements(render((out / "summary.md").read_text()).html),
    }


@pytest.mark.slow
def test_hostile_texts_make_no_element_anywhere(tmp_path: Path) -> None:
    """Every text at once: the pages have the elements of the same report, harmless."""
    plain = [f"harmless {i}" for i, _ in enumerate(HOSTILE_TEXTS)]
    harmless = _report_with(plain, "v1", tmp_path / "a")
    hostile = _report_with(HOSTILE_TEXTS, VERSION, tmp_path / "b")
    assert _structure(hostile) == _structure(harmless)
    assert_well_formed((hostile / "summary.md").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_each_hostile_text_makes_no_element_anywhere(text: str, tmp_path: Path) -> None:
    """One text at a time, so that a failure names it."""
    harmless = _report_with(["harmless"], "v1", tmp_path / "a")
    hostile = _report_with([text], VERSION, tmp_path / "b")
    assert _structure(hostile) == _structure(harmless)
    assert_well_formed((hostile / "summary.md").read_text())


def test_formula_ids_pair_again_as_a_baseline_and_merge_back(tmp_path: Path) -> None:
    """Through the real writer and readers: the CSV's quoted cells pair with the new run."""
    ids = ['=HYPERLINK("https://x.example")', "+1", "-2", "@SUM(A1)", "'=x", "'q"]
    gold, run = tmp_path / "gold.jsonl", tmp_path / "run.jsonl"
    gold.write_text("".join(json.dumps({"id": q, "gold": ["c1"], "kind": q}) + "\n" for q in ids))
    run.write_text("".join(json.dumps({"id": q, "chunks": ["c1"]}) + "\n" for q in ids))
    first, second, merged = tmp_path / "first", tmp_path / "second", tmp_path / "merged"
    runs = [f"+cmd={run}", f"@r={run}"]
    assert run_cli(["report", str(gold), *runs, "--out", str(first), "-q"]).code == 0
    table = list(csv.reader(io.StringIO((first / "per_question.csv").read_text(), newline="")))
    assert all(cell[:1] not in "=+-@\t\r" for row in table for cell in row)
    assert "''=x" in {row[1] for row in table}
    outcome = run_cli(
        ["report", str(gold), *runs, "--baseline", str(first), "--out", str(second), "-q"]
    )
    assert outcome.code == 0, outcome.stderr
    baseline = json.loads((second / "report.json").read_text())["baseline"]
    assert [entry["n"] for entry in baseline["comparisons"]] == [len(ids)] * 2  # all paired
    assert run_cli(["merge", str(first), "--out", str(merged), "--quiet"]).code == 0
    lines = sorted((merged / "per_question.csv").read_text().splitlines())
    assert lines == sorted((first / "per_question.csv").read_text().splitlines())
