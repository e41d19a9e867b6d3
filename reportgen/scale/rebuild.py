"""The whole evaluation rebuilt from the shards' merge/ folders (``reportgen merge``).

The shards hold disjoint questions, so the whole gold set, each run's per-question
scores and the verdicts are their union; the counts are sums. The result is an
:class:`~reportgen.measure.scoring.Evaluation` like the one measuring all the questions
at once gives, and the analyses run on it as on that one. Reading and checking merge/
is load/previous/merge_data.py's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from reportgen.core.model import GoldSet, MisspeltKey, SummarisedRun, UnmatchedTrace, VerdictSet
from reportgen.errors import UsageError
from reportgen.load.inputs.trials import verdict_trials
from reportgen.load.previous.merge_data import ShardData
from reportgen.measure.chunked import Chunkings, chunk_run
from reportgen.measure.scoring import Evaluation, RunScores, Settings, measuring_warnings
from reportgen.measure.ties import RANK_SENSITIVE


def agreed(shards: Sequence[ShardData], what: str, value: Callable[[ShardData], Any]) -> Any:
    """A value every shard must have the same; shards that differ cannot be merged."""
    first = value(shards[0])
    for shard in shards[1:]:
        if value(shard) != first:
            raise UsageError(
                f"shards were measured differently: {what} is {first!r} in "
                f"{shards[0].source} and {value(shard)!r} in {shard.source}",
                "measure every shard of one `reportgen shard` cut with the same options",
            )
    return first


def _named(shards: Sequence[ShardData], value: Callable[[ShardData], str]) -> str:
    """A source every shard names alike (the same file names in each shard folder)."""
    names = list(dict.fromkeys(value(shard) for shard in shards))
    return names[0] if len(names) == 1 else f"merged from {len(shards)} shards"


def _questions(shards: Sequence[ShardData]) -> pl.DataFrame:
    """Every shard's gold questions, refusing a question two shards hold."""
    questions = pl.concat(
        shard.frames["questions"].with_columns(pl.lit(i).alias("_shard"))
        for i, shard in enumerate(shards)
    )
    shared = questions.filter(pl.col("qid").is_duplicated()).sort("qid", "_shard")
    if shared.height:
        qid = shared["qid"][0]
        first, second = shared.filter(pl.col("qid") == qid)["_shard"].head(2).to_list()
        raise UsageError(
            f"shards overlap: question {qid!r} is in {shards[first].source} and "
            f"{shards[second].source} ({shared['qid'].n_unique()} shared question(s))",
            "split the questions so that each is in exactly one shard",
        )
    return questions.drop("_shard").sort("qid")


def _misspelt(shards: Sequence[ShardData]) -> tuple[MisspeltKey, ...]:
    """Each misspelt key once, counted over the shards (its line: the first shard's)."""
    found: dict[str, MisspeltKey] = {}
    for shard in shards:
        for entry in shard.meta["gold"]["misspelt_keys"]:
            known = found.get(entry["key"])
            count = entry["count"] + (known.count if known else 0)
            line = known.line if known else entry["line"]
            found[entry["key"]] = MisspeltKey(entry["key"], entry["closest"], line, count)
    return tuple(found.values())


def merged_gold(shards: Sequence[ShardData]) -> GoldSet:
    """The gold set all the shards' questions make; chunks forbidden for everyone once."""
    forbidden = pl.concat(shard.frames["forbidden"] for shard in shards)
    everyone = pl.col("qid").is_null()
    return GoldSet(
        questions=_questions(shards),
        judgments=pl.concat(shard.frames["judgments"] for shard in shards),
        source=_named(shards, lambda shard: shard.meta["gold"]["source"]),
        version=agreed(shards, "the gold version", lambda s: s.meta["gold"]["version"]),
        index_version=agreed(
            shards, "the gold index version", lambda s: s.meta["gold"]["index_version"]
        ),
        forbidden=pl.concat(
            [forbidden.filter(~everyone), forbidden.filter(everyone).unique(maintain_order=True)]
        ),
        misspelt_keys=_misspelt(shards),
        evidence=pl.concat(shard.frames["evidence"] for shard in shards),
        attributes=pl.concat(shard.frames["attributes"] for shard in shards),
        nested_fields=frozenset(
            name for shard in shards for name in shard.meta["gold"]["nested_fields"]
        ),
    )


def _rows(shards: Sequence[ShardData], frame: str, run: str) -> pl.DataFrame:
    """The run's rows of every shard; a shard without latency or cost columns leaves
    its questions' values missing (null), never 0."""
    return pl.concat(
        (shard.frames[frame].filter(pl.col("run") == run).drop("run") for shard in shards),
        how="diagonal",
    )


def _gold_rows(shards: Sequence[ShardData], name: str, gold: GoldSet) -> pl.DataFrame:
    """The run's rows of gold chunks; without a manifest, also (with no question or rank)
    the chunks it returned in one shard that are gold for a question of another: what
    the stale-gold check reads, as one report over every question finds them."""
    rows = _rows(shards, "gold_rows", name)
    if any("returned" not in shard.frames for shard in shards):
        return rows.unique(maintain_order=True)
    positive = gold.judgments.filter(pl.col("grade") > 0).get_column("chunk_id").implode()
    returned = _rows(shards, "returned", name).filter(pl.col("chunk_id").is_in(positive))
    elsewhere = returned.select(
        pl.lit(None, pl.String).alias("qid"), "chunk_id", pl.lit(None, pl.Int64).alias("rank")
    )
    return pl.concat([rows, elsewhere.cast(rows.schema)]).unique(maintain_order=True)


def _sent(shards: Sequence[ShardData], name: str) -> pl.DataFrame | None:
    """The chunks the run's traces say were sent, over every shard; None without traces."""
    traced = [shard for shard in shards if shard.meta["runs"][name]["traced"]]
    return _rows(traced, "sent", name).sort("qid") if traced else None


def _traces(metas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A span run's traces over the shards. Each shard reads the whole export against its
    own questions, so a trace is unmatched only when no shard could match it."""
    counts = [meta["traces"] for meta in metas if meta["traces"] is not None]
    if not counts:
        return {}
    unmatched = [{u["trace_id"]: u for u in meta["unmatched_traces"]} for meta in metas]
    everywhere = set.intersection(*(set(found) for found in unmatched))
    kept = sorted((unmatched[0][t] for t in everywhere), key=lambda u: u["line"])
    tied = sorted({trace for meta in metas for trace in meta["tied_hops"]})
    overlapping = sorted({trace for meta in metas for trace in meta.get("overlapping_hops", [])})
    return {
        "traces": max(counts),
        "tied_hops": tuple(tied),
        "overlapping_hops": tuple(overlapping),
        "unmatched_traces": tuple(
            UnmatchedTrace(u["trace_id"], u["reason"], u["line"]) for u in kept
        ),
    }


def _measure_order(key: str) -> tuple[int, int]:
    """``mrr@5`` -> (5, its place in RANK_SENSITIVE): the order ties_within_top_k gives."""
    name, k = key.split("@")
    return int(k), RANK_SENSITIVE.index(name)


def merged_run(shards: Sequence[ShardData], name: str, gold: GoldSet) -> RunScores:
    """One run over every shard's questions: scores, kept rows, ties and counts united."""
    gold_ids = gold.questions.get_column("qid")
    metas = [shard.meta["runs"][name] for shard in shards]
    run = SummarisedRun(
        name=name,
        results=_rows(shards, "results", name).sort("qid", "rank"),
        source=_named(shards, lambda shard: shard.meta["runs"][name]["source"]),
        order=agreed(shards, f"run {name!r}'s order", lambda s: s.meta["runs"][name]["order"]),
        repeated_chunks=sum(meta["repeated_chunks"] for meta in metas),
        repeated_across_hops=sum(meta["repeated_across_hops"] for meta in metas),
        index_version=agreed(
            shards, f"run {name!r}'s index version", lambda s: s.meta["runs"][name]["index_version"]
        ),
        sent=_sent(shards, name),
        sent_unretrieved=tuple(sorted({q for meta in metas for q in meta["sent_unretrieved"]})),
        whole_row_count=sum(meta["rows"] for meta in metas),
        unscored_rows=sum(meta["unscored_rows"] for meta in metas),
        whole_longest_list=max(meta["longest_list"] for meta in metas),
        **_traces(metas),
    )
    # a shard measured on part of the gold set counts the other parts' questions as extra
    extra = {q for meta in metas for q in meta["extra_questions"]} - set(gold_ids.to_list())
    ties: dict[int, set[str]] = {}
    within: dict[str, set[str]] = {}
    for meta in metas:
        for k, qids in meta["ties"].items():
            ties.setdefault(int(k), set()).update(qids)
        for key, qids in meta["ties_within"].items():
            within.setdefault(key, set()).update(qids)
    merged = RunScores(
        run=run,
        scores=_rows(shards, "scores", name).sort("qid"),
        extra_questions=tuple(sorted(extra)),
        gold_rows=_gold_rows(shards, name, gold),
        ties={k: sorted(qids) for k, qids in sorted(ties.items())},
        ties_within={key: sorted(within[key]) for key in sorted(within, key=_measure_order)},
    )
    return dataclasses.replace(merged, replicates=_replicates(shards, name, merged))


def _replicates(shards: Sequence[ShardData], name: str, merged: RunScores) -> tuple[RunScores, ...]:
    """Each replicate of the run over every shard: its scores, the source its shards name
    (what the replicates' findings read); the rest is the merged run's."""
    count = agreed(
        shards, f"run {name!r}'s replicates", lambda s: len(s.meta["runs"][name]["replicates"])
    )
    if not count:
        return ()
    rows = pl.concat(shard.frames["replicate_scores"] for shard in shards).filter(
        pl.col("run") == name
    )
    return tuple(
        dataclasses.replace(
            merged,
            run=dataclasses.replace(merged.run, source=_named(shards, _replicate(name, number))),
            scores=rows.filter(pl.col("replicate") == number).drop("run", "replicate").sort("qid"),
        )
        for number in range(1, count + 1)
    )


def _replicate(name: str, number: int) -> Callable[[ShardData], str]:
    """The file a shard names for replicate ``number`` (from 1) of run ``name``."""
    return lambda shard: str(shard.meta["runs"][name]["replicates"][number - 1])


def _verdicts_key(key: str) -> Callable[[ShardData], Any]:
    return lambda shard: shard.meta["verdicts"][key]


def merged_verdicts(shards: Sequence[ShardData]) -> VerdictSet | None:
    """Every shard's verdict rows, as one verdict set; None when the shards had none."""
    metas = [shard.meta["verdicts"] for shard in shards]
    if all(meta is None for meta in metas):
        return None
    agreed(shards, "whether there are verdicts", lambda s: s.meta["verdicts"] is not None)
    meta = metas[0]
    for key in ("format", "join_on", "metric", "threshold"):
        agreed(shards, f"the verdicts' {key}", _verdicts_key(key))
    trials = agreed(shards, "the judge trials", lambda s: len(s.meta["verdicts"]["trials"]))
    if trials:
        return _merged_trials(shards, trials)
    return VerdictSet(
        rows=pl.concat(shard.frames["verdicts"] for shard in shards),
        source=_named(shards, lambda shard: shard.meta["verdicts"]["source"]),
        format=meta["format"],
        join_on=meta["join_on"],
        metric=meta["metric"],
        threshold=meta["threshold"],
    )


def _merged_trials(shards: Sequence[ShardData], trials: int) -> VerdictSet:
    """Each judge trial's rows from every shard, then their majority, as one report's."""
    stacked = pl.concat(shard.frames["verdict_trials"] for shard in shards)
    meta = shards[0].meta["verdicts"]
    return verdict_trials(
        [
            VerdictSet(
                rows=stacked.filter(pl.col("trial") == number).drop("trial"),
                source=_named(shards, _trial_source(number)),
                format=meta["trials"][number - 1]["format"],
                join_on=meta["join_on"],
                metric=meta["metric"],
                threshold=meta["threshold"],
            )
            for number in range(1, trials + 1)
        ]
    )


def _trial_source(number: int) -> Callable[[ShardData], str]:
    return lambda shard: str(shard.meta["verdicts"]["trials"][number - 1]["source"])


def chunk_mapped(shards: Sequence[ShardData]) -> dict[str, str]:
    """Run -> the chunk map (as the shards name it) of each run measured through one."""
    maps = agreed(
        shards,
        "the chunk maps",
        lambda shard: {name: run["chunk_map"] for name, run in shard.meta["runs"].items()},
    )
    return {name: source for name, source in maps.items() if source is not None}


def _chunked(
    shards: Sequence[ShardData],
    result: RunScores,
    chunkings: Chunkings,
    gold: GoldSet,
    settings: Settings,
) -> RunScores:
    """The run judged through its chunk map, given to merge (its derived judgments and
    overlaps; the span measures are the shards'), its unmapped chunks counted once."""
    chunked = chunk_run(gold, result.run, chunkings, settings.ks, settings.min_coverage)
    if chunked is None:
        return result
    unmapped = {c for shard in shards for c in shard.meta["runs"][result.name]["unmapped_chunks"]}
    return dataclasses.replace(result, chunked=dataclasses.replace(chunked, unmapped=len(unmapped)))


def _setting(key: str) -> Callable[[ShardData], Any]:
    return lambda shard: shard.meta["settings"][key]


def merged_settings(shards: Sequence[ShardData]) -> dict[str, Any]:
    """The settings every shard was measured with, the first that differs named with its
    option. Whether --context-k was given moves no number: a shard told --context-k 5
    merges with one left to the default 5, and the merge assumed it only if every shard did.
    """
    keys = ("k", "context_k", "relevance_threshold", "trec_eval", "retrieved_when", "min_coverage")
    for key in keys:  # each is its option's name: context_k is --context-k
        option = "--" + key.replace("_", "-")
        agreed(shards, f"the settings' {key} ({option})", _setting(key))
    assumed = all(shard.meta["settings"]["context_k_assumed"] for shard in shards)
    return {**shards[0].meta["settings"], "context_k_assumed": assumed}


def merged_evaluation(
    shards: Sequence[ShardData], gold: GoldSet | None = None, chunkings: Chunkings | None = None
) -> Evaluation:
    """The evaluation of every shard's questions, as measuring them together gives it.

    ``chunkings``: the chunk maps the shards were measured with, loaded again (they
    cover the whole index, so no shard carries them).
    """
    settings = merged_settings(shards)
    scoring = Settings(
        tuple(settings["k"]),
        settings["context_k"],
        settings["relevance_threshold"],
        settings["trec_eval"],
        settings["retrieved_when"],
        settings["min_coverage"],
        span_measures=chunkings is not None and bool(chunkings.maps),
        context_k_assumed=settings["context_k_assumed"],
    )
    names = agreed(shards, "the runs", lambda shard: list(shard.meta["runs"]))
    gold = gold or merged_gold(shards)
    runs = tuple(merged_run(shards, name, gold) for name in names)
    if chunkings is not None:
        runs = tuple(_chunked(shards, result, chunkings, gold, scoring) for result in runs)
    warnings = measuring_warnings(gold, runs, scoring, chunkings)
    return Evaluation(gold, scoring, runs, warnings, chunkings=chunkings)


def manifest_named(shards: Sequence[ShardData]) -> dict[str, Any] | None:
    """The manifest the shards were checked against (source, index version), or None."""
    named: dict[str, Any] | None = agreed(
        shards, "the manifest", lambda shard: shard.meta["manifest"]
    )
    return named


def checked_for(shards: Sequence[ShardData]) -> dict[str, Any]:
    """The audience and the date (ISO, or None) the shards' forbidden chunks were for."""
    checks: dict[str, Any] = agreed(
        shards, "the audience and --as-of", lambda shard: shard.meta["checks"]
    )
    return checks
