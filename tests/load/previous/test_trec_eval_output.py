"""Reading what `trec_eval -q` prints as the per-question rows reportgen writes."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from reportgen.errors import InputError
from reportgen.load.previous.per_question import read_per_question
from reportgen.load.previous.shards import load_shard

FIX = "unused: trec_eval output has its own fix"

# Two questions of run "bm25" as trec_eval prints them (a padded name, then tabs),
# with measures reportgen does not have (num_rel_ret, relstring, bpref) among them.
OUTPUT = (
    "num_ret               \tq1\t10\n"
    "num_rel               \tq1\t2\n"
    "num_rel_ret           \tq1\t1\n"
    "map                   \tq1\t0.2500\n"
    "P_5                   \tq1\t0.2000\n"
    "recip_rank            \tq1\t0.5000\n"
    "success_1             \tq1\t0.0000\n"
    "relstring             \tq1\t'0100000000'\n"
    "num_ret               \tq2\t10\n"
    "num_rel               \tq2\t1\n"
    "num_rel_ret           \tq2\t1\n"
    "map                   \tq2\t1.0000\n"
    "P_5                   \tq2\t0.2000\n"
    "recip_rank            \tq2\t1.0000\n"
    "success_1             \tq2\t1.0000\n"
    "relstring             \tq2\t'1000000000'\n"
    "runid                 \tall\tbm25\n"
    "num_q                 \tall\t2\n"
    "map                   \tall\t0.6250\n"
    "bpref                 \tall\t0.5000\n"
)


def _file(tmp_path: Path, text: str, name: str = "out-0.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_per_question_lines_become_wide_rows_in_reportgen_order(tmp_path: Path) -> None:
    frame = read_per_question(_file(tmp_path, OUTPUT), FIX)
    # cutoff measures first (hit, then precision), then mrr and ap; the `all` lines go
    assert frame.columns == [
        "run",
        "qid",
        "kind",
        "status",
        "hit@1",
        "precision@5",
        "mrr",
        "ap",
    ]
    assert frame["run"].to_list() == ["bm25", "bm25"]
    assert frame["qid"].to_list() == ["q1", "q2"]
    assert frame["kind"].to_list() == ["unlabelled", "unlabelled"]
    assert frame["status"].to_list() == ["scored", "scored"]
    assert frame["ap"].to_list() == [0.25, 1.0]
    assert frame["mrr"].to_list() == [0.5, 1.0]
    assert frame["hit@1"].to_list() == [0.0, 1.0]
    assert frame.schema["precision@5"] == pl.Float64


def test_every_measure_name_maps_onto_reportgen_keys(tmp_path: Path) -> None:
    names = {
        "success_10": "hit@10",
        "recall_5": "recall@5",
        "P_20": "precision@20",
        "ndcg_cut_10": "ndcg@10",
        "map_cut_100": "ap@100",
        "recip_rank": "mrr",
        "map": "ap",
        "Rprec": "r-precision",
    }
    ignored = ["ndcg", "relative_P_5", "Rprec_mult_0.20", "iprec_at_recall_0.10", "unj_5"]
    text = "".join(f"{name}\tq1\t0.5000\n" for name in [*names, *ignored])
    frame = read_per_question(_file(tmp_path, text), FIX)
    assert sorted(frame.columns[4:]) == sorted(names.values())


def test_without_runid_the_run_is_the_file_stem(tmp_path: Path) -> None:
    frame = read_per_question(_file(tmp_path, "map\tq1\t0.5000\n", "dense-3.txt"), FIX)
    assert frame["run"].to_list() == ["dense-3"]


def test_concatenated_outputs_keep_each_run_apart(tmp_path: Path) -> None:
    second = OUTPUT.replace("bm25", "dense").replace("\t0.2500", "\t0.1250")
    frame = read_per_question(_file(tmp_path, OUTPUT + second), FIX)
    assert frame.select("run", "qid", "ap").rows() == [
        ("bm25", "q1", 0.25),
        ("bm25", "q2", 1.0),
        ("dense", "q1", 0.125),
        ("dense", "q2", 1.0),
    ]


def test_num_rel_and_num_ret_give_the_status_reportgen_would(tmp_path: Path) -> None:
    # q1: nothing relevant in the qrels; q2: the run returned nothing (trec_eval -c);
    # q3: both, and no relevant chunk wins, as in reportgen's own measuring
    text = (
        "num_ret\tq1\t10\nnum_rel\tq1\t0\nmap\tq1\t0.0000\n"
        "num_ret\tq2\t0\nnum_rel\tq2\t3\nmap\tq2\t0.0000\n"
        "num_ret\tq3\t0\nnum_rel\tq3\t0\nmap\tq3\t0.0000\n"
        "num_ret\tq4\t10\nnum_rel\tq4\t3\nmap\tq4\t0.5000\n"
    )
    frame = read_per_question(_file(tmp_path, text), FIX)
    assert frame["status"].to_list() == ["no_relevant", "missing", "no_relevant", "scored"]


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("map\tq1\t0.5000\nmap\tq2\n", 2, "2 columns where exactly 3 are needed"),
        ("map\tq1\t0.5000\n\nP_5 q2 0.2 extra\n", 3, "4 columns where exactly 3 are needed"),
        ("map\tq1\t0.5000\nP_5\tq1\tnan%\n", 2, "value 'nan%' is not a number"),
        ("num_rel\tq1\tmany\nmap\tq1\t0.5000\n", 1, "value 'many' is not a number"),
        ("map\tq1\t0.5000\nmap\tq1\t0.2500\n", 2, "map of question 'q1' in run 'out-0' a second"),
    ],
)
def test_malformed_lines_are_named_by_line(
    tmp_path: Path, text: str, line: int, problem: str
) -> None:
    path = _file(tmp_path, text)
    with pytest.raises(InputError) as caught:
        read_per_question(path, FIX)
    assert caught.value.line == line
    assert caught.value.problem.startswith(problem)
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_text_in_a_measure_reportgen_ignores_is_not_an_error(tmp_path: Path) -> None:
    text = "relstring\tq1\t'10'\nmap\tq1\t0.5000\nrunid\tall\tbm25\n"
    assert read_per_question(_file(tmp_path, text), FIX)["ap"].to_list() == [0.5]


def test_a_file_without_a_measure_reportgen_has_names_them(tmp_path: Path) -> None:
    text = "num_ret\tq1\t10\nbpref\tq1\t0.5000\nrunid\tall\tbm25\n"
    with pytest.raises(InputError) as caught:
        read_per_question(_file(tmp_path, text), FIX)
    problem = caught.value.problem
    assert problem.startswith("no per-question value of a measure reportgen has")
    for name in ("success_K", "recall_K", "P_K", "ndcg_cut_K", "map_cut_K", "recip_rank", "Rprec"):
        assert name in problem
    assert "-q" in caught.value.fix


@pytest.mark.hand_made_reports
def test_a_report_json_beside_trec_eval_output_is_not_the_shards(tmp_path: Path) -> None:
    (tmp_path / "report.json").write_text("not even JSON")
    shard = load_shard(_file(tmp_path, OUTPUT))
    assert shard.report is None
    assert shard.rows.height == 2


def test_trec_eval_s_own_output_reads(trec_eval_dir: Path) -> None:
    # out.test.aq: 3 topics, 96 lines each; 301: map 0.0324, P_5 0.0000, success_10 1
    frame = read_per_question(trec_eval_dir / "out.test.aq", FIX)
    assert frame["run"].unique().to_list() == ["STANDARD"]
    assert frame["qid"].to_list() == ["301", "302", "303"]
    first = frame.row(0, named=True)
    assert (first["ap"], first["precision@5"], first["hit@10"]) == (0.0324, 0.0, 1.0)
    # success 1,5,10; recall, P, ndcg_cut and map_cut at 9 cutoffs each; 3 whole-list
    assert len(frame.columns) == 4 + 3 + 4 * 9 + 3
