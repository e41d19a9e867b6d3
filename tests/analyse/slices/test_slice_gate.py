"""--slice-gate: a regression confined to one slice fails the gate while the whole
run's rule passes, and every output names the slice (issue 41's German case)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.render.annotations import workflow_commands


def _write(folder: Path, lost_in_german: int) -> dict[str, Path]:
    """120 questions, 40 per language; every run finds each gold chunk at rank 1,
    except ``lost_in_german`` German questions in the new run."""
    gold, old, new = [], [], []
    for i in range(120):
        qid, lang = f"q{i:03d}", ("en", "de", "fr")[i % 3]
        gold.append({"id": qid, "gold": [f"c{i}"], "lang": lang})
        old.append({"id": qid, "chunks": [f"c{i}", "x1", "x2", "x3", "x4"]})
        lost = lang == "de" and i // 3 < lost_in_german
        new.append(
            {"id": qid, "chunks": ["x1", "x2", "x3", "x4", "x5"] if lost else old[-1]["chunks"]}
        )
    paths = {name: folder / f"{name}.jsonl" for name in ("gold", "old", "new")}
    for name, rows in (("gold", gold), ("old", old), ("new", new)):
        paths[name].write_text("".join(json.dumps(row) + "\n" for row in rows))
    return paths


def _report(paths: dict[str, Path], out: Path, run: str, *options: str):
    args = [
        "report",
        str(paths["gold"]),
        f"rag={paths[run]}",
        "--out",
        str(out),
        "--format",
        "json,md",
    ]
    return CliRunner().invoke(cli, [*args, *options])


def test_a_drop_in_one_slice_fails_the_slice_gate_and_not_the_whole_rule(tmp_path: Path) -> None:
    paths = _write(tmp_path, lost_in_german=16)
    assert _report(paths, tmp_path / "base", "old").exit_code == 0
    rule = [
        "--baseline",
        str(tmp_path / "base"),
        "--max-drop",
        "recall@5=0.2",
        "--junit",
        str(tmp_path / "j.xml"),
    ]
    whole = _report(paths, tmp_path / "whole", "new", *rule)
    assert whole.exit_code == 0, whole.output  # -0.133 overall: the whole run passes
    sliced = _report(paths, tmp_path / "sliced", "new", *rule, "--slice-gate", "lang")
    assert sliced.exit_code == 1, sliced.output
    said = "recall@5 in lang=de dropped 0.400 > 0.2"
    assert said in sliced.output
    report = json.loads((tmp_path / "sliced" / "report.json").read_text())
    failed = [r for r in report["gate"]["rules"] if not r["passed"]]
    assert [r["slice"]["value"] for r in failed] == ["de"]
    assert failed[0]["message"].startswith(said)
    assert report["gate"]["slices"]["gated"] == ["de", "en", "fr"]
    assert report["runs"]["rag"]["by_slice"]["lang"]["de"]["means"]["recall@5"] == 0.6
    page = (tmp_path / "sliced" / "report.md").read_text()
    assert said.replace(">", "\\>") in page  # the gate's list, and the first screen's alert
    assert "Worst slice: " + said.replace(">", "\\>") in page
    annotations = workflow_commands(report, None, {})
    assert any(line.startswith("::error") and "in lang=de dropped" in line for line in annotations)
    junit = (tmp_path / "j.xml").read_text()
    assert 'name="--max-drop recall@5=0.2 in lang=de"' in junit
    assert junit.count("in lang=") == 3 + 2  # a case per slice rule; the failure: message, text


def test_small_slices_are_listed_not_gated(tmp_path: Path) -> None:
    paths = _write(tmp_path, lost_in_german=0)
    result = _report(
        paths,
        tmp_path / "o",
        "old",
        "--min",
        "recall@5=0.5",
        "--slice-gate",
        "lang",
        "--min-slice-n",
        "41",
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "o" / "report.json").read_text())
    assert report["gate"]["slices"]["gated"] == []
    assert [s["value"] for s in report["gate"]["slices"]["not_gated"]] == ["de", "en", "fr"]


def test_an_unknown_slice_field_exits_2_naming_the_fields(tmp_path: Path) -> None:
    paths = _write(tmp_path, lost_in_german=0)
    result = _report(paths, tmp_path / "o", "old", "--slice-by", "langue")
    assert result.exit_code == 2
    assert (
        "--slice-by langue" in result.output and "lang" in result.output and "Fix:" in result.output
    )


def test_a_small_slice_reads_too_few_questions_and_the_correction_is_stated(
    tmp_path: Path,
) -> None:
    paths = _write(tmp_path, lost_in_german=16)
    gold = [json.loads(line) for line in paths["gold"].read_text().splitlines()]
    for record in gold[:3]:
        record["lang"] = "it"  # a slice of three questions
    paths["gold"].write_text("".join(json.dumps(record) + "\n" for record in gold))
    assert _report(paths, tmp_path / "base", "old").exit_code == 0
    result = _report(
        paths, tmp_path / "now", "new", "--baseline", str(tmp_path / "base"), "--slice-by", "lang"
    )
    assert result.exit_code == 0, result.output
    section = json.loads((tmp_path / "now" / "report.json").read_text())["slices"]
    compared = section["comparisons"]["lang"]
    labels = {e["value"]: e["measures"]["recall@5"]["label"] for e in compared["slices"]}
    assert labels["it"] == "too few questions"
    assert labels["de"] == "worse"
    assert compared["against"] == "baseline"
    assert compared["correction"].startswith("Holm across every slice of lang")
