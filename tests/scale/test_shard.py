"""`reportgen shard` cuts every input format by question, and the shards put back
together are the inputs: each shard read by the ordinary loaders, then united, gives
the whole file's questions, judgments, ranked lists and verdicts."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    example_dir,
    make_report,
    make_shards,
    merge_reports,
)
from reportgen.cli import cli
from reportgen.core.model import fingerprint_of
from reportgen.errors import InputError, UsageError
from reportgen.load import load_gold, load_run, load_verdicts
from reportgen.scale.shard import shard_column, shard_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "verdicts"
QUESTIONS = 30
SHARDS = 3


def independent_shard(qid: str, shards: int) -> int:
    """The documented rule, written another way: the first 16 hex digits as a number."""
    return int(hashlib.sha256(qid.encode()).hexdigest()[:16], 16) % shards


def test_the_rule_is_the_documented_digest_and_never_changes() -> None:
    ids = ["q1", "q2", "1", "ü-7", "a b", ""]
    assert [shard_of(q, 7) for q in ids] == [independent_shard(q, 7) for q in ids]
    # pinned: a question must land in the same shard in every release and on every machine
    assert [shard_of(q, 8) for q in ("q1", "q2", "q3", "q4")] == [
        independent_shard(q, 8) for q in ("q1", "q2", "q3", "q4")
    ]
    assert shard_column(pl.Series(ids), 7).to_list() == [shard_of(q, 7) for q in ids]


def qid(i: int) -> str:
    return f"q{i:02d}"


def gold_files(folder: Path) -> dict[str, Path]:
    """The same kind of gold set in every format, each with what its format allows."""
    lines = ['{"_meta": {"version": "g.3", "index_version": "kb-1"}}']
    csv = ["id,chunk_id,grade,kind,question,forbidden"]
    qrels = ["# qid iter docid grade"]
    beir = ["query-id\tcorpus-id\tscore"]
    for i in range(QUESTIONS):
        if i == 7:
            lines.append(f'{{"id": "{qid(i)}", "question": "none?", "unanswerable": true}}')
            continue
        grades = {f"c{i}": 1 + i % 2, f"c{i + 100}": 1}
        lines.append(json.dumps({"id": qid(i), "question": f"what is {i}?", "gold": grades}))
        text = f'"what is\n{i}, really?"' if i % 5 == 0 else f"what is {i}?"
        csv += [f"{qid(i)},{c},{g},k{i % 3},{text}," for c, g in grades.items()]
        if i % 4 == 0:
            csv.append(f"{qid(i)},c{i + 200},,k{i % 3},{text},staff-only")
        qrels += [f"{qid(i)} 0 {c} {g}" for c, g in grades.items()]
        beir += [f"{qid(i)}\t{c}\t{g}" for c, g in grades.items()]
        if i == 10:
            qrels.append("# a comment among the judgments")
    paths = {
        "jsonl": folder / "gold.jsonl",
        "csv": folder / "gold.csv",
        "qrels": folder / "gold.qrels",
        "beir": folder / "test.tsv",
    }
    for path, body in zip(paths.values(), (lines, csv, qrels, beir), strict=True):
        path.write_text("\n".join(body) + "\n")
    return paths


def run_frame() -> pl.DataFrame:
    rows = [
        (qid(i), f"c{i + j}", j + 1, 10.0 - j)
        for i in [*range(QUESTIONS), 99]  # q99: a question the gold set lacks
        if i != 3  # q03: missing from the run
        for j in range(4)
    ]
    return pl.DataFrame(rows, schema=["id", "chunk_id", "rank", "score"], orient="row")


def run_files(folder: Path) -> dict[str, Path]:
    frame = run_frame()
    paths = {name: folder / f"{name}.{ext}" for name, ext in (
        ("trec", "trec"), ("jsonl", "jsonl"), ("csv", "csv"), ("parquet", "parquet"),
        ("ranx", "json"),
    )}  # fmt: skip
    trec = [f"{q} Q0 {c} {r} {s} tag" for q, c, r, s in frame.iter_rows()]
    paths["trec"].write_text("\n".join(["# a comment", *trec, f"{qid(1)} Q0 c1 9 0.5 tag"]))
    lists = frame.group_by("id", maintain_order=True).agg("chunk_id", "score")
    paths["jsonl"].write_text(
        "\n".join(json.dumps({"id": q, "chunks": c, "scores": s}) for q, c, s in lists.iter_rows())
        + "\n"
    )
    frame.write_csv(paths["csv"])
    frame.write_parquet(paths["parquet"])
    paths["ranx"].write_text(
        json.dumps({q: dict(zip(c, s, strict=True)) for q, c, s in lists.iter_rows()})
    )
    return paths


def verdict_files(folder: Path) -> dict[str, tuple[Path, dict[str, object]]]:
    """(path, loader options) of verdicts in each format, for most gold questions."""
    ids = [qid(i) for i in range(QUESTIONS) if i != 11] + ["q98"]
    out: dict[str, tuple[Path, dict[str, object]]] = {}
    jsonl = folder / "verdicts.jsonl"
    jsonl.write_text(
        "\n".join(json.dumps({"id": q, "correct": i % 3 != 0}) for i, q in enumerate(ids)) + "\n"
    )
    out["jsonl"] = (jsonl, {})
    csv = folder / "verdicts.csv"
    csv.write_text("qid,correct,run\n" + "".join(f"{q},{i % 2},r\n" for i, q in enumerate(ids)))
    out["csv"] = (csv, {})
    ragas = folder / "ragas.csv"
    texts = [f"what is {q[1:].lstrip('0') or '0'}?" for q in ids]
    ragas.write_text(
        "user_input,faithfulness\n" + "".join(f"{t},0.{i % 10}\n" for i, t in enumerate(texts))
    )
    out["ragas"] = (ragas, {"metric": "faithfulness", "threshold": 0.5})
    promptfoo = json.loads((FIXTURES / "promptfoo.json").read_text())
    first = promptfoo["results"]["results"][0]
    promptfoo["results"]["results"] = [_with_var(first, q) for q in ids]
    (folder / "promptfoo.json").write_text(json.dumps(promptfoo))
    out["promptfoo"] = (folder / "promptfoo.json", {})
    deepeval = json.loads((FIXTURES / "deepeval.json").read_text())
    case = deepeval["testCases"][0]
    deepeval["testCases"] = [{**case, "metadata": {"id": q}} for q in ids]
    (folder / "deepeval.json").write_text(json.dumps(deepeval))
    out["deepeval"] = (folder / "deepeval.json", {})
    return out


def _with_var(row: dict[str, object], question: str) -> dict[str, object]:
    row = copy.deepcopy(row)
    row["vars"]["id"] = question  # type: ignore[index]
    row["testCase"]["vars"]["id"] = question  # type: ignore[index]
    return row


def shard_folders(out: Path) -> list[Path]:
    return [out / f"shard-{i}" for i in range(SHARDS)]


def united(frames: list[pl.DataFrame], *keys: str) -> pl.DataFrame:
    return pl.concat(frames).sort(*keys)


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "qrels", "beir"])
def test_gold_shards_unite_into_the_gold_set(tmp_path: Path, fmt: str) -> None:
    path = gold_files(tmp_path)[fmt]
    runs = run_files(tmp_path)
    plan = make_shards(path, [runs["trec"]], tmp_path / "out", SHARDS)
    whole = load_gold(path)
    parts = [load_gold(folder / plan.gold) for folder in shard_folders(tmp_path / "out")]
    assert plan.gold == f"gold{path.suffix}"
    for part, folder in zip(parts, shard_folders(tmp_path / "out"), strict=True):
        shard = int(folder.name.removeprefix("shard-"))
        assert {shard_of(q, SHARDS) for q in part.questions["qid"]} == {shard}
        assert (part.version, part.index_version) == (whole.version, whole.index_version)
    assert united([p.questions for p in parts], "qid").equals(whole.questions.sort("qid"))
    assert united([p.judgments for p in parts], "qid", "chunk_id").equals(
        whole.judgments.sort("qid", "chunk_id")
    )
    assert united([p.forbidden for p in parts], "qid", "chunk_id").equals(
        whole.forbidden.sort("qid", "chunk_id")
    )
    union = {q: d for part in parts for q, d in part.question_digests.items()}
    assert fingerprint_of(union) == whole.fingerprint
    assert plan.questions == [p.questions.height for p in parts]
    # each shard knows its place in the cut: what merge checks a shard set against
    for number, folder in enumerate(shard_folders(tmp_path / "out")):
        cut = json.loads((folder / "cut.json").read_text())
        assert cut == {"shard": number, "shards": SHARDS, "gold_fingerprint": whole.fingerprint,
                       "questions": whole.questions.height}  # fmt: skip
    assert json.loads((tmp_path / "out" / "shards.json").read_text())["gold_fingerprint"] == (
        whole.fingerprint
    )


@pytest.mark.parametrize("fmt", ["trec", "jsonl", "csv", "parquet", "ranx"])
def test_run_shards_unite_into_the_run(tmp_path: Path, fmt: str) -> None:
    path = run_files(tmp_path)[fmt]
    plan = make_shards(gold_files(tmp_path)["jsonl"], [f"bm25={path}"], tmp_path / "out", SHARDS)
    assert plan.runs == {"bm25": f"runs/bm25{path.suffix}"}
    whole = load_run(path)
    parts = [load_run(folder / plan.runs["bm25"]) for folder in shard_folders(tmp_path / "out")]
    assert united([p.results for p in parts], "qid", "rank").equals(
        whole.results.sort("qid", "rank")
    )
    assert sum(p.repeated_chunks for p in parts) == whole.repeated_chunks
    assert {p.order for p in parts} == {whole.order}


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "ragas", "promptfoo", "deepeval"])
def test_verdict_shards_unite_into_the_verdicts(tmp_path: Path, fmt: str) -> None:
    path, options = verdict_files(tmp_path)[fmt]
    gold = gold_files(tmp_path)["jsonl"]
    plan = make_shards(
        gold,
        [run_files(tmp_path)["trec"]],
        tmp_path / "out",
        SHARDS,
        verdicts=path,
        verdict_metric=options.get("metric"),  # type: ignore[arg-type]
        verdict_threshold=options.get("threshold"),  # type: ignore[arg-type]
    )
    (name,) = plan.verdicts
    whole = load_verdicts(path, **options)  # type: ignore[arg-type]
    parts = [
        load_verdicts(folder / name, **options)  # type: ignore[arg-type]
        for folder in shard_folders(tmp_path / "out")
    ]
    assert {p.format for p in parts} == {whole.format}
    keys = ("qid", "question", "run", "correct", "abstained")
    assert united([p.rows.select(keys) for p in parts], "qid", "question").equals(
        whole.rows.select(keys).sort("qid", "question")
    )


def example_specs() -> list[str]:
    runs = example_dir() / "runs"
    return [
        f"keyword={runs / 'keyword.trec'}",
        f"dense={runs / 'dense.jsonl'}",
        f"hybrid={runs / 'hybrid.csv'}",
        f"rerank={runs / 'rerank.jsonl'}",
    ]


def test_shard_measure_merge_gives_the_whole_reports_numbers(tmp_path: Path) -> None:
    gold = example_dir() / "gold.jsonl"
    verdicts = example_dir() / "verdicts.jsonl"
    plan = make_shards(gold, example_specs(), tmp_path / "shards", SHARDS, verdicts=verdicts)
    outs = []
    for i, folder in enumerate(plan.folders):
        runs = [(name, folder / path) for name, path in plan.runs.items()]
        (verdict_file,) = plan.verdicts
        inputs = ReportInputs(folder / plan.gold, runs, verdicts=folder / verdict_file)
        make_report(ReportRequest(inputs, ReportOutputs(tmp_path / f"out-{i}", formats=())))
        outs.append(tmp_path / f"out-{i}")
    merged = merge_reports(outs, tmp_path / "merged").report
    inputs = ReportInputs(gold, example_specs(), verdicts=verdicts)
    whole = make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "whole", formats=()))).report
    assert merged["gold"]["fingerprint"] == whole["gold"]["fingerprint"]
    for name, run in whole["runs"].items():
        assert merged["runs"][name]["means"] == pytest.approx(run["means"], abs=1e-9)
        assert merged["runs"][name]["counts"] == run["counts"]
    manifest = json.loads((tmp_path / "shards" / "shards.json").read_text())
    assert manifest["questions"] == plan.questions
    assert sum(plan.questions) == whole["gold"]["questions"]


def test_too_many_shards_for_the_questions_is_refused_before_writing(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": ["c2"]}\n')
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 c1 1 1.0 t\nq2 Q0 c2 1 1.0 t\n")
    with pytest.raises(UsageError, match=r"shard \d+ of 8 would hold none of the gold set's 2"):
        make_shards(gold, [run], tmp_path / "out", 8)
    with pytest.raises(UsageError, match="--shards 0"):
        make_shards(gold, [run], tmp_path / "out", 0)
    assert not (tmp_path / "out").exists()


def test_a_run_with_nothing_for_one_shard_is_named(tmp_path: Path) -> None:
    gold = gold_files(tmp_path)["jsonl"]
    run = tmp_path / "narrow.trec"
    run.write_text(f"{qid(1)} Q0 c1 1 1.0 t\n")
    with pytest.raises(UsageError, match=r"no record of .*narrow.trec"):
        make_shards(gold, [run], tmp_path / "out", SHARDS)
    assert not (tmp_path / "out").exists()


def test_a_bad_input_is_refused_with_its_line(tmp_path: Path) -> None:
    gold = gold_files(tmp_path)["jsonl"]
    run = tmp_path / "bad.trec"
    run.write_text(f"{qid(1)} Q0 c1 1 1.0 t\n{qid(2)} Q0 c1 1 high t\n")
    with pytest.raises(InputError, match=r"bad\.trec") as caught:
        make_shards(gold, [run], tmp_path / "out", SHARDS)
    assert caught.value.line == 2
    assert not (tmp_path / "out").exists()


def test_a_cut_into_fewer_shards_refuses_the_folders_an_earlier_cut_left(tmp_path: Path) -> None:
    gold = gold_files(tmp_path)["jsonl"]
    run = run_files(tmp_path)["csv"]
    out = tmp_path / "out"
    make_shards(gold, [run], out, SHARDS)
    make_shards(gold, [run], out, SHARDS)  # the same cut again is fine
    earlier = (out / "shards.json").read_bytes()
    with pytest.raises(UsageError, match=rf"shard-{SHARDS - 1}: a shard folder left by an earlier"):
        make_shards(gold, [run], out, SHARDS - 1)
    assert (out / "shards.json").read_bytes() == earlier


def test_the_command_line(tmp_path: Path) -> None:
    gold = gold_files(tmp_path)["jsonl"]
    run = run_files(tmp_path)["csv"]
    out = tmp_path / "out"
    done = CliRunner().invoke(
        cli, ["shard", str(gold), f"bm25={run}", "--shards", "3", "--out", str(out)]
    )
    assert done.exit_code == 0, done.output
    assert f"Cut {QUESTIONS} questions into 3 shards" in done.output
    assert (
        "reportgen report gold.jsonl bm25=runs/bm25.csv --merge-data --out ../out-N" in done.output
    )
    failed = CliRunner().invoke(cli, ["shard", str(gold), f"bm25={run}", "--shards", "99"])
    assert failed.exit_code == 2
    assert "Fix: use fewer shards" in failed.output
