"""report.json's account of what predicts the answers of a judged run (analyse/predictors.py):
``by_first_gold_rank``, ``first_gold_rank``, ``association`` and ``headroom``, added to
``attribution.<run>``, with the sentences every view prints as they are."""

from __future__ import annotations

from typing import Any

from reportgen.analyse.predictors import (
    ALPHA,
    LEVEL,
    NO_GOLD,
    RESAMPLES,
    SEED,
    Association,
    Headroom,
    HeadroomPair,
    Predictors,
    RankTable,
)
from reportgen.schema import rounded

TREND_TEST = "cochran-armitage"


def _interval(bounds: tuple[float, float] | None) -> list[float | None] | None:
    return None if bounds is None else [rounded(bounds[0]), rounded(bounds[1])]


def answers(added: float) -> str:
    """Added answers as a person counts them: 9, 4.7 (one decimal, none when whole)."""
    text = f"{added:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _trend_sentence(table: RankTable) -> str | None:
    """One sentence when the pass rate falls with rank beyond noise, else None."""
    if not table.trend.falls or table.trend.p is None:
        return None
    filled = [(rank, row) for rank, row in table.ranks.items() if rank != NO_GOLD and row.n]
    (first, top), (last, bottom) = filled[0], filled[-1]
    return (
        f"Answers pass less often the lower the first gold chunk sits: "
        f"{top.pass_rate:.2f} at rank {first}, {bottom.pass_rate:.2f} at rank {last} "
        f"(trend p = {table.trend.p:.2g}); ordering the chunks or sending fewer may help "
        "more than better search."
    )


def _ranks(table: RankTable) -> dict[str, Any]:
    return {
        rank: {
            "n": row.n,
            "correct": row.correct,
            "pass_rate": rounded(row.pass_rate),
            "interval": _interval(row.interval),
        }
        for rank, row in table.ranks.items()
    }


def _trend(table: RankTable) -> dict[str, Any]:
    trend = table.trend
    return {
        "test": TREND_TEST,
        "z": rounded(trend.z),
        "p": rounded(trend.p),
        "falls": trend.falls,
        "alpha": ALPHA,
        "reason": trend.reason,
    }


def _basis_note(found: Predictors) -> str:
    if found.basis == "trace":
        where = "its position in the context the trace says was sent"
    else:
        where = f"its rank among the top {found.k} chunks the model was sent"
    hops = (
        "; a trace with several hops counts in the combined context the model received "
        "(the hops' chunks in order, each chunk once, at its first position)"
        if found.multi_hop
        else ""
    )
    return f"The first relevant chunk's rank is {where}{hops}."


def first_gold_rank_section(found: Predictors) -> dict[str, Any]:
    return {
        "basis": found.basis,
        "multi_hop": found.multi_hop,
        "note": _basis_note(found),
        "trend": _trend(found.overall),
        "sentence": _trend_sentence(found.overall),
        "by_kind": {
            kind: {
                "by_first_gold_rank": _ranks(table),
                "trend": _trend(table),
                "sentence": _trend_sentence(table),
            }
            for kind, table in found.by_kind.items()
        },
    }


def _measure(entry: Association) -> dict[str, Any]:
    return {
        "n": entry.n,
        "correct": entry.correct,
        "wrong": entry.wrong,
        "auc": rounded(entry.auc),
        "interval": _interval(entry.interval),
        "interval_method": entry.interval_method,
        "reason": entry.reason,
    }


def _includes_half(entry: Association) -> bool:
    return entry.interval is not None and entry.interval[0] <= 0.5 <= entry.interval[1]


def _bounds(interval: tuple[float, float] | None) -> str:
    return "" if interval is None else f"{interval[0]:.2f} to {interval[1]:.2f}"


def association_section(found: Predictors) -> dict[str, Any]:
    measures = found.association
    defined = {key: entry for key, entry in measures.items() if entry.auc is not None}
    best = max(defined, key=lambda key: defined[key].auc or 0.0) if defined else None
    reason = None
    if not defined:
        reasons = [entry.reason for entry in measures.values() if entry.reason]
        reason = reasons[0] if reasons else "no measure at k_ctx to associate"
    sentence = None
    if best is not None:
        entry = defined[best]
        if entry.interval is None or _includes_half(entry):
            sentence = (
                f"No measure at k = {found.k} tracks the verdict beyond noise: the best, "
                f"{best}, has AUC {entry.auc:.2f}"
                + ("" if entry.interval is None else f" (95% interval {_bounds(entry.interval)})")
                + "."
            )
        else:
            sentence = (
                f"{best} tracks the verdict best: AUC {entry.auc:.2f} "
                f"(95% interval {_bounds(entry.interval)})."
            )
    notes = [
        f"{key} does not predict your answers on this gold set: its AUC interval "
        f"({_bounds(measures[key].interval)}) includes 0.5."
        for key in found.gated
        if key in measures and _includes_half(measures[key])
    ]
    return {
        "measures": {key: _measure(entry) for key, entry in measures.items()},
        "best": best,
        "sentence": sentence,
        "gated": list(found.gated),
        "gated_from": found.gated_from,
        "notes": notes,
        "reason": reason,
        "method": {"resamples": RESAMPLES, "seed": SEED, "level": LEVEL},
    }


RETRIEVAL_ASSUMPTION = (
    "Assumes each retrieval failure, once its gold is sent, passes at the rate of the "
    "questions whose gold was sent; questions search misses may be harder, so read it as "
    "an upper estimate."
)
GENERATION_ASSUMPTION = (
    "Assumes every generation failure can pass with the chunks it was already sent: an "
    "upper bound, since some answers need more than those chunks or a better judge."
)


def _headroom(entry: Headroom, assumption: str) -> dict[str, Any]:
    return {
        "failures": entry.failures,
        "rate": rounded(entry.rate),
        "added": rounded(entry.added),
        "added_interval": _interval(entry.added_interval),
        "pass_rate_after": rounded(entry.pass_rate_after),
        "pass_rate_after_interval": _interval(entry.pass_rate_after_interval),
        "assumption": assumption,
        "reason": entry.reason,
    }


def headroom_sentence(pair: HeadroomPair) -> str | None:
    """``fixing retrieval: up to +4.7 answers; fixing generation: up to +9``."""
    if pair.generation.added is None:
        return None
    retrieval = (
        "fixing retrieval: no estimate"
        if pair.retrieval.added is None
        else f"fixing retrieval: up to +{answers(pair.retrieval.added)} answers"
    )
    return f"{retrieval}; fixing generation: up to +{answers(pair.generation.added)}"


def _pair(pair: HeadroomPair) -> dict[str, Any]:
    return {
        "n": pair.n,
        "pass_rate": rounded(pair.pass_rate),
        "retrieval": _headroom(pair.retrieval, RETRIEVAL_ASSUMPTION),
        "generation": _headroom(pair.generation, GENERATION_ASSUMPTION),
        "sentence": headroom_sentence(pair),
    }


def headroom_section(found: Predictors) -> dict[str, Any]:
    return {
        **_pair(found.headroom),
        "by_kind": {kind: _pair(pair) for kind, pair in found.headroom_by_kind.items()},
        "method": {"resamples": RESAMPLES, "seed": SEED, "level": LEVEL},
    }


def rank_section(found: Predictors) -> dict[str, Any]:
    """``by_first_gold_rank``: what the chart of the pass rate by rank reads."""
    return _ranks(found.overall)


def predictors_section(found: Predictors) -> dict[str, Any]:
    """The keys this module adds to ``attribution.<run>``."""
    return {
        "by_first_gold_rank": rank_section(found),
        "first_gold_rank": first_gold_rank_section(found),
        "association": association_section(found),
        "headroom": headroom_section(found),
    }
