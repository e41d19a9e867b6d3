"""reportgen's own files, read back after someone changed them (issue 39).

`render` and `--baseline` read report.json, merge reads shards' report.json, cut.json
and merge/shard.json, baselines and shards read the per-question file. Each case edits
one value of a good file the way a hand, a tool or a pull request could (text where a
number belongs, a list where an object belongs, a 400-digit count, a negative
latency, a cut into 10^12 shards) and expects bad input: exit 2, one line naming the
file and the key or line, never exit 3 and never the value used.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reportgen.schema.check import SchemaProblem, check_report
from tests.hardening.corpus import assert_clean_failure, run_cli

pytestmark = pytest.mark.hand_made_reports  # tampered report.json files, on purpose

GOLD = b'{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": ["c2"]}\n'
RUN = (
    b'{"id": "q1", "chunks": ["c1", "c2"], "latency_ms": 5}\n'
    b'{"id": "q2", "chunks": ["c2"], "latency_ms": 7}\n'
)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One good report (pages' data kept, so `render` can rebuild it), made once."""
    folder = tmp_path_factory.mktemp("made")
    (folder / "gold.jsonl").write_bytes(GOLD)
    (folder / "run.jsonl").write_bytes(RUN)
    args = ["report", str(folder / "gold.jsonl"), f"r={folder / 'run.jsonl'}"]
    outcome = run_cli([*args, "--out", str(folder / "out"), "--format", "md,json", "-q"])
    assert outcome.code == 0, outcome.stderr
    return folder


def _copy(made: Path, tmp_path: Path) -> Path:
    shutil.copytree(made, tmp_path / "in")
    return tmp_path / "in"


Edit = Callable[[dict[str, Any]], None]


def _set(*path: str | int, value: Any) -> Edit:
    def edit(report: dict[str, Any]) -> None:
        node: Any = report
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


EDITS: dict[str, tuple[Edit, str]] = {
    "a mean as text": (_set("runs", "r", "means", "recall@5", value="0.5"), "runs.r.means"),
    "runs as a list": (_set("runs", value=[]), "runs"),
    "gold as a list": (_set("gold", value=["x"]), "gold"),
    "a 400-digit count": (_set("gold", "questions", value=10**400), "gold.questions"),
    "a negative count": (_set("runs", "r", "n", value=-5), "runs.r.n"),
    "context_k as text": (_set("context_k", value="5"), "context_k"),
    "k as a number": (_set("k", value=5), "k"),
    "a count as true": (_set("gold", "questions", value=True), "gold.questions"),
    "a mean as an object": (_set("runs", "r", "means", "hit@5", value={}), "runs.r.means"),
    "the warnings as an object": (_set("warnings", value={}), "warnings"),
    "a run as a number": (_set("runs", "r", value=1), "runs.r"),
    "a latency as text": (_set("runs", "r", "latency", value="fast"), "runs.r.latency"),
    "settings as a string": (_set("settings", value="x"), "settings"),
    "a by_kind count as a float": (
        _set("gold", "by_kind", "unlabelled", "questions", value=1.5),
        "gold.by_kind",
    ),
}


def _tamper(folder: Path, edit: Edit) -> None:
    path = folder / "out" / "report.json"
    report = json.loads(path.read_text())
    edit(report)
    path.write_text(json.dumps(report))


@pytest.mark.parametrize("case", list(EDITS))
def test_render_refuses_a_tampered_report_json(case: str, made: Path, tmp_path: Path) -> None:
    folder = _copy(made, tmp_path)
    edit, where = EDITS[case]
    _tamper(folder, edit)
    outcome = run_cli(["render", str(folder / "out"), "--format", "md"])
    assert_clean_failure(outcome, where="report.json", problem=where)


@pytest.mark.parametrize("case", ["a mean as text", "runs as a list", "a 400-digit count"])
def test_a_tampered_baseline_is_refused(case: str, made: Path, tmp_path: Path) -> None:
    folder = _copy(made, tmp_path)
    edit, where = EDITS[case]
    _tamper(folder, edit)
    args = ["report", str(folder / "gold.jsonl"), f"r={folder / 'run.jsonl'}"]
    args += ["--baseline", str(folder / "out"), "--out", str(tmp_path / "new"), "--format", "json"]
    assert_clean_failure(run_cli(args), where="report.json", problem=where)


def test_the_schema_check_reads_a_good_report_and_the_committed_site(made: Path) -> None:
    """No false alarm: what reportgen writes, today's and the published example's."""
    sites = Path(__file__).resolve().parents[2] / "site"
    for path in [made / "out" / "report.json", *sorted(sites.glob("*/report.json"))]:
        check_report(json.loads(path.read_text()), strict=True)


def test_keys_added_within_a_format_are_no_problem_reading_back(made: Path) -> None:
    """An older report lacks keys, a newer one has more: only values present are typed."""
    report = json.loads((made / "out" / "report.json").read_text())
    del report["drilldown"]
    report["a_key_from_a_newer_reportgen"] = {"x": 1}
    check_report(report)
    with pytest.raises(SchemaProblem):
        check_report(report, strict=True)


@pytest.mark.parametrize(
    ("value", "problem"),
    [("-3", "negative"), ("1.5", "above 1"), ("nan", "NaN"), ("x", "not a number")],
)
def test_a_baselines_per_question_value_out_of_range(
    made: Path, tmp_path: Path, value: str, problem: str
) -> None:
    folder = _copy(made, tmp_path)
    path = folder / "out" / "per_question.csv"
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    column = "latency_ms" if problem == "negative" else "recall@5"
    cells = lines[1].split(",")
    cells[header.index(column)] = value
    lines[1] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n")
    args = ["report", str(folder / "gold.jsonl"), f"r={folder / 'run.jsonl'}"]
    args += ["--baseline", str(folder / "out"), "--out", str(tmp_path / "new"), "--format", "json"]
    outcome = run_cli(args)
    assert_clean_failure(outcome, where="per_question.csv:2", problem=problem)
    assert column in outcome.error_line


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        ({"shards": 10**12}, "10^12"),
        ({"shards": 0}, "0 shards"),
        ({"questions": -5}, "questions"),
        ({"shard": 7}, "no shard"),
        ({"shards": "2"}, "shards"),
    ],
)
def test_a_tampered_cut_json_is_refused(tmp_path: Path, edit: dict[str, Any], problem: str) -> None:
    (tmp_path / "gold.jsonl").write_bytes(GOLD)
    (tmp_path / "run.jsonl").write_bytes(RUN)
    args = ["shard", str(tmp_path / "gold.jsonl"), f"r={tmp_path / 'run.jsonl'}"]
    made = run_cli([*args, "--shards", "2", "--out", str(tmp_path / "shards")])
    assert made.code == 0, made.stderr
    shard = next(p for p in sorted((tmp_path / "shards").iterdir()) if p.is_dir())
    cut = json.loads((shard / "cut.json").read_text())
    cut.update(edit)
    (shard / "cut.json").write_text(json.dumps(cut))
    outcome = run_cli(_shard_report(shard, tmp_path / "o"))
    assert_clean_failure(outcome, where="cut.json")
    if problem == "10^12":
        assert "1000000000000 shards" in outcome.error_line
    else:
        assert problem in outcome.error_line


def _shard_report(shard: Path, out: Path) -> list[str]:
    gold = next(shard.glob("gold*"))
    runs = sorted(p for p in shard.rglob("*.jsonl") if p != gold)
    args = ["report", str(gold), f"r={runs[0]}", "--out", str(out), "--merge-data"]
    return [*args, "--format", "json", "-q"]


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [("questions", -5, "cut.questions"), ("shards", 10**12, "1000000000000 shards")],
)
def test_a_merge_of_a_tampered_shard_json_is_refused(
    tmp_path: Path, key: str, value: int, problem: str
) -> None:
    """The issue's "9 questions of -5": a shard.json whose cut says -5 questions."""
    (tmp_path / "gold.jsonl").write_bytes(GOLD)
    (tmp_path / "run.jsonl").write_bytes(RUN)
    args = ["shard", str(tmp_path / "gold.jsonl"), f"r={tmp_path / 'run.jsonl'}"]
    assert run_cli([*args, "--shards", "2", "--out", str(tmp_path / "shards")]).code == 0
    outs = []
    for number, shard in enumerate(
        p for p in sorted((tmp_path / "shards").iterdir()) if p.is_dir()
    ):
        out = tmp_path / f"out{number}"
        assert run_cli(_shard_report(shard, out)).code == 0
        outs.append(str(out))
    meta_path = Path(outs[0]) / "merge" / "shard.json"
    meta = json.loads(meta_path.read_text())
    meta["cut"][key] = value
    meta_path.write_text(json.dumps(meta))
    outcome = run_cli(["merge", *outs, "--out", str(tmp_path / "merged"), "--format", "json"])
    assert_clean_failure(outcome, where="shard.json")
    assert problem in outcome.error_line
