"""What one shard writes so that ``reportgen merge`` rebuilds the whole report (merge/).

The per-question file holds the measures. A whole report needs more of the inputs: the
gold questions and judgments (digests, hygiene, the verdicts' join, the pages'
evidence), the rows of each run that an analysis or a page reads (each question's top
k_ctx: the cutoff's top-1 score, the cells' coverage and the pages' evidence; every gold
chunk returned, for the stale-gold check; every forbidden chunk returned, for the
leaks), the chunks a trace says were sent, the ties, the questions the gold set lacks,
and the verdicts. Without a manifest, also every chunk id each run returned (once): a
chunk that is gold for a question of another shard counts as returned, as it does in
one report over every question. Frames go to Parquet (every value kept exactly), the
rest to merge/shard.json. A run's other rows never leave the shard: they move no
number once measured.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

import polars as pl

from reportgen.analyse.attribution import VERDICTS_RUN_ASSUMED
from reportgen.analyse.run import Findings
from reportgen.load.previous.merge_data import (
    MERGE_DATA_FORMAT,
    chunk_map_digest,
    spans_digest,
)
from reportgen.measure.scoring import COST_COLUMNS, Evaluation, RunScores
from reportgen.schema.merge_files import MERGE_FOLDER


def _parquet(frame: pl.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.write_parquet(buffer, statistics=False)
    return buffer.getvalue()


def kept_rows(result: RunScores, findings: Findings) -> pl.DataFrame:
    """The run's rows an analysis or a page reads: top k_ctx, gold and forbidden chunks."""
    results = result.run.results.join(
        findings.evaluation.gold.questions.select("qid"), on="qid", how="semi"
    )
    wanted = pl.concat(
        [
            results.filter(pl.col("rank") <= findings.evaluation.settings.context_k).select(
                "qid", "chunk_id"
            ),
            result.gold_rows.select("qid", "chunk_id"),
            findings.hygiene.leaks[result.name].select("qid", "chunk_id"),
        ]
    ).unique()
    return results.join(wanted, on=["qid", "chunk_id"], how="semi").sort("qid", "rank")


def _unmapped(result: RunScores, findings: Findings) -> list[str]:
    """The chunks the run returned for gold questions that its chunk map lacks: a merge
    counts them once over the shards."""
    if result.chunked is None:
        return []
    questions = findings.evaluation.gold.questions.select("qid")
    mapped = result.chunked.chunk_map.chunks.select("chunk_id")
    returned = result.run.results.join(questions, on="qid", how="semi")
    unmapped = returned.join(mapped, on="chunk_id", how="anti").get_column("chunk_id")
    return unmapped.unique().sort().to_list()


def _run_meta(result: RunScores, findings: Findings) -> dict[str, Any]:
    run = result.run
    return {
        "source": run.source,
        "order": run.order,
        "index_version": run.index_version,
        "repeated_chunks": run.repeated_chunks,
        "repeated_across_hops": run.repeated_across_hops,
        "rows": run.row_count,
        "unscored_rows": run.results["score"].null_count(),
        "sent_unretrieved": list(run.sent_unretrieved),
        "traced": run.sent is not None,
        "extra_questions": list(result.extra_questions),
        "ties": {str(k): qids for k, qids in sorted(result.ties.items())},
        "chunk_map": None if result.chunked is None else result.chunked.chunk_map.source,
        "chunk_map_digest": None
        if result.chunked is None
        else chunk_map_digest(result.chunked.chunk_map),
        "unmapped_chunks": _unmapped(result, findings),
        "ties_within": result.ties_within,
        "longest_list": run.longest_list,
        "traces": run.traces,
        "tied_hops": list(run.tied_hops),
        "overlapping_hops": list(run.overlapping_hops),
        "unmatched_traces": [
            {"trace_id": u.trace_id, "reason": u.reason, "line": u.line}
            for u in run.unmatched_traces
        ],
        # each replicate's scores are in replicate_scores.parquet; the lists kept are the first's
        "replicates": [replicate.run.source for replicate in result.replicates],
    }


def merge_data_files(
    findings: Findings, cut: Mapping[str, Any] | None = None, judgments: str | None = None
) -> dict[str, bytes]:
    """merge/'s files, by their path in the report folder; ``cut``: the shard's place in
    the `reportgen shard` cut it came from (None when measured outside one);
    ``judgments``: the --judgments file read (judge_merge_files writes its part)."""
    evaluation = findings.evaluation
    gold, settings, verdicts = evaluation.gold, evaluation.settings, findings.verdicts
    hygiene = findings.hygiene
    meta = {
        "merge_data_format": MERGE_DATA_FORMAT,
        "settings": {
            "k": list(settings.ks),
            "context_k": settings.context_k,
            "relevance_threshold": settings.threshold,
            "trec_eval": settings.trec_eval,
            "retrieved_when": settings.retrieved_when,
            "min_coverage": settings.min_coverage,
            "context_k_assumed": settings.context_k_assumed,
            # per-question latency and cost: percentiles cannot be merged, values can
            "costs": [name for name in COST_COLUMNS if name in evaluation.runs[0].scores.columns],
        },
        "gold": {
            "source": gold.source,
            "version": gold.version,
            "index_version": gold.index_version,
            "misspelt_keys": [
                {"key": m.key, "closest": m.closest, "line": m.line, "count": m.count}
                for m in gold.misspelt_keys
            ],
            "nested_fields": sorted(gold.nested_fields),
        },
        "runs": {result.name: _run_meta(result, findings) for result in evaluation.runs},
        "verdicts": None
        if verdicts is None
        else {
            "source": verdicts.source,
            "format": verdicts.format,
            "join_on": verdicts.join_on,
            "metric": verdicts.metric,
            "threshold": verdicts.threshold,
            # the run they judge: merge judges the same, whatever its own options say
            "judged": findings.attributions[0].run,
            "trials": [{"source": t.source, "format": t.format} for t in verdicts.trials],
            # whether that run was assumed (no --verdicts-run, no run named): merge
            # assumes it again, so that its report warns as the unsharded one does
            "judged_assumed": any(
                warning.code == VERDICTS_RUN_ASSUMED for warning in findings.warnings
            ),
        },
        "manifest": None
        if hygiene.manifest is None
        else {"source": hygiene.manifest.source, "index_version": hygiene.manifest.index_version},
        # the kept rows hold the chunks forbidden for this audience on this date
        "checks": {
            "audience": hygiene.audience,
            "as_of": None if hygiene.as_of is None else hygiene.as_of.isoformat(),
        },
        "cut": None if cut is None else dict(cut),
        # the evidence the shard located in --docs: merge must locate the same
        "spans_digest": None
        if evaluation.chunkings is None
        else spans_digest(evaluation.chunkings.spans),
        # the PPI files a merge must find (judge_merge_files)
        "judgments": judgments,
    }
    by_run = {
        "scores": [
            result.scores.select(pl.lit(result.name).alias("run"), pl.all())
            for result in evaluation.runs
        ],
        "results": [
            kept_rows(result, findings).select(pl.lit(result.name).alias("run"), pl.all())
            for result in evaluation.runs
        ],
        "gold_rows": [
            result.gold_rows.select(pl.lit(result.name).alias("run"), pl.all())
            for result in evaluation.runs
        ],
    }
    by_run["sent"] = [
        result.run.sent.select(pl.lit(result.name).alias("run"), pl.all())
        for result in evaluation.runs
        if result.run.sent is not None
    ]
    if hygiene.stale_basis == "no_run_returns":
        # a gold chunk of another shard's question may be returned here: without a
        # manifest, "returned by no run" needs every chunk id a run returned
        by_run["returned"] = [
            result.run.results.select(pl.lit(result.name).alias("run"), "chunk_id").unique()
            for result in evaluation.runs
        ]
    frames = {name: pl.concat(parts) for name, parts in by_run.items() if parts}
    frames |= {"questions": gold.questions, "judgments": gold.judgments}
    frames |= {"forbidden": gold.forbidden, "evidence": gold.evidence}
    frames["attributes"] = gold.attributes  # the questions' own fields: --slice-by
    if verdicts is not None:
        frames["verdicts"] = verdicts.rows
    replicated = [
        replicate.scores.select(
            pl.lit(result.name).alias("run"), pl.lit(number, pl.Int64).alias("replicate"), pl.all()
        )
        for result in evaluation.runs
        for number, replicate in enumerate(result.replicates, start=1)
    ]
    if replicated:
        frames["replicate_scores"] = pl.concat(replicated)
    if verdicts is not None and verdicts.trials:
        frames["verdict_trials"] = pl.concat(
            trial.rows.with_columns(trial=pl.lit(number, pl.Int64))
            for number, trial in enumerate(verdicts.trials, start=1)
        )
    files = {
        f"{MERGE_FOLDER}/{name}.parquet": _parquet(frame) for name, frame in sorted(frames.items())
    }
    text = json.dumps(meta, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return {f"{MERGE_FOLDER}/shard.json": text.encode(), **files}


def judge_merge_files(evaluation: Evaluation, judgments: pl.DataFrame) -> dict[str, bytes]:
    """merge/'s files for the prediction-powered means: the shard's part of the judge's
    grades, every run's values on them (a merge keeps only the gold questions' rows, and
    the judge's questions are more), and the audit's marks (merge keeps no other field)."""
    from reportgen.analyse.ppi import AUDIT_FIELD, judge_values
    from reportgen.measure.measures import measure_keys

    keys = measure_keys(evaluation.settings.ks)
    values = judge_values(evaluation, judgments, keys)
    return {
        f"{MERGE_FOLDER}/ppi_judgments.parquet": _parquet(judgments),
        f"{MERGE_FOLDER}/ppi_values.parquet": _parquet(values),
        f"{MERGE_FOLDER}/ppi_audit.parquet": _parquet(
            evaluation.gold.attributes.filter(pl.col("key") == AUDIT_FIELD)
        ),
    }
