"""Latency, cost and context size beside quality: the summaries (against numpy), the
paired differences, and the same numbers through every way in (files, traces, API,
shard + merge)."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import reportgen
from reportgen.analyse.latency import PERCENTILES, paired_difference, summary
from reportgen.cli import cli


@pytest.mark.parametrize("seed", range(5))
def test_percentiles_are_numpys_default_linear_method(seed: int) -> None:
    rng = random.Random(seed)
    values = [rng.lognormvariate(4, 1) for _ in range(rng.randint(1, 60))]
    found = summary(pl.Series(values + [None] * 3, dtype=pl.Float64))
    assert (found["count"], found["missing"]) == (len(values), 3)
    assert found["mean"] == pytest.approx(np.mean(values), rel=1e-12)
    for p in PERCENTILES:
        assert found[f"p{p}"] == pytest.approx(np.percentile(values, p), rel=1e-12)


def test_worked_percentiles() -> None:
    # 10, 20, 30, 40: p50 = 25; p90 at rank 0.9 * 3 = 2.7: 30 + 0.7 * 10 = 37; p95 = 38.5
    found = summary(pl.Series([10.0, 40.0, 20.0, 30.0]))
    expected = [25, 25, 37, 38.5, 39.7]
    assert [found[k] for k in ("mean", "p50", "p90", "p95", "p99")] == pytest.approx(expected)


def test_no_value_at_all_is_counted_missing_not_zero() -> None:
    found = summary(pl.Series([None, None], dtype=pl.Float64))
    assert found == {
        "count": 0, "missing": 2, "mean": None, "p50": None, "p90": None, "p95": None, "p99": None
    }  # fmt: skip


def test_paired_difference_is_over_questions_both_have() -> None:
    before = pl.DataFrame({"qid": ["a", "b", "c"], "latency_ms": [10.0, 20.0, None]})
    after = pl.DataFrame({"qid": ["c", "b", "a"], "latency_ms": [5.0, 26.0, 14.0]})
    found = paired_difference(before, after, "latency_ms")
    assert (found["questions"], found["difference"]) == (2, 5.0)
    low, high = found["ci_low"], found["ci_high"]
    assert low is not None and high is not None
    assert 4.0 <= low <= 5.0 <= high <= 6.0
    one = paired_difference(before.head(1), after, "latency_ms")
    assert (one["questions"], one["ci_low"], one["ci_high"]) == (1, None, None)


QUESTIONS = [f"q{i:02d}" for i in range(24)]


def _inputs(folder: Path, seed: int = 7) -> dict[str, dict[str, float | None]]:
    """A gold set, a trace file and the same data as a JSONL run and a CSV run; each
    run's latency per question (some missing)."""
    rng = random.Random(seed)
    gold = [{"id": q, "question": f"what is {q}?", "gold": [f"c{q}"]} for q in QUESTIONS]
    (folder / "gold.jsonl").write_text("".join(json.dumps(g) + "\n" for g in gold))
    latency: dict[str, dict[str, float | None]] = {}
    for name in ("fast", "slow"):
        latency[name] = {
            q: None if rng.random() < 0.15 else round(rng.uniform(5, 400), 3) for q in QUESTIONS
        }
        lists = {q: rng.sample([f"c{q}", "x1", "x2", "x3"], 3) for q in QUESTIONS}
        jsonl = [
            {"id": q, "chunks": lists[q]}
            | ({} if latency[name][q] is None else {"latency_ms": latency[name][q]})
            for q in QUESTIONS
        ]
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in jsonl))
        rows = [
            f"{q},{chunk},{rank},{'' if latency[name][q] is None else latency[name][q]}"
            for q in QUESTIONS
            for rank, chunk in enumerate(lists[q], start=1)
        ]
        (folder / f"{name}.csv").write_text("id,chunk_id,rank,latency_ms\n" + "\n".join(rows))
        traces = [
            {"id": q, "question": f"what is {q}?", "gold": [f"c{q}"], "retrieved": lists[q]}
            | ({} if latency[name][q] is None else {"latency_ms": latency[name][q]})
            for q in QUESTIONS
        ]
        (folder / f"{name}.trace.jsonl").write_text("".join(json.dumps(t) + "\n" for t in traces))
    return latency


def report(folder: Path, out: str, *args: str, code: int = 0) -> dict[str, Any]:
    done = CliRunner().invoke(cli, ["report", *args, "--out", str(folder / out), "-q"])
    assert done.exit_code == code, done.output
    return json.loads((folder / out / "report.json").read_text())  # type: ignore[no-any-return]


@pytest.mark.slow
def test_the_report_against_numpy_and_every_way_in(tmp_path: Path) -> None:
    latency = _inputs(tmp_path)
    gold = str(tmp_path / "gold.jsonl")
    files = report(
        tmp_path, "jsonl", gold, f"fast={tmp_path}/fast.jsonl", f"slow={tmp_path}/slow.jsonl"
    )
    for name in ("fast", "slow"):
        values = [v for v in latency[name].values() if v is not None]
        section = files["runs"][name]["latency"]
        assert section["count"] == len(values)
        assert section["missing"] == len(QUESTIONS) - len(values)
        assert section["p95"] == pytest.approx(np.percentile(values, 95), abs=1e-9)
        assert "numpy's default" in section["percentile_method"]
        assert "cost" not in files["runs"][name]  # no input gives one
    paired = [
        latency["slow"][q] - latency["fast"][q]  # type: ignore[operator]
        for q in QUESTIONS
        if latency["slow"][q] is not None and latency["fast"][q] is not None
    ]
    versus = files["runs"]["slow"]["latency"]["versus_run"]
    assert versus["against"] == "fast" and versus["questions"] == len(paired)
    assert versus["difference"] == pytest.approx(np.mean(paired), abs=1e-9)
    assert versus["ci_low"] <= versus["difference"] <= versus["ci_high"]
    assert files["runs"]["fast"]["latency"]["versus_run"] is None
    csv = report(tmp_path, "csv", gold, f"fast={tmp_path}/fast.csv", f"slow={tmp_path}/slow.csv")
    assert csv["runs"]["slow"]["latency"] == files["runs"]["slow"]["latency"]
    traced = report(tmp_path, "traces", f"{tmp_path}/fast.trace.jsonl")
    alone = report(tmp_path, "fast", gold, f"fast.trace={tmp_path}/fast.jsonl")
    assert traced["runs"]["fast.trace"]["latency"] == alone["runs"]["fast.trace"]["latency"]
    api = reportgen.evaluate(gold, {"fast": pl.read_csv(tmp_path / "fast.csv")}).latency
    row = api.filter(pl.col("quantity") == "latency").row(0, named=True)
    assert row["p95"] == files["runs"]["fast"]["latency"]["p95"]
    assert row["missing"] == files["runs"]["fast"]["latency"]["missing"]


def test_latency_survives_shard_and_merge_exactly(tmp_path: Path, monkeypatch: Any) -> None:
    _inputs(tmp_path)
    monkeypatch.chdir(tmp_path)
    whole = report(tmp_path, "whole", "gold.jsonl", "fast=fast.csv", "slow=slow.jsonl")
    runner = CliRunner()
    cut = ["shard", "gold.jsonl", "fast=fast.csv", "slow=slow.jsonl", "--shards", "3"]
    done = runner.invoke(cli, [*cut, "--out", "shards", "-q"])
    assert done.exit_code == 0, done.output
    plan = json.loads((tmp_path / "shards" / "shards.json").read_text())
    outs = []
    for folder in plan["folders"]:
        out = tmp_path / "outs" / folder
        line = shlex.split(plan["measure"].replace("OUT", str(out)))
        monkeypatch.chdir(tmp_path / "shards" / folder)
        done = runner.invoke(cli, [*line[1:], "--format", "json", "-q"])
        assert done.exit_code == 0, done.output
        outs.append(str(out))
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(cli, ["merge", *outs, "--out", "merged", "--format", "json", "-q"])
    assert done.exit_code == 0, done.output
    merged = json.loads((tmp_path / "merged" / "report.json").read_text())
    for name in ("fast", "slow"):
        assert merged["runs"][name]["latency"] == whole["runs"][name]["latency"]


@pytest.mark.slow
def test_gates_on_latency_and_the_baseline(tmp_path: Path) -> None:
    _inputs(tmp_path)
    gold, fast, slow = (str(tmp_path / n) for n in ("gold.jsonl", "fast.csv", "slow.csv"))
    old = report(tmp_path, "old", gold, f"fast={tmp_path}/fast.trace.jsonl", "--k", "1,5")
    assert old["runs"]["fast"]["latency"]["count"] > 0
    p95 = report(tmp_path, "base", gold, f"fast={fast}", f"slow={slow}")["runs"]
    ceiling = max(p95[name]["latency"]["p95"] for name in ("fast", "slow"))
    passed = report(
        tmp_path, "pass", gold, f"fast={fast}", f"slow={slow}",
        "--max", f"latency_p95_ms=slow:{ceiling}", "--max", f"fast/latency_p95_ms={ceiling}",
    )  # fmt: skip
    assert passed["gate"]["passed"] is True
    assert [r["run"] for r in passed["gate"]["rules"]] == ["slow", "fast"]
    failed = report(
        tmp_path, "fail", gold, f"fast={fast}", f"slow={slow}",
        "--max", f"latency_p95_ms={ceiling - 1}", code=1,
    )  # fmt: skip
    assert failed["gate"]["passed"] is False
    assert sum(not r["passed"] for r in failed["gate"]["rules"]) >= 1
    rule = next(r for r in failed["gate"]["rules"] if r["run"] == "slow")
    assert rule["type"] == "max" and rule["value"] == p95["slow"]["latency"]["p95"]
    # against itself: no rise; against the slower run as baseline of "fast": refused rise
    same = report(
        tmp_path, "same", gold, f"fast={fast}", f"slow={slow}", "--baseline",
        str(tmp_path / "base"), "--max-rise", "latency_p95_ms=0.2",
    )  # fmt: skip
    assert same["gate"]["passed"] is True
    assert {r["rise"] for r in same["gate"]["rules"]} == {0.0}
    assert same["runs"]["slow"]["latency"]["versus_baseline"]["difference"] == 0.0
    swapped = report(
        tmp_path, "swapped", gold, f"fast={slow}", f"slow={fast}", "--baseline",
        str(tmp_path / "base"), "--max-rise", "latency_p95_ms=0.0", code=1,
    )  # fmt: skip
    assert any(r["rise"] > 0 and not r["passed"] for r in swapped["gate"]["rules"])


def test_a_baseline_without_latency_says_so_and_skips_the_rise(tmp_path: Path) -> None:
    _inputs(tmp_path)
    gold = str(tmp_path / "gold.jsonl")
    lists = tmp_path / "plain.jsonl"
    lists.write_text(
        "".join(
            json.dumps({k: v for k, v in json.loads(line).items() if k != "latency_ms"}) + "\n"
            for line in (tmp_path / "fast.jsonl").read_text().splitlines()
        )
    )
    report(tmp_path, "old", gold, f"fast={lists}")
    now = report(
        tmp_path, "now", gold, f"fast={tmp_path}/fast.csv", "--baseline", str(tmp_path / "old"),
        "--max-rise", "latency_p95_ms=0.1",
    )  # fmt: skip
    section = now["runs"]["fast"]["latency"]
    assert section["versus_baseline"] is None
    assert "has no latency" in section["baseline_note"]
    assert now["gate"]["passed"] is True and now["gate"]["rules"] == []
    assert now["gate"]["skipped"] == ["--max-rise latency_p95_ms=0.1"]
    assert "has no value for it" in now["gate"]["notice"]


def test_a_latency_rule_without_any_latency_is_a_usage_error(tmp_path: Path) -> None:
    _inputs(tmp_path)
    lists = tmp_path / "plain.csv"
    lists.write_text("id,chunk_id\nq00,cq00\n")
    done = CliRunner().invoke(
        cli,
        ["report", str(tmp_path / "gold.jsonl"), str(lists), "--max", "latency_p95_ms=200",
         "--out", str(tmp_path / "o"), "-q"],
    )  # fmt: skip
    assert done.exit_code == 2
    assert "no run of this report has a value for 'latency_p95_ms'" in done.output
    assert "Traceback" not in done.output


def test_rules_from_the_config_file(tmp_path: Path) -> None:
    _inputs(tmp_path)
    (tmp_path / "reportgen.toml").write_text(
        '[max]\n"latency_p95_ms" = 0.5\n"slow/latency_mean_ms" = 10000\n'
    )
    found = report(
        tmp_path, "o", str(tmp_path / "gold.jsonl"), f"fast={tmp_path}/fast.csv",
        f"slow={tmp_path}/slow.csv", "--config", str(tmp_path / "reportgen.toml"), code=1,
    )  # fmt: skip
    rules = [(r["rule"], r["run"], r["passed"]) for r in found["gate"]["rules"]]
    assert rules == [
        ("--max latency_p95_ms=0.5", "fast", False),
        ("--max latency_p95_ms=0.5", "slow", False),
        ("--max slow/latency_mean_ms=10000", "slow", True),
    ]


def test_merged_from_per_question_files_rebuilds_latency_not_a_mean(tmp_path: Path) -> None:
    """Shards without merge data: the latency column is no measure (no latency_ms mean),
    and the percentiles come from the questions' values, as over the whole set."""
    _inputs(tmp_path)
    lines = (tmp_path / "gold.jsonl").read_text().splitlines(keepends=True)
    for part, chosen in (("a", lines[:10]), ("b", lines[10:])):
        (tmp_path / f"{part}.jsonl").write_text("".join(chosen))
        report(tmp_path, part, str(tmp_path / f"{part}.jsonl"), f"slow={tmp_path}/slow.csv")
    whole = report(tmp_path, "whole", str(tmp_path / "gold.jsonl"), f"slow={tmp_path}/slow.csv")
    done = CliRunner().invoke(
        cli, ["merge", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "m"), "-q"]
    )
    assert done.exit_code == 0, done.output
    merged = json.loads((tmp_path / "m" / "report.json").read_text())["runs"]["slow"]
    assert "latency_ms" not in merged["means"]
    assert merged["latency"] == whole["runs"]["slow"]["latency"]
