"""`reportgen label export --sample`: the human audit of a judge drawn reproducibly, graded,
folded back by `label import`, and recognised by `report --judgments` as a random sample."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
from click.testing import CliRunner

from reportgen.analyse.ppi import draw_audit
from reportgen.cli import cli
from tests.analyse.ppi.simulation import judged, world


def _inputs(folder: Path) -> pl.DataFrame:
    rng = np.random.default_rng(11)
    truth, run = world(120, rng)
    judged(truth, 0.1, 0.05, rng).select("qid", "chunk_id", "grade").write_csv(folder / "judge.csv")
    (folder / "run.trec").write_text(
        "".join(f"{q} Q0 {c} {r} {100 - r} a\n" for q, c, r, _ in run.iter_rows())
    )
    # the hand-built gold set the team had: one question the judge never saw
    (folder / "gold.jsonl").write_text('{"id": "hand-1", "gold": {"z1": 1}}\n')
    return truth


def _invoke(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.output


def _export(folder: Path, out: str, *extra: str) -> tuple[int, str]:
    return _invoke(
        "label", "export", folder / "gold.jsonl", f"a={folder / 'run.trec'}",
        "--judgments", folder / "judge.csv", "--out", folder / out, *extra,
    )  # fmt: skip


def test_the_audit_loop_closes_on_a_random_sample(tmp_path: Path):
    truth = _inputs(tmp_path)
    code, output = _export(tmp_path, "audit.csv", "--sample", "40", "--seed", "5")
    assert code == 0, output
    assert "the audit sample 40 of 120, seed 5" in output
    again, _ = _export(tmp_path, "again.csv", "--sample", "40", "--seed", "5")
    assert again == 0
    assert (tmp_path / "audit.csv").read_bytes() == (tmp_path / "again.csv").read_bytes()
    queue = pl.read_csv(tmp_path / "audit.csv", schema_overrides={"grade": pl.Int64})
    assert queue["qid"].n_unique() == 40
    assert set(queue["audit"].unique()) == {"sample 40 of 120, seed 5"}
    # a person grades every row (the truth)
    graded = queue.drop("grade").join(truth, on=["qid", "chunk_id"], how="left")
    graded.with_columns(pl.col("grade").fill_null(0)).write_csv(tmp_path / "graded.csv")
    code, output = _invoke(
        "label", "import", tmp_path / "gold.jsonl", tmp_path / "graded.csv",
        "--out", tmp_path / "gold-v2.jsonl", "--version", "v2",
    )  # fmt: skip
    assert code == 0, output
    records = [json.loads(line) for line in (tmp_path / "gold-v2.jsonl").read_text().splitlines()]
    assert records[1] == {"id": "hand-1", "gold": {"z1": 1}}  # kept as it was
    assert sum(r.get("audit") == "sample 40 of 120, seed 5" for r in records) == 40
    code, output = _invoke(
        "report", tmp_path / "gold-v2.jsonl", f"a={tmp_path / 'run.trec'}", "--judgments",
        tmp_path / "judge.csv", "--out", tmp_path / "report", "--format", "json",
    )  # fmt: skip
    assert code == 0, output
    audit = json.loads((tmp_path / "report" / "report.json").read_text())["secondary_judgments"]
    assert audit["audit"]["sample"] == {"size": 40, "population": 120, "seed": 5}
    assert audit["audit"]["questions"] == 40 and audit["audit"]["guards"] == []
    assert audit["audit"]["outside_judge"] == 1
    assert audit["ppi"]["a"]["recall@5"]["n_human"] == 40


def test_a_sample_needs_the_judgments_and_stays_whole(tmp_path: Path):
    _inputs(tmp_path)
    code, output = _invoke(
        "label", "export", tmp_path / "gold.jsonl", f"a={tmp_path / 'run.trec'}",
        "--sample", "10", "--out", tmp_path / "q.csv",
    )  # fmt: skip
    assert code == 2 and "--judgments" in output
    code, output = _export(tmp_path, "q.csv", "--sample", "10", "--limit", "5")
    assert code == 2 and "random sample" in output
    code, output = _export(tmp_path, "q.csv", "--sample", "500")
    assert code == 2 and "120" in output
    code, output = _export(tmp_path, "q.csv")
    assert code == 2 and "--sample" in output


def test_an_audit_into_a_qrels_gold_file_is_refused(tmp_path: Path):
    _inputs(tmp_path)
    (tmp_path / "gold.qrels").write_text("q0000 0 q0000-c1 1\n")
    _export(tmp_path, "audit.jsonl", "--sample", "3")
    rows = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    (tmp_path / "graded.jsonl").write_text(
        "".join(json.dumps(row | {"grade": 1}) + "\n" for row in rows)
    )
    code, output = _invoke(
        "label", "import", tmp_path / "gold.qrels", tmp_path / "graded.jsonl",
        "--out", tmp_path / "new.qrels",
    )  # fmt: skip
    assert code == 2 and "JSON Lines" in output


def test_a_drawn_question_the_gold_set_already_grades_counts_as_audited(tmp_path: Path):
    # the export has nothing to queue for a drawn question the gold set grades whole, so
    # it gets no `audit` mark; the report must still count it as part of the drawn sample
    truth = _inputs(tmp_path)
    judge = pl.read_csv(tmp_path / "judge.csv")
    whole = draw_audit(judge["qid"].unique().to_list(), 40, 5)[0]
    grades = {c: g for _, c, g in truth.filter(pl.col("qid") == whole).iter_rows()}
    with (tmp_path / "gold.jsonl").open("a") as gold:
        gold.write(json.dumps({"id": whole, "gold": grades}) + "\n")
    code, output = _export(tmp_path, "audit.csv", "--sample", "40", "--seed", "5")
    assert code == 0, output
    assert "of 39 question(s)" in output and "1 drawn question(s) the gold set already" in output
    queue = pl.read_csv(tmp_path / "audit.csv", schema_overrides={"grade": pl.Int64})
    assert whole not in queue["qid"].to_list() and queue["qid"].n_unique() == 39
    graded = queue.drop("grade").join(truth, on=["qid", "chunk_id"], how="left")
    graded.with_columns(pl.col("grade").fill_null(0)).write_csv(tmp_path / "graded.csv")
    code, output = _invoke(
        "label", "import", tmp_path / "gold.jsonl", tmp_path / "graded.csv",
        "--out", tmp_path / "gold-v2.jsonl", "--version", "v2",
    )  # fmt: skip
    assert code == 0, output
    code, output = _invoke(
        "report", tmp_path / "gold-v2.jsonl", f"a={tmp_path / 'run.trec'}", "--judgments",
        tmp_path / "judge.csv", "--out", tmp_path / "report", "--format", "json",
    )  # fmt: skip
    assert code == 0, output
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    audit = report["secondary_judgments"]["audit"]
    assert audit["questions"] == 40 and audit["guards"] == []
    assert "ppi_audit_not_random" not in {w["code"] for w in report["warnings"]}
    assert report["secondary_judgments"]["ppi"]["a"]["recall@5"]["n_human"] == 40
