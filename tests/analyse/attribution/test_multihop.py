"""Multi-hop questions: the four cells under --retrieved-when any|all, and the pass rate
split by how much of the evidence reached the model, worked by hand.

tests/fixtures/traces/multihop.jsonl (also docs/multihop.md), every line with context:

    q   gold                      context sent           sent/gold  coverage  correct
    h1  eiffel, paris, seine      eiffel, paris, seine   3/3        all       yes
    h2  jaws, alien               jaws, x2               1/2        some      no
    h3  dune, uw                  dune, x4               1/2        some      yes
    h4  bladerunner, androids     x5, x6                 0/2        none      yes
    h5  louvre, paris             x7                     0/2        none      no
    h6  may, redspecial           may, redspecial        2/2        all       no
    h7  canada                    canada                 1/1        all       yes
    h8  (unanswerable)            x1                     -          -         (left out)

any: retrieved h1 h2 h3 h6 h7 -> correct h1 h3 h7 (3), wrong h2 h6 (2); missed: correct
h4 (1), wrong h5 (1).  all: retrieved h1 h6 h7 -> correct h1 h7 (2), wrong h6 (1);
missed: correct h3 h4 (2), wrong h2 h5 (2).  By coverage (either rule): all 3 questions,
2 correct (0.6667); some 2, 1 (0.5); none 2, 1 (0.5).
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.analyse.attribution import Attribution
from reportgen.analyse.coverage import coverage
from reportgen.analyse.run import attribute_verdicts
from reportgen.cli import cli
from reportgen.core.model import (
    JUDGMENTS_SCHEMA,
    QUESTIONS_SCHEMA,
    RESULTS_SCHEMA,
    SENT_SCHEMA,
    GoldSet,
    Run,
    VerdictSet,
)
from reportgen.load.inputs.traces import load_trace
from reportgen.measure.scoring import Settings, evaluate
from reportgen.render.terminal import report_lines

MULTIHOP = Path(__file__).resolve().parents[2] / "fixtures" / "traces" / "multihop.jsonl"
BY_COVERAGE: dict[str, dict[str, float | int | None]] = {
    "all": {"questions": 3, "correct": 2, "pass_rate": 2 / 3},
    "some": {"questions": 2, "correct": 1, "pass_rate": 0.5},
    "none": {"questions": 2, "correct": 1, "pass_rate": 0.5},
}


def cells_of(
    gold: GoldSet, run: Run, settings: Settings, verdicts: VerdictSet | None
) -> Attribution:
    """The four cells of ``run`` under ``settings``, as the analysis stage makes them."""
    found, _, _ = attribute_verdicts(evaluate(gold, [run], settings), verdicts)
    assert found
    return found[0]


def approx_split(split: dict[str, dict[str, float | int | None]]) -> dict[str, object]:
    """The split with pass rates rounded: pytest.approx takes no nested dicts."""
    return {
        name: {**row, "pass_rate": None if row["pass_rate"] is None else round(row["pass_rate"], 6)}
        for name, row in split.items()
    }


@pytest.mark.parametrize(
    ("rule", "cells"),
    [
        ("any", {"retrieved_correct": ["h1", "h3", "h7"], "retrieved_wrong": ["h2", "h6"],
                 "missed_correct": ["h4"], "missed_wrong": ["h5"]}),
        ("all", {"retrieved_correct": ["h1", "h7"], "retrieved_wrong": ["h6"],
                 "missed_correct": ["h3", "h4"], "missed_wrong": ["h2", "h5"]}),
    ],
)  # fmt: skip
def test_the_worked_multihop_example(rule: str, cells: dict[str, list[str]]) -> None:
    trace = load_trace(MULTIHOP)
    settings = Settings(retrieved_when=rule)  # type: ignore[arg-type]
    found = cells_of(trace.gold, trace.run, settings, trace.verdicts)
    assert found.rule == rule
    assert found.overall.questions == cells
    assert approx_split(found.by_coverage) == approx_split(BY_COVERAGE)
    assert found.context_source == "trace"
    assert found.traced == 7  # the questions in the cells (h8, unanswerable, is not)


def test_without_context_the_top_k_is_what_was_sent() -> None:
    """At k = 2 the lists' tops are: h1 eiffel paris (2/3, some), h2 jaws x2 (some), h3
    dune x4 (some), h4 x5 x6 (none), h5 x7 x8 (none), h6 may redspecial (all), h7
    canada x9 (all)."""
    trace = load_trace(MULTIHOP)
    run = Run(trace.run.name, trace.run.results, trace.run.source, trace.run.order)
    found = cells_of(trace.gold, run, Settings(ks=(2,), context_k=2), trace.verdicts)
    assert found.context_source == "top_k"
    assert approx_split(found.by_coverage) == approx_split(
        {
            "all": {"questions": 2, "correct": 1, "pass_rate": 0.5},  # h6 no, h7 yes
            "some": {"questions": 3, "correct": 2, "pass_rate": 2 / 3},  # h1 h3 yes, h2 no
            "none": {"questions": 2, "correct": 1, "pass_rate": 0.5},  # h4 yes, h5 no
        }
    )


def test_a_context_line_is_used_as_sent_and_the_others_take_the_top_k() -> None:
    trace = load_trace(MULTIHOP)
    assert trace.run.sent is not None
    partly = Run(
        trace.run.name,
        trace.run.results,
        trace.run.source,
        "list",
        sent=trace.run.sent.filter(pl.col("qid") == "h3"),
    )
    covered = coverage(trace.gold, partly, 3, 1).sort("qid")
    # h3 by its context (dune, x4: 1 of 2); h1 by its top 3 (eiffel, paris, x1: 2 of 3)
    assert covered.filter(pl.col("qid") == "h3").row(0)[1:] == (2, 1, "some", True)
    assert covered.filter(pl.col("qid") == "h1").row(0)[1:] == (3, 2, "some", False)


ids = st.sampled_from(["a", "b", "c", "d", "e"])
qids = st.sampled_from(["q1", "q2", "q3"])


@settings(max_examples=150, deadline=None)
@given(
    gold=st.dictionaries(qids, st.dictionaries(ids, st.integers(0, 2), max_size=4), min_size=1),
    ranked=st.dictionaries(qids, st.lists(ids, unique=True, max_size=5)),
    sent=st.dictionaries(qids, st.lists(ids, unique=True, max_size=3)),
    k=st.integers(1, 5),
    threshold=st.integers(1, 2),
)  # fmt: skip
def test_coverage_matches_a_plain_set_count(
    gold: dict[str, dict[str, int]],
    ranked: dict[str, list[str]],
    sent: dict[str, list[str]],
    k: int,
    threshold: int,
) -> None:
    questions = pl.DataFrame(
        [(q, None, "x", False, None) for q in gold], schema=QUESTIONS_SCHEMA, orient="row"
    )
    judgments = pl.DataFrame(
        [(q, c, g) for q, chunks in gold.items() for c, g in chunks.items()],
        schema=JUDGMENTS_SCHEMA,
        orient="row",
    )
    results = pl.DataFrame(
        [(q, c, r, None) for q, chunks in ranked.items() for r, c in enumerate(chunks, 1)],
        schema=RESULTS_SCHEMA,
        orient="row",
    )
    traced = pl.DataFrame(list(sent.items()), schema=SENT_SCHEMA, orient="row") if sent else None
    run = Run("r", results, "r", "list", sent=traced)
    found = {
        row[0]: row[1:]
        for row in coverage(GoldSet(questions, judgments, "g"), run, k, threshold).rows()
    }
    for q, chunks in gold.items():
        relevant = {c for c, g in chunks.items() if g >= threshold}
        shown = set(sent[q]) if q in sent else set(ranked.get(q, [])[:k])
        arrived = len(relevant & shown)
        expected = (
            None
            if not relevant
            else "all"
            if arrived == len(relevant)
            else "some"
            if arrived
            else "none"
        )
        assert found[q] == (len(relevant), arrived, expected, q in sent)


def write_split_files(folder: Path) -> list[str]:
    """The worked example as three files (gold set, two runs, verdicts for both): the
    trace's retrieved lists as run ``ircot``, its gold lists as run ``oracle``."""
    lines = [json.loads(line) for line in MULTIHOP.read_text().splitlines()[1:]]
    gold, ircot, oracle, verdicts = (
        folder / name for name in ("g.jsonl", "i.jsonl", "o.jsonl", "v.jsonl")
    )
    gold.write_text(
        "".join(
            json.dumps({"id": q["id"], "gold": q.get("gold", []), "unanswerable": "gold" not in q})
            + "\n"
            for q in lines
        )
    )
    ids = [[c if isinstance(c, str) else c["id"] for c in q["retrieved"]] for q in lines]
    ircot.write_text(
        "".join(
            json.dumps({"id": q["id"], "chunks": i}) + "\n" for q, i in zip(lines, ids, strict=True)
        )
    )
    oracle.write_text(
        "".join(json.dumps({"id": q["id"], "chunks": q.get("gold", ["x1"])}) + "\n" for q in lines)
    )
    verdicts.write_text(
        "".join(
            json.dumps({"id": q["id"], "run": run, "correct": q["correct"]}) + "\n"
            for run in ("ircot", "oracle")
            for q in lines
        )
    )
    return [str(gold), f"ircot={ircot}", f"oracle={oracle}", "--verdicts", str(verdicts)]


def test_every_run_with_verdicts_gets_its_cells_under_the_rule(tmp_path: Path) -> None:
    """At k_ctx = 2, worked by hand. ircot's tops: h1 eiffel paris (2 of 3), h2 jaws x2,
    h3 dune x4 (some); h4 x5 x6, h5 x7 x8 (none); h6 may redspecial, h7 canada x9 (all).
    all: retrieved h6 (wrong) h7 (right); missed right h1 h3 h4, wrong h2 h5 -> 1/1/3/2.
    oracle (its gold lists): h1 2 of 3 (some), every other all -> retrieved h3 h4 h7
    right, h2 h5 h6 wrong; missed h1 right -> 3/3/1/0."""
    out = tmp_path / "out"
    args = [*write_split_files(tmp_path), "--k", "2", "--context-k", "2"]
    result = CliRunner().invoke(
        cli, ["report", *args, "--retrieved-when", "all", "--out", str(out), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    assert report["settings"]["retrieved_when"] == "all"
    ircot, oracle = report["attribution"]["ircot"], report["attribution"]["oracle"]
    assert list(report["attribution"]) == ["ircot", "oracle"]  # the judged run first
    assert (ircot["rule"], ircot["context_source"], ircot["traced_questions"]) == (
        "all",
        "top_k",
        0,
    )
    assert list(ircot["cells"].values()) == [1, 1, 3, 2]
    assert list(oracle["cells"].values()) == [3, 3, 1, 0]
    assert ircot["by_coverage"] == {
        "all": {"questions": 2, "correct": 1, "pass_rate": 0.5},
        "some": {"questions": 3, "correct": 2, "pass_rate": 0.6666666667},
        "none": {"questions": 2, "correct": 1, "pass_rate": 0.5},
    }
    assert oracle["by_coverage"] == {
        "all": {"questions": 6, "correct": 3, "pass_rate": 0.5},
        "some": {"questions": 1, "correct": 1, "pass_rate": 1.0},
        "none": {"questions": 0, "correct": 0, "pass_rate": None},
    }
    assert (
        "ircot, four cells at top 2: working as designed 1, generation failure 1" in result.output
    )
    assert (
        "Pass rate when all, some or none of the gold was sent: all 0.500 (1 of 2)" in result.output
    )
    written = json.loads((out / "report.json").read_text())  # the definition: --verbose
    assert "every relevant gold chunk among the top 2 chunks (--retrieved-when all)" in "\n".join(
        report_lines(written, [], verbose=True)
    )


def test_the_default_rule_is_any(tmp_path: Path) -> None:
    """any at k_ctx = 2: ircot retrieved h1 h3 h7 right, h2 h6 wrong; missed h4 right,
    h5 wrong -> 3/2/1/1 (as with the trace's context)."""
    out = tmp_path / "out"
    args = [*write_split_files(tmp_path), "--k", "2", "--context-k", "2"]
    result = CliRunner().invoke(cli, ["report", *args, "--out", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    section = json.loads((out / "report.json").read_text())["attribution"]["ircot"]
    assert section["rule"] == "any"
    assert list(section["cells"].values()) == [3, 2, 1, 1]
