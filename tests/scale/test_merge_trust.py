"""merge is whole or says it is not (issue 25): through the real commands, `reportgen
shard`, `reportgen report --merge-data` on each shard, `reportgen merge`.

The verdicts judge the run the shards judged; a missing shard is refused (or, with
--allow-partial, said in every output); a chunk map other than the shards' is refused;
a tampered merge/ folder is an input error naming its file, never an internal one.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from tests.scale.test_merge_whole import (
    EPOCH,
    SHARDS,
    assert_same_report,
    example_root,
    invoke,
)


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    return lambda args, cwd: invoke(args, cwd, monkeypatch)


def unjudged_verdicts(root: Path) -> None:
    """The example's verdicts without their run column: they judge whichever run is asked;
    its keyword run as runs/bm25.trec (the name a shard gives it, so sources agree)."""
    rows = [json.loads(line) for line in (root / "verdicts.jsonl").read_text().splitlines()]
    text = "".join(json.dumps({k: v for k, v in row.items() if k != "run"}) + "\n" for row in rows)
    (root / "verdicts.jsonl").write_text(text)
    (root / "runs" / "bm25.trec").write_bytes((root / "runs" / "keyword.trec").read_bytes())


CUT = [
    "gold.jsonl",
    "bm25=runs/bm25.trec",
    "dense=runs/dense.jsonl",
    "--verdicts",
    "verdicts.jsonl",
]


def measured(root: Path, cut: list[str], measure: list[str], run_cli: Any) -> list[str]:
    """Cut into SHARDS and measure each with the line shards.json gives: the out folders."""
    run_cli(["shard", *cut, "--shards", str(SHARDS), "--out", "shards", "-q"], root)
    plan = json.loads((root / "shards" / "shards.json").read_text())
    outs = []
    for folder in plan["folders"]:
        out = root / "outs" / folder
        line = shlex.split(plan["measure"].replace("OUT", str(out)))
        run_cli([*line[1:], *measure, "-q"], root / "shards" / folder)
        outs.append(str(out))
    return outs


def refused(root: Path, args: list[str]) -> str:
    """The one-line error of a command that must exit 2 (an input error, no traceback)."""
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 2, (done.exit_code, done.output, done.exception)
    assert "Traceback" not in done.output and "Fix:" in done.output, done.output
    return done.output


@pytest.mark.slow
def test_the_verdicts_judge_the_run_the_shards_judged(tmp_path: Path, run_cli: Any) -> None:
    root = example_root(tmp_path)
    unjudged_verdicts(root)
    judged = ["--verdicts-run", "dense"]
    run_cli(["report", *CUT, *judged, "--version", "v1", "--out", "whole", "-q"], root)
    outs = measured(root, CUT, judged, run_cli)
    assert (
        run_cli(["merge", *outs, "--version", "v1", "--out", str(root / "merged"), "-q"], root) == 0
    )
    assert_same_report(root / "whole", root / "merged")
    report = json.loads((root / "merged" / "report.json").read_text())
    assert list(report["attribution"]) == ["dense"]
    other = refused(
        root, ["merge", *outs, "--verdicts-run", "bm25", "--out", str(root / "m2"), "-q"]
    )
    assert "--verdicts-run is 'bm25'" in other and "'dense'" in other
    assert not (root / "m2").exists()
    # the last shard measured again, judging bm25: the shards disagree, merge names them
    plan = json.loads((root / "shards" / "shards.json").read_text())
    last = root / "outs" / "judging-bm25"
    line = shlex.split(plan["measure"].replace("OUT", str(last)))
    run_cli([*line[1:], "--verdicts-run", "bm25", "-q"], root / "shards" / plan["folders"][-1])
    mixed = refused(root, ["merge", *outs[:-1], str(last), "--out", str(root / "m3"), "-q"])
    assert "--verdicts-run" in mixed and outs[0] in mixed and str(last) in mixed, mixed


@pytest.mark.slow
def test_a_missing_shard_is_refused_or_said_everywhere(tmp_path: Path, run_cli: Any) -> None:
    root = example_root(tmp_path)
    unjudged_verdicts(root)
    outs = measured(root, CUT, [], run_cli)
    message = refused(root, ["merge", *outs[:2], "--out", str(root / "merged"), "-q"])
    assert "shard 2 of 3 is missing" in message and "--allow-partial" in message
    assert not (root / "merged").exists()
    done = CliRunner().invoke(
        cli, ["merge", *outs[:2], "--allow-partial", "--out", str(root / "merged")]
    )
    assert done.exit_code == 0, done.output
    report = json.loads((root / "merged" / "report.json").read_text())
    whole = sum(json.loads((root / "shards" / "shards.json").read_text())["questions"])
    merged = report["gold"]["questions"]
    said = f"{merged} of {whole} questions (shard 2 missing)"
    assert merged < whole
    assert report["merge_coverage"] == {
        "questions": merged, "of": whole, "shards": SHARDS, "missing_shards": [2]
    }  # fmt: skip
    warning = next(w for w in report["warnings"] if w["code"] == "partial_merge")
    assert said in warning["message"]
    assert said in done.output  # the terminal
    for page in ("index.html", "report.md", "summary.md"):
        assert said in (root / "merged" / page).read_text(), page


@pytest.mark.slow
def test_shards_of_other_cuts_or_gold_sets_are_refused(tmp_path: Path, run_cli: Any) -> None:
    root = example_root(tmp_path)
    unjudged_verdicts(root)
    outs = measured(root, CUT, [], run_cli)
    other = tmp_path / "other"
    other.mkdir()
    (other / "runs").mkdir()
    for name in ("gold.jsonl", "runs/bm25.trec", "runs/dense.jsonl", "verdicts.jsonl"):
        (other / name).write_bytes((root / name).read_bytes())
    run_cli(["shard", *CUT, "--shards", "2", "--out", "shards", "-q"], other)
    line = json.loads((other / "shards" / "shards.json").read_text())["measure"]
    run_cli([*shlex.split(line.replace("OUT", str(other / "o1")))[1:], "-q"],
            other / "shards" / "shard-1")  # fmt: skip
    message = refused(
        root, ["merge", outs[0], outs[2], str(other / "o1"), "--out", str(root / "m"), "-q"]
    )
    assert "different cuts" in message
    # the same cut of another gold set: one question's text edited before cutting
    gold = (other / "gold.jsonl").read_text().replace("?", "??", 1)
    (other / "gold.jsonl").write_text(gold)
    for folder in (other / "shards", other / "o1"):
        for path in sorted(folder.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
    measured_again = measured(other, CUT, [], run_cli)
    message = refused(
        root, ["merge", outs[0], outs[1], measured_again[2], "--out", str(root / "m"), "-q"]
    )
    assert "gold set" in message


@pytest.mark.slow
def test_a_chunk_map_other_than_the_shards_is_refused(tmp_path: Path, run_cli: Any) -> None:
    root = example_root(tmp_path)
    unjudged_verdicts(root)
    docs = ["--docs", str(root / "docs")]
    outs = measured(root, CUT, ["--chunks", str(root / "chunks" / "paragraphs.jsonl"), *docs],
                    run_cli)  # fmt: skip
    other = ["--chunks", str(root / "chunks" / "sections.jsonl"), *docs]
    message = refused(root, ["merge", *outs, *other, "--out", str(root / "m"), "-q"])
    assert "chunk map" in message and "paragraphs.jsonl" in message
    assert not (root / "m").exists()
    # the same map, other documents: the evidence would be located elsewhere
    moved = root / "docs-moved"
    moved.mkdir()
    for doc in sorted((root / "docs").iterdir()):
        (moved / doc.name).write_text("A new first line.\n" + doc.read_text())
    maps = ["--chunks", str(root / "chunks" / "paragraphs.jsonl"), "--docs", str(moved)]
    message = refused(root, ["merge", *outs, *maps, "--out", str(root / "m"), "-q"])
    assert "evidence merge located in its documents (--docs)" in message
    assert not (root / "m").exists()


def _tamper_json(path: Path, change: Any) -> None:
    meta = json.loads(path.read_text())
    change(meta)
    path.write_text(json.dumps(meta))


def _tamper_frame(path: Path, change: Any) -> None:
    change(pl.read_parquet(path)).write_parquet(path)


TAMPERED = {
    "k not a list": ("shard.json", lambda m: m["settings"].update(k="5"), "settings.k"),
    "missing key": ("shard.json", lambda m: m.pop("checks"), "checks"),
    "runs not an object": ("shard.json", lambda m: m.update(runs=[1]), "runs"),
    "a run's count a string": (
        "shard.json",
        lambda m: m["runs"]["bm25"].update(rows="10"),
        "runs.bm25.rows",
    ),
    "a NaN": (
        "scores.parquet",
        lambda f: f.with_columns(pl.lit(float("nan")).alias("recall@5")),
        "recall@5",
    ),
    "a column's type": (
        "results.parquet",
        lambda f: f.with_columns(pl.col("rank").cast(pl.String)),
        "rank",
    ),
    "a dropped column": ("scores.parquet", lambda f: f.drop("hit@1"), "hit@1"),
    "a dropped gold column": ("gold_rows.parquet", lambda f: f.drop("chunk_id"), "chunk_id"),
}


@pytest.mark.parametrize("case", list(TAMPERED), ids=list(TAMPERED))
def test_a_tampered_merge_folder_is_an_input_error(tmp_path: Path, run_cli: Any, case: str):
    root = example_root(tmp_path)
    unjudged_verdicts(root)
    outs = measured(root, CUT, ["--format", "json"], run_cli)
    name, change, named = TAMPERED[case]
    path = Path(outs[1]) / "merge" / name
    (_tamper_json if name.endswith(".json") else _tamper_frame)(path, change)
    message = refused(root, ["merge", *outs, "--out", str(root / "m"), "-q"])
    assert name in message and named in message, message
    assert not (root / "m").exists()


@pytest.mark.slow
def test_a_shard_folder_changed_after_the_cut_is_refused(tmp_path: Path, run_cli: Any) -> None:
    """cut.json says which shard a folder is: a bad one is refused by the measure job;
    one naming another shard than its questions' is refused by merge."""
    root = example_root(tmp_path)
    unjudged_verdicts(root)
    outs = measured(root, CUT, [], run_cli)
    cut = root / "shards" / "shard-1" / "cut.json"
    meta = json.loads(cut.read_text())
    cut.write_text(json.dumps({**meta, "shard": "1"}))
    plan = json.loads((root / "shards" / "shards.json").read_text())
    line = shlex.split(plan["measure"].replace("OUT", str(root / "again")))[1:]
    monkeypatch = pytest.MonkeyPatch()
    with monkeypatch.context() as patched:
        patched.chdir(root / "shards" / "shard-1")
        message = refused(root, [*line, "-q"])
    assert "cut.json" in message and "key shard" in message
    cut.write_text(json.dumps({**meta, "shard": 2}))
    run_cli([*line, "-q"], root / "shards" / "shard-1")
    message = refused(root, ["merge", outs[0], str(root / "again"), "--allow-partial",
                             "--out", str(root / "m"), "-q"])  # fmt: skip
    assert "which is not shard 2's of 3" in message
