"""What changed per question between a baseline and this report: the transitions.

A mean that did not move can hide questions that swapped cells both ways; a reviewer
asks which questions moved and why. Every question both reports measured gets a state
on each side: its four-cell cell when both sides have verdicts for the run (plus
``unanswerable``, and ``no_verdict`` for an answerable question without one), else
whether its gold reached the top k_ctx (``retrieved``, ``missed``, ``unanswerable``).
The matrix counts the questions per (baseline state, this report's state); its rows
sum to the baseline's counts and its columns to this report's, over the questions
both measured. Each pair of opposite moves (a -> b against b -> a) gets an exact
McNemar test: under no real change, a question that moved is as likely to move either
way.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import combinations
from typing import Any, Literal

import polars as pl

from reportgen.analyse.attribution import CELLS, Attribution
from reportgen.core.model import RetrievedRule
from reportgen.load.previous.baseline import Baseline
from reportgen.measure.blocks import block_positions
from reportgen.measure.measures import IN_MEANS
from reportgen.measure.scoring import Evaluation, RunScores
from reportgen.schema import rounded

Mode = Literal["cells", "retrieval"]
CELL_STATES = (*CELLS, "unanswerable", "no_verdict", "tied")
"""``tied``: an answerable question whose judge trials split evenly (out of the cells)."""
RETRIEVAL_STATES = ("retrieved", "missed", "unanswerable")
SIDE_BY_SIDE_KEPT = 200
"""Moved questions whose two top-k lists report.json keeps (largest moves first)."""


def _answerable() -> pl.Expr:
    return pl.col("status").is_in(list(IN_MEANS))


def retrieval_states(per_question: pl.DataFrame, k: int, rule: RetrievedRule) -> pl.DataFrame:
    """(qid, state): whether any (``all``: every) relevant chunk is in the top ``k``."""
    reached = pl.col(f"hit@{k}") > 0 if rule == "any" else pl.col(f"recall@{k}") >= 1 - 1e-9
    state = (
        pl.when(~_answerable())
        .then(pl.lit("unanswerable"))
        .when(reached)
        .then(pl.lit("retrieved"))
        .otherwise(pl.lit("missed"))
    )
    return per_question.select("qid", state.alias("state"))


def cell_states(
    statuses: pl.DataFrame, cells: pl.DataFrame, tied: Collection[str] = ()
) -> pl.DataFrame:
    """(qid, state) from (qid, status) and (qid, cell) of the questions in a cell;
    ``tied``: the questions whose judge trials split evenly."""
    state = (
        pl.when(pl.col("cell").is_not_null())
        .then(pl.col("cell"))
        .when(~_answerable())
        .then(pl.lit("unanswerable"))
        .when(pl.col("qid").is_in(sorted(tied)))
        .then(pl.lit("tied"))
        .otherwise(pl.lit("no_verdict"))
    )
    return statuses.join(cells, on="qid", how="left").select("qid", state.alias("state"))


def _cells_frame(questions: dict[str, list[str]]) -> pl.DataFrame:
    rows = [(qid, cell) for cell in CELLS for qid in questions.get(cell, [])]
    return pl.DataFrame(rows, schema={"qid": pl.String, "cell": pl.String}, orient="row")


def matrix(then: pl.DataFrame, now: pl.DataFrame, states: Sequence[str]) -> dict[str, Any]:
    """The transition matrix of two (qid, state) frames over the questions both hold."""
    pairs = (
        then.join(now, on="qid", how="inner", suffix="_now")
        .rename({"state": "from", "state_now": "to"})
        .sort("qid")
        .group_by("from", "to")
        .agg(pl.col("qid"), pl.len().alias("count"))
    )
    found = {(row["from"], row["to"]): row for row in pairs.iter_rows(named=True)}
    grid = {
        a: {b: found[(a, b)]["count"] if (a, b) in found else 0 for b in states} for a in states
    }
    moves = sorted(
        (row for (a, b), row in found.items() if a != b),
        key=lambda row: (-row["count"], states.index(row["from"]), states.index(row["to"])),
    )
    from reportgen.analyse.paired import exact_mcnemar  # NumPy: only with a baseline

    tests = []
    for a, b in combinations(states, 2):
        there, back = grid[a][b], grid[b][a]
        if there + back:
            tests.append(
                {
                    "a": a,
                    "b": b,
                    "a_to_b": there,
                    "b_to_a": back,
                    "p": rounded(exact_mcnemar(there, back)),
                }
            )
    return {
        "states": list(states),
        "questions": sum(sum(row.values()) for row in grid.values()),
        "matrix": grid,
        "then": {a: sum(grid[a].values()) for a in states},
        "now": {b: sum(grid[a][b] for a in states) for b in states},
        "unchanged": sum(grid[a][a] for a in states),
        "moved": sum(row["count"] for row in moves),
        "moves": [
            {"from": row["from"], "to": row["to"], "count": row["count"], "questions": row["qid"]}
            for row in moves
        ],
        "tests": tests,
    }


def top_lists(result: RunScores, k: int) -> pl.DataFrame:
    """(qid, top): the run's first ``k`` distinct chunk ids per question, in rank order.

    Eager: block positions in a lazy plan fail on frames of several chunks
    (measure/blocks.py); the callers join the result in their plans.
    """
    run = result.run
    rows = run.results
    if run.in_blocks and not run.repeated_chunks:  # ranks are the positions 1..n
        first = rows.filter(pl.col("rank") <= k).select("qid", "chunk_id")
        return first.group_by("qid", maintain_order=True).agg(pl.col("chunk_id").alias("top"))
    if not run.in_blocks:  # a loaded run is in blocks already: no 1M-row sort
        rows = rows.sort("qid", "rank").unique(
            ["qid", "chunk_id"], keep="first", maintain_order=True
        )
    # rows are in blocks by now: cut each to its first k before grouping (3x faster)
    first = rows.select("qid", "chunk_id").filter(block_positions() <= k)
    return first.group_by("qid", maintain_order=True).agg(pl.col("chunk_id").alias("top"))


def baseline_top_lists(baseline: Baseline, run: str) -> dict[str, list[str]] | None:
    """The baseline's top k_ctx per question: its ``top_k`` section, else the question
    rows of its pages (the first questions by id only); None when it holds neither."""
    report = baseline.report
    section = report.get("top_k")
    if isinstance(section, dict) and isinstance(section.get("runs"), dict):
        lists = section["runs"].get(run)
        return dict(lists) if isinstance(lists, dict) else None
    rows = (report.get("pages") or {}).get("questions")
    if not isinstance(rows, list):
        return None
    found = {
        row["qid"]: list(row["runs"][run]["top"])
        for row in rows
        if isinstance(row.get("runs"), dict) and isinstance(row["runs"].get(run), dict)
    }
    return found or None


def _baseline_states(
    baseline: Baseline, run: str, mode: Mode, k: int, rule: RetrievedRule
) -> pl.DataFrame:
    rows = baseline.per_question.filter(pl.col("run") == run)
    if mode == "retrieval":
        return retrieval_states(rows, k, rule)
    questions = baseline.report["attribution"][run]["questions"]
    verdicts = baseline.report.get("verdicts") or {}
    tied = (verdicts.get("tied") or {}).get("ids") or [] if verdicts.get("run") == run else []
    return cell_states(rows.select("qid", "status"), _cells_frame(questions), tied)


def _judged_then(baseline: Baseline, run: str) -> bool:
    section = (baseline.report.get("attribution") or {}).get(run)
    return isinstance(section, dict) and isinstance(section.get("questions"), dict)


def _mode_and_note(
    judged_now: bool, judged_then: bool, then_attribution: bool
) -> tuple[Mode, str | None]:
    if judged_now and judged_then:
        return "cells", None
    if judged_now and then_attribution:
        return "retrieval", (
            "the baseline's report.json predates per-question cells "
            "(attribution.<run>.questions): compared on retrieved/missed only"
        )
    if judged_now:
        return "retrieval", "the baseline has no verdicts for this run: retrieved/missed only"
    if judged_then:
        return "retrieval", "this report has no verdicts for this run: retrieved/missed only"
    return "retrieval", None


def baseline_flaky(baseline: Baseline, run: str) -> set[str]:
    """The questions the baseline found flaky for ``run``: its judge's trials disagreed
    (when they judged ``run``), or its replicates of ``run`` did."""
    verdicts = baseline.report.get("verdicts") or {}
    section = (baseline.report.get("runs") or {}).get(run) or {}
    found = set((section.get("flaky") or {}).get("ids") or [])
    if verdicts.get("run") == run:
        found |= set((verdicts.get("flaky") or {}).get("ids") or [])
    return found


def _mark_flaky(entry: dict[str, Any], flaky: set[str]) -> dict[str, Any]:
    """Each move's flaky questions, and the moved ones overall: a question whose judge
    (or run) disagrees with itself moves without any change, so it is marked flaky,
    never read as a regression."""
    for move in entry["moves"]:
        move["flaky"] = [qid for qid in move["questions"] if qid in flaky]
    ids = sorted(qid for move in entry["moves"] for qid in move["flaky"])
    return {**entry, "flaky": {"count": len(ids), "ids": ids}}


def transitions(
    evaluation: Evaluation,
    baseline: Baseline,
    attributions: Sequence[Attribution],
    shared: set[str] | None,
    flaky: Mapping[str, Collection[str]] | None = None,
    tied: Mapping[str, Collection[str]] | None = None,
) -> dict[str, dict[str, Any]]:
    """``transitions.<run>`` for every run of this report the baseline also measured.

    ``shared`` is the questions a gold change leaves comparable (None: all of them);
    ``flaky``: run -> this report's flaky questions (either side's mark a move flaky);
    ``tied``: run -> its questions whose judge trials split evenly (their own state).
    """
    settings = evaluation.settings
    then_settings = baseline.report["settings"]
    k_then = int(baseline.report.get("context_k") or then_settings.get("context_k") or 0)
    rule_then: RetrievedRule = then_settings.get("retrieved_when") or "any"
    judged = {attribution.run: attribution for attribution in attributions}
    then_runs = set(baseline.per_question.get_column("run").unique().to_list())
    found: dict[str, dict[str, Any]] = {}
    for result in evaluation.runs:
        name = result.name
        if name not in then_runs:
            continue
        then_has = _judged_then(baseline, name)
        then_any = name in (baseline.report.get("attribution") or {})
        mode, note = _mode_and_note(name in judged, then_has, then_any)
        if mode == "cells":
            now = cell_states(
                result.scores.select("qid", "status"),
                judged[name].questions.select("qid", "cell").drop_nulls(),
                (tied or {}).get(name, ()),
            )
        else:
            now = retrieval_states(result.scores, settings.context_k, settings.retrieved_when)
        k_ok = f"hit@{k_then}" in baseline.per_question.columns
        if mode == "retrieval" and not k_ok:
            continue  # the baseline did not measure its own k_ctx: nothing to pair
        then = _baseline_states(baseline, name, mode, k_then, rule_then)
        if shared is not None:
            keep = pl.col("qid").is_in(sorted(shared))
            then, now = then.filter(keep), now.filter(keep)
        notes = [note] if note else []
        if k_then != settings.context_k or rule_then != settings.retrieved_when:
            notes.append(
                f"the baseline sent {k_then} chunks (retrieved when {rule_then}), this report "
                f"{settings.context_k} ({settings.retrieved_when}): a move may be the setting's"
            )
        states = CELL_STATES if mode == "cells" else RETRIEVAL_STATES
        marked = set((flaky or {}).get(name, ())) | baseline_flaky(baseline, name)
        entry = _mark_flaky(matrix(then, now, states), marked)
        entry = {
            "mode": mode,
            "k": {"then": k_then, "now": settings.context_k},
            **entry,
            "only_in_baseline": then.join(now, on="qid", how="anti").height,
            "only_in_this_report": now.join(then, on="qid", how="anti").height,
            "notes": notes,
            "side_by_side": _side_by_side(evaluation, result, baseline, entry["moves"]),
        }
        found[name] = entry
    return found


def _side_by_side(
    evaluation: Evaluation,
    result: RunScores,
    baseline: Baseline,
    moves: list[dict[str, Any]],
) -> dict[str, Any]:
    """Both runs' top k of the questions that moved (largest moves first, capped), with
    the relevant chunk ids at this report's threshold (the gold both sides share)."""
    moved = [(qid, move["from"], move["to"]) for move in moves for qid in move["questions"]][
        :SIDE_BY_SIDE_KEPT
    ]
    then_lists = baseline_top_lists(baseline, result.name)
    if not moved:
        return {"available": then_lists is not None, "count": 0, "questions": []}
    wanted = pl.DataFrame(
        moved, schema={"qid": pl.String, "from": pl.String, "to": pl.String}, orient="row"
    )
    gold = evaluation.gold if result.chunked is None else result.chunked.gold
    relevant = (
        gold.judgments.filter(pl.col("grade") >= evaluation.settings.threshold)
        .sort("qid", "chunk_id")
        .group_by("qid", maintain_order=True)
        .agg(pl.col("chunk_id").alias("relevant"))
    )
    rows = (
        wanted.lazy()
        # largest moves first: the joins keep that order
        .join(
            top_lists(result, evaluation.settings.context_k).lazy(),
            on="qid",
            how="left",
            maintain_order="left",
        )
        .join(relevant.lazy(), on="qid", how="left", maintain_order="left")
        .with_columns(pl.col("top", "relevant").fill_null(pl.lit([], dtype=pl.List(pl.String))))
        .collect()
        .to_dicts()
    )
    for row in rows:
        row["now"] = row.pop("top")
        row["then"] = None if then_lists is None else then_lists.get(row["qid"])
    return {
        "available": then_lists is not None,
        "count": len([qid for move in moves for qid in move["questions"]]),
        "questions": rows,
    }


def top_k_section(evaluation: Evaluation) -> dict[str, Any]:
    """``top_k``: every run's first k_ctx chunk ids per question, so that a later
    report can show this one's lists beside its own."""
    k = evaluation.settings.context_k
    gold = evaluation.gold.questions.lazy().select("qid")
    # a run's questions outside the gold set are ignored, here as in every measure
    plans = [
        top_lists(result, k).lazy().join(gold, on="qid", how="semi").sort("qid")
        for result in evaluation.runs
    ]
    runs = {
        result.name: dict(zip(lists["qid"].to_list(), lists["top"].to_list(), strict=True))
        for result, lists in zip(evaluation.runs, pl.collect_all(plans), strict=True)
    }
    return {"k": k, "runs": runs}
