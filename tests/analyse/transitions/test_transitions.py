"""transitions.RUN: questions moving between the baseline's cells and this report's.

The identities are checked on random data through the CLI: rows sum to the baseline's
cells, columns to this report's, every moved question is where both reports put it,
and each pair of opposite moves gets scipy's exact binomial p.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner
from scipy.stats import binomtest

from reportgen.analyse.paired import exact_mcnemar
from reportgen.analyse.transitions import CELL_STATES, RETRIEVAL_STATES, matrix
from reportgen.cli import cli

K = 3


def write_side(folder: Path, seed: int, *, verdicts: bool = True, questions: int = 40) -> Path:
    """A random gold set (every fifth question unanswerable), run and verdicts."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    qids = [f"q{i:03d}" for i in range(questions)]
    gold = [
        {"id": q, "kind": "k" + str(i % 3), "unanswerable": True}
        if i % 5 == 4
        else {"id": q, "kind": "k" + str(i % 3), "gold": [f"{q}-g1", f"{q}-g2"][: 1 + i % 2]}
        for i, q in enumerate(qids)
    ]
    run = []
    for q in qids:
        pool = [f"{q}-g1", f"{q}-g2", *(f"x{rng.randrange(30)}" for _ in range(6))]
        rng.shuffle(pool)
        run.append({"id": q, "chunks": list(dict.fromkeys(pool))})
    (folder / "gold.jsonl").write_text("".join(json.dumps(g) + "\n" for g in gold))
    (folder / "run.jsonl").write_text("".join(json.dumps(r) + "\n" for r in run))
    if verdicts:
        records = [
            {"id": q, "correct": rng.random() < 0.6}
            for q in qids
            if rng.random() < 0.95  # a few without a verdict
        ]
        (folder / "verdicts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


def report(side: Path, out: Path, *extra: str) -> dict[str, Any]:
    args = ["report", str(side / "gold.jsonl"), f"rag={side / 'run.jsonl'}"]
    if (side / "verdicts.jsonl").is_file():
        args += ["--verdicts", str(side / "verdicts.jsonl"), "--verdicts-run", "rag"]
    args += ["--k", "1,3", "--context-k", str(K), "--format", "json", "--out", str(out), *extra]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    loaded: dict[str, Any] = json.loads((out / "report.json").read_text())
    return loaded


def cells_of(section: dict[str, Any]) -> dict[str, set[str]]:
    return {cell: set(ids) for cell, ids in section["questions"].items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rows_sum_to_the_baseline_cells_and_columns_to_this_report(
    tmp_path: Path, seed: int
) -> None:
    then = report(write_side(tmp_path / "a", seed), tmp_path / "A")
    now = report(
        write_side(tmp_path / "b", seed + 100), tmp_path / "B", "--baseline", str(tmp_path / "A")
    )
    entry = now["transitions"]["rag"]
    assert entry["mode"] == "cells" and entry["states"] == list(CELL_STATES)
    grid = entry["matrix"]
    for cell in CELL_STATES[:4]:
        assert sum(grid[cell].values()) == then["attribution"]["rag"]["cells"][cell]
        assert sum(row[cell] for row in grid.values()) == now["attribution"]["rag"]["cells"][cell]
    assert entry["then"]["unanswerable"] == entry["now"]["unanswerable"] == 8
    assert entry["questions"] == 40 == entry["unchanged"] + entry["moved"]
    before, after = cells_of(then["attribution"]["rag"]), cells_of(now["attribution"]["rag"])
    for move in entry["moves"]:
        assert move["count"] == len(move["questions"]) > 0 and move["from"] != move["to"]
        for qid in move["questions"]:
            if move["from"] in before:
                assert qid in before[move["from"]]
            if move["to"] in after:
                assert qid in after[move["to"]]
    for test in entry["tests"]:
        there, back = test["a_to_b"], test["b_to_a"]
        assert there == grid[test["a"]][test["b"]] and back == grid[test["b"]][test["a"]]
        expected = binomtest(min(there, back), there + back, 0.5).pvalue
        assert test["p"] == pytest.approx(expected, abs=1e-9)
    moved = [qid for move in entry["moves"] for qid in move["questions"]]
    side = entry["side_by_side"]
    assert side["available"] and side["count"] == len(moved)
    assert [row["qid"] for row in side["questions"]] == moved
    for row in side["questions"]:
        assert row["now"] == now["top_k"]["runs"]["rag"][row["qid"]]
        assert row["then"] == then["top_k"]["runs"]["rag"][row["qid"]]


def test_a_report_against_itself_moves_nothing(tmp_path: Path) -> None:
    side = write_side(tmp_path / "a", 5)
    report(side, tmp_path / "A")
    entry = report(side, tmp_path / "B", "--baseline", str(tmp_path / "A"))["transitions"]["rag"]
    assert entry["moved"] == 0 and entry["moves"] == [] and entry["tests"] == []
    assert entry["side_by_side"] == {"available": True, "count": 0, "questions": []}


def test_without_verdicts_retrieved_or_missed_at_k_ctx(tmp_path: Path) -> None:
    report(write_side(tmp_path / "a", 7, verdicts=False), tmp_path / "A")
    now = report(
        write_side(tmp_path / "b", 8, verdicts=False),
        tmp_path / "B",
        "--baseline",
        str(tmp_path / "A"),
    )
    entry = now["transitions"]["rag"]
    assert entry["mode"] == "retrieval" and entry["states"] == list(RETRIEVAL_STATES)
    for folder, side in (("A", "then"), ("B", "now")):
        rows = pl.read_csv(tmp_path / folder / "per_question.csv")
        answerable = rows.filter(pl.col("status") != "unanswerable")
        assert entry[side]["retrieved"] == answerable.filter(pl.col(f"hit@{K}") > 0).height
        assert entry[side]["missed"] == answerable.filter(pl.col(f"hit@{K}") == 0).height


def test_verdicts_on_one_side_only_fall_back_to_retrieval_and_say_so(tmp_path: Path) -> None:
    report(write_side(tmp_path / "a", 9, verdicts=False), tmp_path / "A")
    now = report(write_side(tmp_path / "b", 10), tmp_path / "B", "--baseline", str(tmp_path / "A"))
    entry = now["transitions"]["rag"]
    assert entry["mode"] == "retrieval"
    assert entry["notes"] == ["the baseline has no verdicts for this run: retrieved/missed only"]


@pytest.mark.hand_made_reports  # the baseline is edited to look older
def test_an_older_baseline_without_lists_or_cells_says_what_it_cannot_show(
    tmp_path: Path,
) -> None:
    report(write_side(tmp_path / "a", 11), tmp_path / "A")
    path = tmp_path / "A" / "report.json"
    old = json.loads(path.read_text())
    del old["top_k"], old["attribution"]["rag"]["questions"]
    old.pop("pages", None)
    path.write_text(json.dumps(old))
    entry = report(write_side(tmp_path / "b", 12), tmp_path / "B", "--baseline", str(path))[
        "transitions"
    ]["rag"]
    assert entry["mode"] == "retrieval"
    assert "predates per-question cells" in entry["notes"][0]
    assert entry["side_by_side"]["available"] is False
    assert all(row["then"] is None for row in entry["side_by_side"]["questions"])


def test_a_baseline_over_another_gold_version_counts_only_shared_questions(
    tmp_path: Path,
) -> None:
    report(write_side(tmp_path / "a", 13, questions=40), tmp_path / "A")
    now = report(
        write_side(tmp_path / "b", 14, questions=45),
        tmp_path / "B",
        "--baseline",
        str(tmp_path / "A"),
        "--on-gold-change",
        "intersect",
    )
    entry = now["transitions"]["rag"]
    assert entry["questions"] == now["baseline"]["gold_change"]["shared_questions"] == 40
    assert entry["only_in_baseline"] == entry["only_in_this_report"] == 0


def test_matrix_identities_on_random_states() -> None:
    rng = random.Random(0)
    for _ in range(50):
        n = rng.randrange(0, 60)
        qids = [f"q{i}" for i in range(n)]
        then = pl.DataFrame({"qid": qids, "state": [rng.choice(CELL_STATES) for _ in qids]})
        now = pl.DataFrame({"qid": qids, "state": [rng.choice(CELL_STATES) for _ in qids]})
        entry = matrix(then, now, CELL_STATES)
        counts_then = then.group_by("state").len()
        for state, count in counts_then.iter_rows():
            assert entry["then"][state] == count
        for state, count in now.group_by("state").len().iter_rows():
            assert entry["now"][state] == count
        assert sum(entry["then"].values()) == sum(entry["now"].values()) == n
        listed = [qid for move in entry["moves"] for qid in move["questions"]]
        assert len(listed) == len(set(listed)) == entry["moved"]


@pytest.mark.parametrize(
    ("lost", "gained", "p"), [(0, 0, 1.0), (3, 0, 0.25), (2, 6, 0.2890625), (0, 1, 1.0)]
)
def test_exact_mcnemar(lost: int, gained: int, p: float) -> None:
    assert exact_mcnemar(lost, gained) == pytest.approx(p)


def test_another_k_ctx_or_rule_is_said_beside_the_matrix(tmp_path: Path) -> None:
    side = write_side(tmp_path / "a", 15)
    report(side, tmp_path / "A")
    args = ["--baseline", str(tmp_path / "A"), "--retrieved-when", "all"]
    entry = report(side, tmp_path / "B", *args)["transitions"]["rag"]
    assert entry["k"] == {"then": K, "now": K}
    assert entry["notes"] == [
        f"the baseline sent {K} chunks (retrieved when any), this report {K} (all): "
        "a move may be the setting's"
    ]
    # same lists and verdicts: only questions with two gold chunks, one of them sent, move
    for move in entry["moves"]:
        assert (move["from"], move["to"]) in {
            ("retrieved_correct", "missed_correct"),
            ("retrieved_wrong", "missed_wrong"),
        }
