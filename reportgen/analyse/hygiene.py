"""Checks on the inputs themselves: stale gold ids, index provenance, forbidden chunks.

A recall computed against chunk ids that no longer exist is 0 and looks like a
catastrophic regression (SPEC.md, "Versions"); a forbidden chunk in the context is a
failure whatever the answer. These checks say so before anyone trusts a number.
Pure: frames in, frames, plain values and ReportWarnings out.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Literal

import polars as pl

from reportgen.core.model import (
    EXAMPLES_SHOWN,
    FORBIDDEN_SCHEMA,
    GoldSet,
    Manifest,
    ReportWarning,
    Run,
    empty_forbidden,
    examples,
)
from reportgen.core.records import dataclass
from reportgen.errors import ParameterError, UsageError
from reportgen.measure.scoring import Evaluation

StaleBasis = Literal["manifest", "no_run_returns"]
WRONG_VERSION = "wrong version"
EVERYONE = ("public", "all", "everyone")
"""Audience labels any reader may see; any other label is for that audience only."""

LEAK_SCHEMA = pl.Schema(
    {"qid": pl.String, "chunk_id": pl.String, "rank": pl.Int64, "reason": pl.String}
)


@dataclass(frozen=True)
class LeakCounts:
    """Forbidden chunks in one run's top k."""

    total: int
    questions: int
    by_reason: dict[str, int]
    """Every known reason, zeros kept, so a clean run still says what was checked."""

    def as_dict(self) -> dict[str, object]:
        return {"total": self.total, "questions": self.questions, "by_reason": self.by_reason}


@dataclass(frozen=True)
class Hygiene:
    """What the checks found; report/assemble.py lays it out as the ``hygiene`` section."""

    stale: pl.DataFrame
    """(qid, chunk_id): gold ids flagged as stale, on ``stale_basis``."""
    stale_basis: StaleBasis
    provenance: dict[str, object]
    forbidden: pl.DataFrame
    """(qid, chunk_id, reason); a null qid forbids the chunk for every question."""
    reasons: dict[str, str]
    """Reason -> the phrase a reader sees, e.g. staff-only -> staff passages shown to ..."""
    leaks: dict[str, pl.DataFrame]
    """Run name -> (qid, chunk_id, rank, reason) of every forbidden chunk it returned."""
    manifest: Manifest | None = None
    audience: str | None = None
    as_of: date | None = None
    warnings: tuple[ReportWarning, ...] = ()
    gold_chunks: int = 0
    """How many (question, gold chunk) pairs with a positive grade the gold set has."""


def relevant_gold(gold: GoldSet) -> pl.DataFrame:
    """(qid, chunk_id) of every gold chunk with a positive grade: what every check here
    looks at, taken once by :func:`check`."""
    return gold.judgments.lazy().filter(pl.col("grade") > 0).select("qid", "chunk_id").collect()


def stale_in_manifest(relevant: pl.DataFrame, manifest: Manifest) -> pl.DataFrame:
    """Gold chunks (``relevant``: :func:`relevant_gold`) the current index does not hold."""
    return (
        relevant.lazy()
        .join(manifest.chunks.lazy().select("chunk_id"), on="chunk_id", how="anti")
        .sort("qid", "chunk_id")
        .collect()
    )


def never_returned(relevant: pl.DataFrame, gold_rows: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Gold chunks that no run returns, for any question, at any depth.

    A weaker signal than a manifest: a chunk can exist and still be found by no run.
    ``gold_rows`` are each run's rows already cut down to the gold ids when it was
    measured (``RunScores.gold_rows``), so no run is read again here.
    """
    returned = pl.concat([rows.lazy().select("chunk_id") for rows in gold_rows]).unique()
    return (
        relevant.lazy().join(returned, on="chunk_id", how="anti").sort("qid", "chunk_id").collect()
    )


SHALLOW_SHARE = 0.5


def shallow_runs(stale_chunks: int, gold_chunks: int) -> bool:
    """Whether most gold ids are returned by no run: then the runs are shallower than the
    judgments (pooled TREC qrels judge hundreds of documents a question), and "returned
    by no run" says nothing about stale ids."""
    return stale_chunks > SHALLOW_SHARE * gold_chunks


def stale_warning(
    stale: pl.DataFrame,
    basis: StaleBasis,
    manifest: Manifest | None,
    gold_chunks: int,
    runs: int = 2,
) -> list[ReportWarning]:
    """A warning for stale gold ids; none for the weak signal when it says nothing: most
    gold unreturned (shallow runs), or one run only (a shallow run leaves gold unreturned)."""
    if stale.height == 0:
        return []
    if basis == "no_run_returns" and (runs < 2 or shallow_runs(stale.height, gold_chunks)):
        return []
    questions = stale["qid"].n_unique()
    # only the first few pairs are shown: pick them in Polars, not in a loop over rows
    first = pl.concat_str("qid", pl.lit(": "), "chunk_id").bottom_k(EXAMPLES_SHOWN)
    pairs = stale.select(first).to_series().to_list()
    if basis == "manifest" and manifest is not None:
        where = f"the index manifest ({manifest.index_version or manifest.source})"
        return [
            ReportWarning(
                "stale_gold",
                f"{stale.height} gold chunk id(s) in {questions} question(s) are not in "
                f"{where}: these questions score 0 on them whatever the run does, which "
                "looks like a regression but is a stale gold set; update their gold ids",
                stale.height,
                examples(pairs),
            )
        ]
    return [
        ReportWarning(
            "possibly_stale_gold",
            f"{stale.height} gold chunk id(s) in {questions} question(s) are returned by no "
            "run at any depth: they may no longer exist in the index (a weaker signal than "
            "a manifest; pass --manifest to check)",
            stale.height,
            examples(pairs),
        )
    ]


def provenance(
    gold: GoldSet, runs: Sequence[Run], manifest: Manifest | None
) -> tuple[dict[str, object], list[ReportWarning]]:
    """Which index each input was built from, and a warning when they differ."""
    sources: list[tuple[str, str | None]] = [("gold set", gold.index_version)]
    if manifest is not None:
        sources.append(("manifest", manifest.index_version))
    sources += [(f"run {run.name!r}", run.index_version) for run in runs]
    per_question = gold.questions.get_column("index_version").drop_nulls().value_counts(sort=True)
    question_versions = {str(v): int(n) for v, n in per_question.sort("index_version").iter_rows()}
    known = [(who, version) for who, version in sources if version is not None]
    reference = gold.index_version or (known[0][1] if known else None)
    differing = [(who, v) for who, v in known if v != reference]
    record: dict[str, object] = {
        "gold": gold.index_version,
        "manifest": None if manifest is None else manifest.index_version,
        "runs": {run.name: run.index_version for run in runs},
        "gold_questions": question_versions,
        "consistent": not differing and len(question_versions) <= 1,
    }
    found: list[ReportWarning] = []
    if differing:
        listed = ", ".join(f"{who} {v}" for who, v in known)
        found.append(
            ReportWarning(
                "index_version_mismatch",
                f"index versions differ ({listed}): gold ids read from one index may not "
                "exist in another, so low numbers may mean a stale gold set, not a regression",
                len(differing),
                tuple(f"{who}: {v}" for who, v in differing),
            )
        )
    if len(question_versions) > 1:
        found.append(
            ReportWarning(
                "mixed_index_versions",
                f"the gold set's questions were read from {len(question_versions)} index "
                "versions; re-check the older ones against the current index",
                len(question_versions),
                tuple(f"{v}: {n} question(s)" for v, n in question_versions.items()),
            )
        )
    return record, found


def manifest_forbidden(
    manifest: Manifest, audience: str | None, as_of: date | None
) -> pl.DataFrame:
    """Chunks the manifest keeps from this audience, or that are not valid on ``as_of``."""
    chunks = manifest.chunks
    frames = []
    if audience is not None:
        hidden = pl.col("audience").is_not_null() & ~pl.col("audience").str.to_lowercase().is_in(
            [*EVERYONE, audience.lower()]
        )
        frames.append(
            chunks.filter(hidden).select(
                pl.lit(None, pl.String).alias("qid"),
                "chunk_id",
                (pl.col("audience") + "-only").alias("reason"),
            )
        )
    if as_of is not None:
        invalid = (pl.col("valid_to") < as_of).fill_null(False) | (
            pl.col("valid_from") > as_of
        ).fill_null(False)
        frames.append(
            chunks.filter(invalid).select(
                pl.lit(None, pl.String).alias("qid"),
                "chunk_id",
                pl.lit(WRONG_VERSION).alias("reason"),
            )
        )
    return pl.concat([empty_forbidden(), *frames]).cast(FORBIDDEN_SCHEMA)


def reason_phrases(forbidden: pl.DataFrame, audience: str | None) -> dict[str, str]:
    """Every reason, worded for a reader: audience reasons name who saw what."""
    phrases: dict[str, str] = {}
    for reason in forbidden.get_column("reason").unique().sort().to_list():
        if reason == WRONG_VERSION:
            phrases[reason] = "superseded or not yet valid versions"
        elif audience is not None and reason.endswith("-only"):
            phrases[reason] = (
                f"{reason.removesuffix('-only')} passages shown to a {audience} audience"
            )
        else:
            phrases[reason] = reason
    return phrases


def leaked(run: Run, gold: GoldSet, forbidden: pl.DataFrame) -> pl.DataFrame:
    """Every forbidden chunk the run returned for a gold question, with its rank.

    A chunk forbidden both for its question and for everyone is reported once, with the
    question's own reason (the gold set's author said why).
    """
    if forbidden.height == 0:  # most reports: no need to look at the run's rows
        return pl.DataFrame(schema=LEAK_SCHEMA)
    results = run.results.join(gold.questions.select("qid"), on="qid", how="semi")
    per_question = results.join(
        forbidden.filter(pl.col("qid").is_not_null()), on=["qid", "chunk_id"]
    )
    everyone = results.join(forbidden.filter(pl.col("qid").is_null()).drop("qid"), on="chunk_id")
    both = pl.concat(
        [
            per_question.select(*LEAK_SCHEMA, pl.lit(0).alias("_source")),
            everyone.select(*LEAK_SCHEMA, pl.lit(1).alias("_source")),
        ]
    )
    return (
        both.sort("qid", "rank", "_source", "reason")
        .unique(["qid", "chunk_id"], keep="first", maintain_order=True)
        .select(LEAK_SCHEMA.names())
        .cast(LEAK_SCHEMA)
    )


def leak_counts(leaks: pl.DataFrame, k: int, reasons: Sequence[str]) -> LeakCounts:
    """Forbidden chunks in the top k: in all, per reason (zeros kept), and questions hit.

    Series operations, not frame queries: the warning, the sections and the pages ask
    for the counts of every run, mostly of few or no rows."""
    top = leaks.get_column("rank") <= k
    why = leaks.get_column("reason").filter(top)
    return LeakCounts(
        total=why.len(),
        questions=leaks.get_column("qid").filter(top).n_unique(),
        by_reason={reason: int((why == reason).sum()) for reason in reasons},
    )


def leak_line(counts: LeakCounts, phrases: dict[str, str]) -> str:
    """``staff passages shown to a public audience: 0 | superseded ...: 0``."""
    return " | ".join(f"{phrases.get(r, r)}: {n}" for r, n in counts.by_reason.items())


def leak_warning(
    name: str, leaks: pl.DataFrame, k: int, phrases: dict[str, str]
) -> list[ReportWarning]:
    counts = leak_counts(leaks, k, list(phrases))
    if counts.total == 0:
        return []
    top = leaks.filter(pl.col("rank") <= k)
    shown = [f"{q}: {c} at rank {r} ({why})" for q, c, r, why in top.iter_rows()]
    return [
        ReportWarning(
            "leaks",
            f"run {name!r} put {counts.total} forbidden chunk(s) in the top {k} of "
            f"{counts.questions} question(s) ({leak_line(counts, phrases)})",
            counts.total,
            examples(shown),
        )
    ]


def forbidden_gold_warning(relevant: pl.DataFrame, forbidden: pl.DataFrame) -> list[ReportWarning]:
    """Gold chunks (``relevant``: :func:`relevant_gold`) this audience may not see: those
    questions cannot be answered cleanly."""
    if forbidden.height == 0:  # most reports: nothing to look for
        return []
    gold_ids, rules = relevant.lazy(), forbidden.lazy()
    clash = (
        pl.concat(
            [
                gold_ids.join(rules.filter(pl.col("qid").is_null()).drop("qid"), on="chunk_id"),
                gold_ids.join(rules.filter(pl.col("qid").is_not_null()), on=["qid", "chunk_id"]),
            ]
        )
        .unique(["qid", "chunk_id"])
        .sort("qid", "chunk_id")
        .collect()
    )
    if clash.height == 0:
        return []
    pairs = [f"{q}: {c} ({why})" for q, c, why in clash.iter_rows()]
    return [
        ReportWarning(
            "forbidden_gold",
            f"{clash.height} gold chunk(s) in {clash['qid'].n_unique()} question(s) are "
            "forbidden for this audience: retrieving them counts as a hit and as a leak",
            clash.height,
            examples(pairs),
        )
    ]


def check_options(manifest: Manifest | None, audience: str | None) -> None:
    """--audience needs audience labels to compare with; say so rather than find nothing."""
    if audience is None:
        return
    if manifest is None:
        raise ParameterError(
            "audience",
            audience,
            "needs an index manifest with an audience per chunk, and none is given",
            "pass the manifest too (--manifest PATH: JSON Lines or CSV with an 'audience' field)",
            option="--audience",
        )
    if not manifest.has("audience"):
        raise UsageError(
            f"the manifest {manifest.source} gives no audience for any chunk",
            "add an 'audience' field (e.g. public, staff) or drop --audience",
        )


def check(
    evaluation: Evaluation,
    manifest: Manifest | None = None,
    *,
    audience: str | None = None,
    as_of: date | None = None,
) -> Hygiene:
    """Every check on the evaluation's inputs; ``as_of`` dates the manifest's validity."""
    check_options(manifest, audience)
    gold = evaluation.gold
    runs = [result.run for result in evaluation.runs]
    relevant = relevant_gold(gold)
    if manifest is not None:
        basis: StaleBasis = "manifest"
        stale = stale_in_manifest(relevant, manifest)
    else:
        gold_rows = [result.gold_rows for result in evaluation.runs]
        basis, stale = "no_run_returns", never_returned(relevant, gold_rows)
    record, found = provenance(gold, runs, manifest)
    gold_chunks = relevant.height
    found += stale_warning(stale, basis, manifest, gold_chunks, len(runs))
    dated = manifest is not None and (manifest.has("valid_from") or manifest.has("valid_to"))
    as_of = as_of if dated else None
    from_manifest = (
        empty_forbidden() if manifest is None else manifest_forbidden(manifest, audience, as_of)
    )
    forbidden = pl.concat([gold.forbidden, from_manifest])
    phrases = reason_phrases(forbidden, audience)
    found += forbidden_gold_warning(relevant, forbidden)
    leaks = {run.name: leaked(run, gold, forbidden) for run in runs}
    for name, rows in leaks.items():
        found += leak_warning(name, rows, evaluation.settings.context_k, phrases)
    return Hygiene(
        stale=stale,
        stale_basis=basis,
        provenance=record,
        forbidden=forbidden,
        reasons=phrases,
        leaks=leaks,
        manifest=manifest,
        audience=audience,
        gold_chunks=gold_chunks,
        as_of=as_of,
        warnings=tuple(found),
    )
