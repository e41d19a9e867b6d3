"""The documentation tells the truth: its examples load, run and print what it says.

Fenced blocks tagged ``file=NAME`` are files (written out and loaded); ``python``
blocks run, and each ``print(...)  # value`` must print that value. The CI recipes are
checked like this repository's own workflows, in tests/ci/test_workflow_lint.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import ReportOutputs, demo_request, load_runs, make_report
from reportgen.cli import cli
from reportgen.load import load_gold, load_verdicts

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```", re.S | re.M)


def blocks(page: str) -> list[tuple[str, dict[str, str], str]]:
    """(language, attributes, body) of every fenced block of a docs page."""
    found = []
    for language, info, body in FENCE.findall((DOCS / page).read_text(encoding="utf-8")):
        attributes = dict(re.findall(r"(\w+)=(\S+)", info))
        found.append((language, attributes, body))
    return found


HEREDOC = re.compile(r"^cat > (\S+) <<'EOF'\n(.*?)^EOF$", re.S | re.M)
"""A file a shell block writes, as the quickstart writes its inputs."""


def write_files(page: str, folder: Path) -> list[Path]:
    """The files a page's blocks hold: ``lang file=NAME`` blocks and ``sh`` here-documents."""
    found = []
    for language, attributes, body in blocks(page):
        if "file" in attributes:
            found.append((attributes["file"], body))
        elif language == "sh":
            found += HEREDOC.findall(body)
    written = []
    for name, body in found:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
        written.append(path)
    return written


def test_every_page_is_linked_from_the_index_and_every_link_resolves() -> None:
    pages = sorted(path.name for path in DOCS.glob("*.md"))
    index = (DOCS / "index.md").read_text()
    assert [page for page in pages if page != "index.md" and f"]({page})" not in index] == []
    for page in pages:
        for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", (DOCS / page).read_text()):
            assert (DOCS / target).is_file(), f"{page} links to missing {target}"


def test_input_examples_load(tmp_path: Path) -> None:
    files = write_files("inputs.md", tmp_path)
    golds = [path for path in files if path.stem == "gold"]
    runs = [path for path in files if path.parent.name == "runs"]
    assert len(golds) == 3 and len(runs) == 5
    for path in golds:
        gold = load_gold(path)
        assert gold.judgments.height >= 3, path.name
    loaded = load_runs([str(path) for path in runs])
    assert [run.results.height for run in loaded] == [3, 4, 2, 3, 3]
    verdicts = [load_verdicts(path) for path in files if path.stem == "verdicts"]
    assert [verdict_set.rows.height for verdict_set in verdicts] == [3, 3]


def test_trec_eval_shard_example_merges(tmp_path: Path) -> None:
    # map (0.25 + 1) / 2 = 0.625, as the example's own `all` line says
    (shard,) = [path for path in write_files("inputs.md", tmp_path) if path.suffix == ".txt"]
    result = CliRunner().invoke(
        cli, ["merge", str(shard), "--out", str(tmp_path / "report"), "--trec-eval"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    assert report["runs"]["bm25"]["means"] == {"hit@1": 0.5, "mrr": 0.75, "ap": 0.625}
    assert report["k"] == [1]


def test_python_examples_run_and_print_what_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files("quickstart.md", tmp_path)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}  # one for the page: its cells run in order, as a notebook's
    for language, _, body in blocks("python-api.md"):
        if language != "python":
            continue
        prints = [line for line in body.splitlines() if line.lstrip().startswith("print(")]
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(body, "python-api.md", "exec"), namespace)
        lines = printed.getvalue().splitlines()
        assert len(lines) == len(prints)  # one line per print()
        for line, output in zip(prints, lines, strict=True):
            said = re.search(r"\)\s+#\s+(.+)$", line)
            if said:
                assert output == said.group(1), line


def test_ci_page_lists_every_input_and_output_of_the_action() -> None:
    action = (REPO / "action.yml").read_text()
    page = (DOCS / "ci.md").read_text()
    section = action.split("\noutputs:\n")
    inputs = re.findall(r"^  ([\w-]+):$", section[0].split("\ninputs:\n")[1], re.M)
    outputs = re.findall(r"^  ([\w-]+):$", section[1].split("\nruns:\n")[0], re.M)
    assert len(inputs) == 28 and len(outputs) == 9
    for name in [*inputs, *outputs]:
        assert f"| `{name}` |" in page, name


def test_report_json_page_documents_every_top_level_key(tmp_path: Path) -> None:
    report = make_report(demo_request(ReportOutputs(tmp_path / "demo"))).report
    page = (DOCS / "report-json.md").read_text()
    example = json.loads(
        next(body for language, _, body in blocks("report-json.md") if language == "json")
    )
    assert set(example) == set(report)
    for key in report:
        assert f"| `{key}`" in page or f"| `{key}." in page or key in {"k", "context_k"}, key


def test_report_json_page_carries_the_format_history() -> None:
    import reportgen.report.assemble

    history = re.findall(r"^\s+(\d+) - (.+)$", reportgen.report.assemble.__doc__ or "", re.M)
    page = (DOCS / "report-json.md").read_text()
    assert history
    for version, _ in history:
        assert f"- **{version}**:" in page


def test_evidence_span_example_runs(tmp_path: Path) -> None:
    write_files("inputs.md", tmp_path)
    spans = tmp_path / "spans"
    out = tmp_path / "report"
    result = CliRunner().invoke(
        cli,
        [
            *("report", str(spans / "gold-spans.jsonl"), f"small={spans / 'run-small.jsonl'}"),
            *("--chunks", str(spans / "chunks-small.csv"), "--docs", str(spans / "docs")),
            *("--out", str(out), "--format", "json", "--k", "1,2", "--context-k", "2"),
        ],
    )
    assert result.exit_code == 0, result.output
    means = json.loads((out / "report.json").read_text())["runs"]["small"]["means"]
    # q1: [0, 34) lies in s1 (35 characters), ranked first; q2's quote [35, 67) in s2, second
    assert means["mrr"] == 0.75
    assert means["span_recall@1"] == 0.5
    assert means["span_precision@1"] == round((34 / 35 + 0) / 2, 10)
