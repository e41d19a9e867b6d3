"""A merged report is the whole report: `reportgen shard`, `reportgen report` on each shard
(the line shards.json gives), `reportgen merge`, against `reportgen report` over every
question, key by key, file by file, exit code by exit code.

The inputs: the bundled example (four runs, verdicts, a manifest with stale gold ids)
and random ones (ties, missing and extra questions, repeated chunks, forbidden chunks,
questions with nothing relevant, unknown verdicts), each through the real commands.
"""

from __future__ import annotations

import json
import random
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from reportgen.api import example_dir
from reportgen.cli import cli

MERGED_KEYS = ("merged_from", "merge_coverage")
"""The only keys of a merged report.json that say it was merged; every other key, at
every depth, equals the unsharded report's."""
EPOCH = "1764547200"
SHARDS = 3
PAGES = ("index.html", "report.md", "summary.md")


def differences(whole: Any, merged: Any, path: str = "") -> list[str]:
    """Every key path where the two reports differ (a value, a type, a key only in one)."""
    if isinstance(whole, dict) and isinstance(merged, dict):
        found = []
        for key in sorted(set(whole) | set(merged)):
            where = f"{path}.{key}" if path else key
            if key not in whole or key not in merged:
                found.append(f"{where} (only in {'merged' if key in merged else 'whole'})")
            else:
                found += differences(whole[key], merged[key], where)
        return found
    if isinstance(whole, list) and isinstance(merged, list) and len(whole) == len(merged):
        return [d for i, (a, b) in enumerate(zip(whole, merged, strict=True))
                for d in differences(a, b, f"{path}[{i}]")]  # fmt: skip
    same = type(whole) is type(merged) and whole == merged
    return [] if same else [f"{path}: {whole!r:.80} != {merged!r:.80}"]


def written(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def invoke(args: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.chdir(cwd)
    done = CliRunner().invoke(cli, args)
    assert done.exit_code in (0, 1), done.output
    return done.exit_code


def sharded(
    root: Path, cut: list[str], measure: list[str], merge: list[str], invoke: Any
) -> tuple[int, Path]:
    """Cut, measure each shard with the line shards.json gives, merge: (exit code, folder)."""
    invoke(["shard", *cut, "--shards", str(SHARDS), "--out", "shards", "-q"], root)
    plan = json.loads((root / "shards" / "shards.json").read_text())
    outs = []
    for folder in plan["folders"]:
        out = root / "outs" / folder
        line = shlex.split(plan["measure"].replace("OUT", str(out)))
        assert line[:2] == ["reportgen", "report"] and "--merge-data" in line
        invoke([*line[1:], *measure, "--format", "json", "-q"], root / "shards" / folder)
        outs.append(str(out))
    code = invoke(["merge", *outs, "--out", "merged", *merge, "-q"], root)
    return code, root / "merged"


def assert_same_report(whole: Path, merged: Path) -> None:
    report = json.loads((whole / "report.json").read_text())
    again = json.loads((merged / "report.json").read_text())
    assert [entry["questions"] for entry in again["merged_from"]]  # said, and per shard
    for key in MERGED_KEYS:
        again.pop(key)
    assert differences(report, again) == []
    assert written(merged) == written(whole)
    for name in PAGES:
        if (whole / name).is_file():
            assert (merged / name).read_bytes() == (whole / name).read_bytes(), name
    same_values(whole / "per_question.csv", merged / "per_question.csv")


PER_QUESTION_TOL = 1e-12
"""Measuring, not merging: a shard's gold set sums a question's ideal DCG in another
order than the whole set's (Polars' group_by sums depend on the frame), so nDCG and AP
of a question can differ in the last bit (seen: 0.31753362236410737 vs ...074).
report.json rounds to 10 digits and is compared exactly."""


def same_values(whole: Path, merged: Path) -> None:
    """The same rows and columns, text equal, numbers within PER_QUESTION_TOL."""
    first, second = pl.read_csv(whole), pl.read_csv(merged)
    assert first.columns == second.columns and first.height == second.height
    for name, dtype in first.schema.items():
        if dtype.is_numeric():
            gap = (first[name] - second[name]).abs().max()
            assert gap is None or gap <= PER_QUESTION_TOL, name  # type: ignore[operator]
            assert first[name].null_count() == second[name].null_count(), name
        else:
            assert first[name].to_list() == second[name].to_list(), name


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    return lambda args, cwd: invoke(args, cwd, monkeypatch)


EXAMPLE_RUNS = [
    "keyword=runs/keyword.trec",
    "dense=runs/dense.jsonl",
    "hybrid=runs/hybrid.csv",
    "rerank=runs/rerank.jsonl",
]


def example_root(tmp_path: Path) -> Path:
    root = tmp_path / "example"
    shutil.copytree(example_dir(), root)
    return root


@pytest.mark.parametrize(
    ("gate", "expected"),
    [
        ([], 0),
        # exit 0 with a gate: the gate's merged means are checked in test_merge_gate.py
        pytest.param(["--min", "rerank/recall@5=0.5"], 0, marks=pytest.mark.slow),
        (["--min", "recall@5=0.9", "--min", "hit@1:table=0.1", "--strict"], 1),
    ],
    ids=["no gate", "passing gate", "failing gate"],
)
@pytest.mark.slow
def test_the_example_merged_is_the_whole_report(
    tmp_path: Path, run_cli: Any, gate: list[str], expected: int
) -> None:
    root = example_root(tmp_path)
    manifest = ["--manifest", str(root / "manifest.txt")]
    options = ["--version", "v1", *manifest]
    cut = ["gold.jsonl", *EXAMPLE_RUNS, "--verdicts", "verdicts.jsonl"]
    whole_code = run_cli(["report", *cut, *options, *gate, "--out", "whole", "-q"], root)
    code, merged = sharded(root, cut, manifest, [*options, *gate], run_cli)
    assert code == whole_code == expected
    assert_same_report(root / "whole", merged)
    report = json.loads((merged / "report.json").read_text())
    assert report["attribution"]["rerank"]["n"] > 0  # the cells came through the shards
    assert report["cutoff"]["keyword"]["cutoff"] is not None  # so did the top-1 scores


@pytest.mark.slow
def test_a_baseline_and_its_max_drop_gate_as_in_report(tmp_path: Path, run_cli: Any) -> None:
    root = example_root(tmp_path)
    # the baseline's "keyword" is the reranker: today's keyword run fell far below it
    run_cli(["report", "gold.jsonl", "keyword=runs/rerank.jsonl", "--version", "v0",
             "--out", "before", "-q"], root)  # fmt: skip
    run_cli(["publish", "before", "--site", "site", "-q"], root)
    cut = ["gold.jsonl", "keyword=runs/keyword.trec", "dense=runs/dense.jsonl"]
    cases = (("before", "keyword/recall@5=0.05", 1), ("site", "keyword/recall@5=0.9", 0))
    for baseline, drop, expected in cases:
        gate = ["--version", "v1", "--baseline", baseline, "--max-drop", drop]
        whole_code = run_cli(["report", *cut, *gate, "--out", "whole", "-q"], root)
        shutil.rmtree(root / "shards", ignore_errors=True)
        shutil.rmtree(root / "outs", ignore_errors=True)
        code, merged = sharded(root, cut, [], gate, run_cli)
        assert code == whole_code == expected
        assert_same_report(root / "whole", merged)
        assert json.loads((merged / "report.json").read_text())["baseline"]["comparisons"]


def random_inputs(root: Path, seed: int) -> tuple[list[str], list[str]]:
    """Gold set, runs, verdicts (and maybe a manifest) drawn from ``seed``: (cut, options)."""
    rng = random.Random(seed)
    root.mkdir(parents=True)
    (root / "runs").mkdir()
    pool = [f"c{i:02d}" for i in range(40)]  # chunks shared between questions
    qids = [f"q{n}" for n in rng.sample(range(1000), rng.randint(12, 30))]
    gold = [json.dumps({"_meta": {"version": f"g{seed}", "index_version": "kb-1"}})]
    for qid in qids:
        record: dict[str, Any] = {"id": qid, "question": f"question {qid}?"}
        record["kind"] = rng.choice(["how-to", "table", "version"])
        chosen = rng.sample(pool, rng.randint(0, 4))
        if not chosen or rng.random() < 0.1:
            record["unanswerable"] = True
        else:
            record["gold"] = {chunk: rng.choice([0, 1, 1, 2]) for chunk in chosen}
        free = [chunk for chunk in pool if chunk not in chosen]
        if rng.random() < 0.3:
            record["forbidden"] = {rng.choice(free): rng.choice(["staff-only", "forbidden"])}
        gold.append(json.dumps(record))
    (root / "gold.jsonl").write_text("\n".join(gold) + "\n")
    runs = []
    for r in range(rng.randint(2, 3)):
        lines = []
        for qid in [*qids, "x1", "x2"]:
            if rng.random() < 0.15:
                continue  # missing from this run (x1, x2: questions the gold set lacks)
            chunks = rng.sample(pool, rng.randint(1, 12))
            if rng.random() < 0.2:
                chunks.append(chunks[0])  # a repeated chunk
            scores = sorted((round(rng.random(), 1) for _ in chunks), reverse=True)  # ties
            ranked = enumerate(zip(chunks, scores, strict=True))
            lines += [f"{qid} Q0 {c} {i + 1} {s} r{r}" for i, (c, s) in ranked]
        (root / "runs" / f"r{r}.trec").write_text("\n".join(lines) + "\n")
        runs.append(f"r{r}=runs/r{r}.trec")
    verdicts = []
    for qid in [*qids, "zz"]:
        if rng.random() < 0.85:
            correct = rng.choice([True, False, True, None])
            verdicts.append(json.dumps({"id": qid, "run": "r0", "correct": correct,
                                        "abstained": rng.random() < 0.2}))  # fmt: skip
    (root / "verdicts.jsonl").write_text("\n".join(verdicts) + "\n")
    options = ["--k", rng.choice(["1,3,5", "1,2,10"]), "--context-k", rng.choice(["3", "5"])]
    options += ["--relevance-threshold", rng.choice(["1", "2"])]
    options += rng.choice([["--trec-eval"], []])
    if rng.random() < 0.5:
        index = [chunk for chunk in pool if rng.random() < 0.9]
        (root / "manifest.txt").write_text("# index_version: kb-1\n" + "\n".join(index) + "\n")
        options += ["--manifest", str(root / "manifest.txt")]
    return ["gold.jsonl", *runs, "--verdicts", "verdicts.jsonl"], options


@pytest.mark.parametrize(
    "seed", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)]
)
@pytest.mark.slow
def test_random_inputs_merged_are_the_whole_report(tmp_path: Path, run_cli: Any, seed: int):
    root = tmp_path / "random"
    cut, measure = random_inputs(root, seed)
    checks = ["--version", "v1", "--min", "r0/mrr=0.4"]
    whole_code = run_cli(["report", *cut, *measure, *checks, "--out", "whole", "-q"], root)
    manifest = (root / "manifest.txt").is_file()
    merge = [*checks, *(["--manifest", str(root / "manifest.txt")] if manifest else [])]
    code, merged = sharded(root, cut, measure, merge, run_cli)
    assert code == whole_code
    assert_same_report(root / "whole", merged)


@pytest.mark.slow  # the same commands through CliRunner above; test_merge.py runs merge as one
def test_through_the_installed_command(tmp_path: Path) -> None:
    """The same, as a user's shell runs it (subprocess, the console script's module)."""
    root = example_root(tmp_path)
    env = {"SOURCE_DATE_EPOCH": EPOCH, "PATH": "/usr/bin:/bin", "GIT_DIR": "/dev/null"}

    def reportgen(*args: str, cwd: Path = root) -> int:
        command = [sys.executable, "-m", "reportgen", *args, "-q"]
        return subprocess.run(command, cwd=cwd, env=env, check=False).returncode

    cut = ["gold.jsonl", *EXAMPLE_RUNS, "--verdicts", "verdicts.jsonl"]
    gate = ["--version", "v1", "--min", "recall@5=0.9"]
    assert reportgen("report", *cut, *gate, "--out", "whole") == 1
    assert reportgen("shard", *cut, "--shards", "2", "--out", "shards") == 0
    plan = json.loads((root / "shards" / "shards.json").read_text())
    for i, folder in enumerate(plan["folders"]):
        line = shlex.split(plan["measure"].replace("OUT", f"../../outs/{i}"))
        assert reportgen(*line[1:], "--format", "json", cwd=root / "shards" / folder) == 0
    assert reportgen("merge", "outs/0", "outs/1", *gate, "--out", "merged") == 1
    assert_same_report(root / "whole", root / "merged")


def test_a_gold_chunk_returned_only_in_another_shard_is_not_stale(tmp_path: Path, run_cli: Any):
    """Without a manifest, "returned by no run" looks at every question's list: c-shared
    is gold for one question and returned only for a question in another shard."""
    from reportgen.scale.shard import shard_of

    qids = [f"q{n}" for n in range(40)]
    first = qids[0]
    other = next(q for q in qids if shard_of(q, SHARDS) != shard_of(first, SHARDS))
    root = tmp_path / "crafted"
    (root / "runs").mkdir(parents=True)
    gold = [{"id": q, "gold": ["c-shared" if q == first else f"c-{q}"]} for q in qids]
    (root / "gold.jsonl").write_text("".join(json.dumps(g) + "\n" for g in gold))
    for name in ("a", "b"):
        lines = []
        for q in qids:
            ranked = [f"c-{q}", *(f"n{i}" for i in range(7))]
            if q == other:
                ranked.append("c-shared")  # rank 9: in no kept top-k row
            lines += [f"{q} Q0 {c} {i + 1} {10 - i} {name}" for i, c in enumerate(ranked)]
        (root / "runs" / f"{name}.trec").write_text("\n".join(lines) + "\n")
    cut = ["gold.jsonl", "a=runs/a.trec", "b=runs/b.trec"]
    run_cli(["report", *cut, "--version", "v1", "--out", "whole", "-q"], root)
    code, merged = sharded(root, cut, [], ["--version", "v1"], run_cli)
    assert code == 0
    stale = json.loads((merged / "report.json").read_text())["hygiene"]["stale"]
    assert stale["basis"] == "no_run_returns" and stale["chunks"] == 0
    assert_same_report(root / "whole", merged)


def test_what_merge_cannot_rebuild_is_refused_clearly(tmp_path: Path) -> None:
    """Exit 2, one line naming what to do: shards with and without merge/, a whole-report
    option on shards holding values only, shards measured through a chunk map merged
    without it."""
    root = example_root(tmp_path)
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(cli, [*args, "-q"])

    gold, run_file = str(root / "gold.jsonl"), f"keyword={root / 'runs' / 'keyword.trec'}"
    assert run("report", gold, run_file, "--format", "json", "--merge-data",
               "--out", str(tmp_path / "with")).exit_code == 0  # fmt: skip
    assert run("report", gold, run_file, "--format", "json",
               "--out", str(tmp_path / "without")).exit_code == 0  # fmt: skip
    mixed = run("merge", str(tmp_path / "with"), str(tmp_path / "without"),
                "--out", str(tmp_path / "m"))  # fmt: skip
    assert mixed.exit_code == 2 and "has no merge/ folder" in mixed.output
    assert "Fix: measure every shard with `reportgen report --merge-data`" in mixed.output
    values = run("merge", str(tmp_path / "without"), "--baseline", str(tmp_path / "with"),
                 "--out", str(tmp_path / "m"))  # fmt: skip
    assert values.exit_code == 2 and "--baseline needs the whole report" in values.output
    mapped = ["--chunks", str(root / "chunks" / "paragraphs.jsonl"), "--docs", str(root / "docs")]
    values_mapped = run("merge", str(tmp_path / "without"), *mapped, "--out", str(tmp_path / "m"))
    assert values_mapped.exit_code == 2, values_mapped.output
    assert "--chunks needs the whole report" in values_mapped.output
    assert run("report", gold, run_file, "--format", "json", "--merge-data", *mapped,
               "--out", str(tmp_path / "chunked")).exit_code == 0  # fmt: skip
    unmapped = run("merge", str(tmp_path / "chunked"), "--out", str(tmp_path / "m"))
    assert unmapped.exit_code == 2, unmapped.output
    assert "measured through the chunk map" in unmapped.output and "--chunks" in unmapped.output
    assert not (tmp_path / "m").exists()


@pytest.mark.slow
def test_the_config_file_gates_a_merge_as_it_gates_the_report(tmp_path: Path, run_cli: Any):
    """./reportgen.toml is `report`'s: merge takes its gate and the options it shares
    (here --version), and leaves the measuring keys to the shards (which agree)."""
    root = example_root(tmp_path)
    (root / "reportgen.toml").write_text(
        'version = "v1"\nk = [1, 3, 5, 10]\n[min]\n"recall@5" = 0.9\n'
    )
    cut = ["gold.jsonl", *EXAMPLE_RUNS, "--verdicts", "verdicts.jsonl"]
    whole_code = run_cli(["report", *cut, "--out", "whole", "-q"], root)
    code, merged = sharded(root, cut, ["--version", "v1"], [], run_cli)
    assert code == whole_code == 1
    assert_same_report(root / "whole", merged)
    report = json.loads((merged / "report.json").read_text())
    assert report["version"] == "v1" and not report["gate"]["passed"]


@pytest.mark.slow
def test_chunk_maps_spans_and_the_drilldown_merged_are_the_whole_report(
    tmp_path: Path, run_cli: Any
) -> None:
    """The demo's inputs: five runs, two chunkings, the documents, evidence spans."""
    root = example_root(tmp_path)
    maps = ["--chunks", str(root / "chunks" / "paragraphs.jsonl"),
            "--chunks", f"rerank-sections={root / 'chunks' / 'sections.jsonl'}"]  # fmt: skip
    given = [*maps, "--docs", str(root / "docs"), "--manifest", str(root / "manifest.txt")]
    runs = [*EXAMPLE_RUNS, "rerank-sections=runs/rerank-sections.jsonl"]
    cut = ["gold.jsonl", *runs, "--verdicts", "verdicts.jsonl"]
    options = ["--version", "v1", "--verdicts-run", "rerank", *given]
    whole_code = run_cli(["report", *cut, *options, "--out", "whole", "-q"], root)
    code, merged = sharded(root, cut, given, options, run_cli)
    assert code == whole_code == 0
    assert_same_report(root / "whole", merged)
    report = json.loads((merged / "report.json").read_text())
    assert report["chunkings"]["runs"]["rerank-sections"]["derived_judgments"] > 0
    assert report["drilldown"]["count"] > 0
    assert report["runs"]["rerank"]["means"]["span_recall@5"] is not None


@pytest.mark.slow
def test_an_assumed_verdicts_run_is_assumed_and_said_again_by_merge(
    tmp_path: Path, run_cli: Any
) -> None:
    # verdicts without a run column, two runs, no --verdicts-run: the whole report
    # assumes the first run and warns; the merged one must say the same, not stay silent
    root = example_root(tmp_path)
    rows = [json.loads(line) for line in (root / "verdicts.jsonl").read_text().splitlines()]
    (root / "verdicts.jsonl").write_text(
        "".join(json.dumps({k: v for k, v in row.items() if k != "run"}) + "\n" for row in rows)
    )
    cut = ["gold.jsonl", *EXAMPLE_RUNS[:2], "--verdicts", "verdicts.jsonl"]
    options = ["--version", "v1"]
    run_cli(["report", *cut, *options, "--out", "whole", "-q"], root)
    code, merged = sharded(root, cut, [], options, run_cli)
    assert code == 0
    assert_same_report(root / "whole", merged)
    report = json.loads((merged / "report.json").read_text())
    assert [w["examples"] for w in report["warnings"] if w["code"] == "verdicts_run_assumed"] == [
        ["keyword"]
    ]
