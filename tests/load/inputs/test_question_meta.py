"""--question-meta: a side file of the questions' own fields, for gold sets without any
(qrels, BEIR): slices from it equal slices from the same fields in a JSON Lines gold set."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli
from tests.analyse.slices.slice_data import write_slice_data


def _qrels_and_meta(paths: dict[str, Path], folder: Path) -> tuple[Path, Path, Path]:
    records = [json.loads(line) for line in paths["gold"].read_text().splitlines()]
    answerable = [r for r in records if not r.get("unanswerable")]
    qrels = folder / "gold.qrels"
    qrels.write_text(
        "".join(f"{r['id']} 0 {c} {g}\n" for r in answerable for c, g in r["gold"].items())
    )
    meta_jsonl = folder / "meta.jsonl"
    meta_jsonl.write_text(
        "".join(json.dumps({"qid": r["id"], "lang": r.get("lang")}) + "\n" for r in answerable)
        + json.dumps({"qid": "nowhere", "lang": "xx"})
        + "\n"
    )
    meta_csv = folder / "meta.csv"
    meta_csv.write_text(
        "id,lang\n" + "".join(f"{r['id']},{r.get('lang') or ''}\n" for r in answerable)
    )
    return qrels, meta_jsonl, meta_csv


def _report(gold: Path, paths: dict[str, Path], out: Path, *options: str):
    args = ["report", str(gold), f"a={paths['a']}", "--out", str(out), "--format", "json"]
    return CliRunner().invoke(cli, [*args, "--slice-by", "lang", *options])


def test_a_meta_file_gives_qrels_the_slices_a_jsonl_gold_set_has(tmp_path: Path) -> None:
    paths = write_slice_data(tmp_path)
    qrels, meta_jsonl, meta_csv = _qrels_and_meta(paths, tmp_path)
    sliced = {}
    for name, meta in (("jsonl", meta_jsonl), ("csv", meta_csv)):
        result = _report(qrels, paths, tmp_path / name, "--question-meta", str(meta))
        assert result.exit_code == 0, result.output
        report = json.loads((tmp_path / name / "report.json").read_text())
        sliced[name] = report["runs"]["a"]["by_slice"]["lang"]
        warned = {w["code"]: w for w in report["warnings"]}
        assert ("question_meta_unknown_ids" in warned) == (name == "jsonl")
    assert sliced["jsonl"] == sliced["csv"]
    assert set(sliced["csv"]) == {"de", "en", "fr", "(missing)"}


def test_a_field_in_both_files_or_missing_everywhere_exits_2(tmp_path: Path) -> None:
    paths = write_slice_data(tmp_path)
    _, meta_jsonl, _ = _qrels_and_meta(paths, tmp_path)
    both = _report(paths["gold"], paths, tmp_path / "o", "--question-meta", str(meta_jsonl))
    assert both.exit_code == 2
    assert "the field 'lang' is also in the gold set" in both.output and "Fix:" in both.output


def test_a_field_holding_objects_cannot_slice(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "q1", "gold": ["c1"], "source": {"url": "x"}}\n')
    run = tmp_path / "run.jsonl"
    run.write_text('{"id": "q1", "chunks": ["c1"]}\n')
    result = CliRunner().invoke(
        cli, ["report", str(gold), str(run), "--out", str(tmp_path / "o"), "--slice-by", "source"]
    )
    assert result.exit_code == 2
    assert "--slice-by source: holds objects" in result.output
