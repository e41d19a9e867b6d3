"""Per-question retrieval measures as Polars expressions, and their means.

Every measure follows SPEC.md and, where the conventions agree, trec_eval:
ranks are the 1-based positions the model saw; a chunk is relevant when its grade is
at least the threshold; nDCG takes every positive grade as gain whatever the
threshold. Results are one row per gold question (wide, a column per measure), so
that attribution, comparison and rendering can join on ``qid``.

Each :class:`Measure` in :data:`MEASURES` carries its expression; :func:`per_question`
gathers the evidence once (relevant chunks in the top k, DCG, precision sums...) and
applies every measure's expression to it. A new measure is one entry of MEASURES,
plus an evidence column when it reads one that is not gathered yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from functools import cached_property
from typing import Literal

import polars as pl

from reportgen.core.model import GoldSet, Run
from reportgen.core.records import dataclass
from reportgen.measure.blocks import block_positions, block_starts
from reportgen.measure.judged import hole_values, judged_counts, judged_keys, judged_values

Status = Literal["scored", "missing", "no_relevant", "unanswerable"]
"""Why a question is or is not in the means:
scored (the run answered it), missing (the run did not: every measure is 0),
no_relevant (no chunk at or above the threshold; left out unless trec_eval's
convention is asked for), unanswerable (declared so; always left out)."""

IN_MEANS: tuple[Status, ...] = ("scored", "missing")


# What a measure's expression reads, one row per gold question (:func:`per_question`
# builds them from the gold chunks each run returned): n_relevant, first_relevant_rank,
# and per cutoff k ``_rel@k`` (relevant chunks in the top k), ``_dcg@k``, ``_idcg@k``
# and ``_ap@k`` (the sum of precision@r over relevant ranks r <= k); for the whole list
# ``_ap_sum`` and ``_rel_in_r`` (relevant chunks in the top R, R = n_relevant).


def _at(k: int | None) -> int:
    if k is None:
        raise ValueError("a cutoff measure needs its k")
    return k


def _over_relevant(numerator: pl.Expr) -> pl.Expr:
    n_relevant = pl.col("n_relevant")
    return pl.when(n_relevant > 0).then(numerator / n_relevant).otherwise(0.0)


def _reciprocal_rank(within: int | None) -> pl.Expr:
    first = pl.col("first_relevant_rank")
    found = first.is_not_null() if within is None else first <= within
    return pl.when(found).then(1.0 / first).otherwise(0.0)


def _ndcg(k: int | None) -> pl.Expr:
    dcg, ideal = pl.col(f"_dcg@{_at(k)}"), pl.col(f"_idcg@{_at(k)}")
    return pl.when(ideal > 0).then(dcg / ideal).otherwise(0.0)


@dataclass(frozen=True)
class Measure:
    """One measure's definition: its canonical key is ``name@k`` or ``name``, and its
    Polars expression computes it per question (at k for a cutoff measure, else with
    ``None``) from the columns :func:`per_question` gathers."""

    name: str
    title: str
    formula: str
    description: str
    cutoff: bool
    binary: bool = False
    trec_eval: str | None = None
    """trec_eval's name, with ``{k}`` where the cutoff goes."""
    expression: Callable[[int | None], pl.Expr] = field(kw_only=True, compare=False, repr=False)

    def key(self, k: int | None = None) -> str:
        return f"{self.name}@{k}" if self.cutoff else self.name


MEASURES: tuple[Measure, ...] = (
    Measure(
        "hit",
        "hit@k",
        "1 if any gold chunk is in the top k, else 0",
        "Did at least one piece of evidence arrive? Some texts call this "
        '"recall at k"; reportgen calls it hit@k.',
        cutoff=True,
        binary=True,
        trec_eval="success_{k}",
        expression=lambda k: (pl.col(f"_rel@{_at(k)}") > 0).cast(pl.Float64),
    ),
    Measure(
        "recall",
        "recall@k",
        "|gold in top k| / |gold|",
        "How much of the evidence reached the model?",
        cutoff=True,
        trec_eval="recall_{k}",
        expression=lambda k: _over_relevant(pl.col(f"_rel@{_at(k)}")),
    ),
    Measure(
        "precision",
        "precision@k",
        "|gold in top k| / k (k even when fewer results came back)",
        "How much of the context is noise?",
        cutoff=True,
        trec_eval="P_{k}",
        expression=lambda k: pl.col(f"_rel@{_at(k)}") / _at(k),
    ),
    Measure(
        "mrr",
        "MRR@k",
        "mean of 1 / rank of the first gold chunk within the top k (0 if none)",
        "How near the top is the first piece of evidence?",
        cutoff=True,
        expression=lambda k: _reciprocal_rank(_at(k)),
    ),
    Measure(
        "ndcg",
        "nDCG@k",
        "DCG@k / ideal DCG@k; gain = grade, discount = log2(rank + 1)",
        "Graded relevance, with depth. Every positive grade is a gain, whatever the "
        "relevance threshold.",
        cutoff=True,
        trec_eval="ndcg_cut_{k}",
        expression=_ndcg,
    ),
    Measure(
        "ap",
        "AP@k",
        "sum of precision@r over gold ranks r <= k, divided by |gold|",
        "Ranking quality across all the gold chunks.",
        cutoff=True,
        trec_eval="map_cut_{k}",
        expression=lambda k: _over_relevant(pl.col(f"_ap@{_at(k)}")),
    ),
    Measure(
        "mrr",
        "MRR",
        "mean of 1 / rank of the first gold chunk anywhere in the list",
        "Reciprocal rank with no cutoff.",
        cutoff=False,
        trec_eval="recip_rank",
        expression=lambda k: _reciprocal_rank(None),
    ),
    Measure(
        "ap",
        "AP",
        "sum of precision@r over every gold rank r, divided by |gold|",
        "Average precision with no cutoff (trec_eval's map).",
        cutoff=False,
        trec_eval="map",
        expression=lambda k: _over_relevant(pl.col("_ap_sum")),
    ),
    Measure(
        "r-precision",
        "R-precision",
        "|gold in top R| / R, where R = |gold|",
        "Precision at the depth where a perfect ranking would have found everything.",
        cutoff=False,
        trec_eval="Rprec",
        expression=lambda k: _over_relevant(pl.col("_rel_in_r")),
    ),
)

CUTOFF_MEASURES = tuple(m for m in MEASURES if m.cutoff)
WHOLE_LIST_MEASURES = tuple(m for m in MEASURES if not m.cutoff)


def measure_keys(ks: Sequence[int]) -> list[str]:
    """Canonical column names, measure by measure, each at every k, then the rest."""
    keys = [m.key(k) for m in CUTOFF_MEASURES for k in ks]
    return keys + [m.key() for m in WHOLE_LIST_MEASURES]


def cutoffs(keys: Sequence[str]) -> list[int]:
    """The cutoffs that measure keys name (``hit@5`` -> 5), smallest first."""
    return sorted({int(key.rpartition("@")[2]) for key in keys if "@" in key})


MAX_GRADES = 16
"""Distinct positive grades up to which ideal DCGs are read off per-question counts
(:func:`_ideal_dcg`); past that, each question's judgments are sorted
(:func:`_sorted_ideal_dcg`)."""


def _ideal_dcg(counts: pl.DataFrame, grades: Sequence[int], ks: Sequence[int]) -> pl.DataFrame:
    """Ideal DCG@k per question from how many positive judgments of each grade it has:
    ``counts`` holds qid and ``_n{j}``, the count of ``grades[j]`` (grades best first).

    A question's ideal list is its grades best first, so it is known by where each
    grade's run of ranks ends, and questions whose ends agree (up to the deepest
    cutoff) have the same ideal DCGs: each such list is summed once, and a list that
    begins as the one before does resumes from its partial sums.

    The floats are added as :func:`_sorted_ideal_dcg`'s group_by adds them, to the
    last bit: Kahan's compensated sum of the first k terms in rank order (the filter
    ``rank <= k`` regroups the rows), except at a cutoff no question reaches past,
    where nothing is filtered out and Polars sums each question as a slice
    (:func:`_slice_sum`).
    """
    depth = max(ks)
    names = [f"_end{j}" for j in range(len(grades))]
    keys = [f"_idcg@{k}" for k in ks]
    if not grades:  # no positive judgment anywhere: every ideal DCG is 0 (filled in)
        return pl.DataFrame(schema={"qid": pl.String} | dict.fromkeys(keys, pl.Float64))
    run_end = pl.lit(0, pl.Int64)
    ends = []
    for j, name in enumerate(names):
        run_end = run_end + pl.col(f"_n{j}")
        ends.append(pl.min_horizontal(run_end, depth).alias(name))
    ends_of = counts.select("qid", *ends, _longest=run_end.max())
    longest = ends_of.get_column("_longest")[0]
    shapes = sorted(ends_of.select(names).unique().iter_rows())
    discount = (
        pl.select((pl.int_range(1, min(longest, depth) + 1, dtype=pl.Int64) + 1).log(2))
        .to_series()
        .to_list()
    )
    gains = [float(grade) for grade in grades]
    # after each rank of the list before: Kahan's sum and compensation, the plain sum
    # in rank order, and the rank's own term
    partial = [(0.0, 0.0, 0.0, 0.0)]
    before: tuple[int, ...] = ()
    rows = []
    for shape in shapes:
        # ranks both lists share: up to where the first run that ends elsewhere ends
        shared = next((min(a, b) for a, b in zip(shape, before, strict=False) if a != b), 0)
        del partial[shared + 1 :]
        start = shared
        for gain, end in zip(gains, shape, strict=True):
            for rank in range(start + 1, end + 1):
                kahan, lost, plain, _ = partial[-1]
                term = gain / discount[rank - 1]
                step = term - lost
                added = kahan + step
                partial.append((added, (added - kahan) - step, plain + term, term))
            start = max(start, end)
        length = shape[-1]
        whole = (
            partial[length][2]
            if length < _SLICE_BLOCK
            else _slice_sum([part[3] for part in partial[1 : length + 1]])
        )
        rows.append((*shape, *(whole if k >= longest else partial[min(k, length)][0] for k in ks)))
        before = shape
    table = pl.DataFrame(
        rows,
        schema=dict.fromkeys(names, pl.Int64) | dict.fromkeys(keys, pl.Float64),
        orient="row",
    )
    return ends_of.join(table, on=names, how="left").select("qid", *keys)


_SLICE_BLOCK, _SLICE_LANES = 128, 16


def _slice_sum(terms: list[float]) -> float:
    """What Polars sums a slice of floats to (polars-compute's float_sum, which
    group_by uses on sorted groups): the first ``len % 128`` terms in order, plus the
    rest halved into blocks of 128, pairwise, each block added in 16 lanes."""
    head = len(terms) % _SLICE_BLOCK
    first = -0.0
    for term in terms[:head]:
        first += term
    return (_pairwise_sum(terms[head:]) if len(terms) > head else 0.0) + first


def _pairwise_sum(terms: list[float]) -> float:
    if len(terms) > _SLICE_BLOCK:
        middle = len(terms) // 2 // _SLICE_BLOCK * _SLICE_BLOCK
        return _pairwise_sum(terms[:middle]) + _pairwise_sum(terms[middle:])
    lanes = [0.0] * _SLICE_LANES
    for offset in range(0, _SLICE_BLOCK, _SLICE_LANES):
        for lane in range(_SLICE_LANES):
            lanes[lane] += terms[offset + lane]
    width = _SLICE_LANES
    while width > 4:  # folded onto itself, halved, down to four lanes
        width //= 2
        for lane in range(width):
            lanes[lane] += lanes[width + lane]
    return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])


def _sorted_ideal_dcg(positive: pl.DataFrame, ks: Sequence[int]) -> pl.DataFrame:
    """:func:`_ideal_dcg` by sorting every positive judgment, for gold sets of many
    distinct grades.

    The filter regroups each question's rows, which Polars then sums with Kahan's
    compensation; when it keeps every row, each question is summed as a slice.
    """
    ideal = positive.sort(["qid", "grade"], descending=[False, True]).with_columns(
        # sorted, each question is one block: a rank is the distance to its start
        ideal_rank=block_positions()
    )
    gain = pl.col("grade").cast(pl.Float64) / (pl.col("ideal_rank") + 1).log(2)
    return ideal.group_by("qid").agg(
        gain.filter(pl.col("ideal_rank") <= k).sum().alias(f"_idcg@{k}") for k in ks
    )


def _per_question(
    judgments: pl.DataFrame, aggregations: Sequence[pl.Expr], in_blocks: bool
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(qid, n_relevant, ...) per question that ``aggregations`` compute, and the
    judgments with their question's n_relevant.

    When each question's judgments are one block of rows (a loaded gold set's are),
    blocks are grouped as sorted slices and each row reads its question's count by
    block number: no question id is hashed.
    """
    if not in_blocks:
        counted = judgments.group_by("qid").agg(aggregations)
        relevant = counted.select("qid", "n_relevant")
        return counted, judgments.join(relevant, on="qid", how="left")
    block = judgments.select(pl.col("qid").rle_id().set_sorted().alias("_block")).to_series()
    counted = (
        judgments.with_columns(block)
        .group_by("_block", maintain_order=True)
        .agg(pl.col("qid").first(), *aggregations)
        .drop("_block")
    )
    return counted, judgments.with_columns(counted.get_column("n_relevant").gather(block))


_STARTS = block_starts()


def _running_count(column: str) -> pl.Expr:
    """Running count of true values within each block: a window without hashing ids."""
    total = pl.col(column).cum_sum()
    return total - pl.when(_STARTS).then(total - pl.col(column)).forward_fill()


@dataclass(frozen=True)
class Judged:
    """What every run is measured against: it depends on the gold set, the cutoffs and
    the threshold, never on the run, so :func:`judge` computes it once for all runs."""

    questions: pl.DataFrame
    """qid, kind, unanswerable, n_relevant, then ``_idcg@k`` for each cutoff."""
    positive: pl.DataFrame
    """(qid, chunk_id, grade, n_relevant) of every judgment with a positive grade."""
    ks: tuple[int, ...]
    threshold: int
    judgments: pl.DataFrame
    """(qid, chunk_id, grade, n_relevant) of every judgment, grade 0 too: judged@k counts
    them all, the other measures those with a positive grade."""

    @cached_property
    def judged_ids(self) -> pl.Series:
        """Every judged chunk id once, for every run's filter: where questions share
        chunk ids (a pool of a few thousand), the judgments repeat each hundreds of times."""
        return self.judgments.get_column("chunk_id").unique()

    @cached_property
    def gold_ids(self) -> pl.Series:
        """Every chunk id with a positive grade for some question, once."""
        return self.positive.get_column("chunk_id").unique()


def judge(gold: GoldSet, ks: Sequence[int], threshold: int = 1) -> Judged:
    """The run-independent half of :func:`per_question`: one pass over the judgments
    counts each question's relevant ones and, when the grades are few, how many it has
    of each positive grade, which is all its ideal DCGs need."""
    judgments = gold.judgments.select("qid", "chunk_id", "grade")
    grade, starts = pl.col("grade"), block_starts()
    blocks, questions, grades = judgments.select(
        blocks=starts.sum(),
        questions=pl.col("qid").filter(starts).n_unique(),
        grades=grade.filter(grade > 0).unique().sort(descending=True).implode(),
    ).row(0)
    counts = len(grades) <= MAX_GRADES
    counted, graded = _per_question(
        judgments,
        [
            (grade >= threshold).sum().cast(pl.Int64).alias("n_relevant"),
            *(
                (grade == value).sum().cast(pl.Int64).alias(f"_n{j}")
                for j, value in enumerate(grades if counts else [])
            ),
        ],
        in_blocks=blocks == questions,
    )
    positive = graded.filter(grade > 0)
    ideal = _ideal_dcg(counted, grades, ks) if counts else _sorted_ideal_dcg(positive, ks)
    questions_of = (
        gold.questions.lazy()
        .select("qid", "kind", "unanswerable")
        .join(counted.lazy().select("qid", "n_relevant"), on="qid", how="left")
        .join(ideal.lazy(), on="qid", how="left")
        .with_columns(pl.col("n_relevant").fill_null(0), pl.col("^_idcg@.*$").fill_null(0.0))
        .collect()
    )
    return Judged(questions_of, positive, tuple(ks), threshold, graded)


@dataclass(frozen=True)
class Returned:
    """What the passes over every row of a run give the measures and the checks."""

    retrieved: pl.DataFrame
    """(qid, n_retrieved): distinct chunks per question the run answers, gold or not."""
    gold_rows: pl.DataFrame
    """(qid, chunk_id, rank) of the rows whose chunk is a positive gold chunk of any
    question: the only rows that can move a measure or show that a gold id exists."""
    judged_rows: pl.DataFrame
    """(qid, chunk_id, rank) of the rows whose chunk the gold set judges (any grade) for
    any question: what judged@k reads. ``gold_rows`` are cut from them."""


def read_run(run: Run, judged: Judged) -> Returned:
    """The two passes over a run's rows that everything else is computed from: one
    counts each question's results, one keeps the rows of judged chunks."""
    judged_rows = run.results.select("qid", "chunk_id", "rank").filter(
        pl.col("chunk_id").is_in(pl.lit(judged.judged_ids).implode())
    )
    if judged.positive.height == judged.judgments.height:  # no grade 0: the same rows
        gold_rows = judged_rows
    else:
        gold_rows = judged_rows.filter(pl.col("chunk_id").is_in(pl.lit(judged.gold_ids).implode()))
    return Returned(retrieved=_retrieved(run), gold_rows=gold_rows, judged_rows=judged_rows)


def _retrieved(run: Run) -> pl.DataFrame:
    """(qid, n_retrieved), counted per block of rows when each question is one block.

    Loaded runs are, with no chunk twice: a block's length is the count. Otherwise,
    grouping by a block number known to be sorted reads each block as a slice, 3x
    faster than hashing every question id.
    """
    results = run.results
    if run.in_blocks:
        # eager: rle in a lazy plan fails on frames of several chunks (measure/blocks.py)
        lengths = results.select(pl.col("qid").rle()).unnest("qid")
        return lengths.select("value", pl.col("len").cast(pl.Int64)).rename(
            {"value": "qid", "len": "n_retrieved"}
        )
    count = pl.col("chunk_id").n_unique().cast(pl.Int64).alias("n_retrieved")
    blocks = (
        results.select(pl.col("qid").rle_id().set_sorted().alias("_block"), "qid", "chunk_id")
        .group_by("_block", maintain_order=True)
        .agg(pl.col("qid").first(), count)
    )
    if blocks.get_column("qid").n_unique() == blocks.height:
        return blocks.drop("_block")
    return results.group_by("qid").agg(count)


def per_question(
    gold: GoldSet,
    run: Run,
    ks: Sequence[int],
    threshold: int = 1,
    *,
    judged: Judged | None = None,
    returned: Returned | None = None,
    with_judged: bool = False,
) -> pl.DataFrame:
    """Every measure for every gold question, with its status and evidence counts.

    Columns: qid, kind, status, n_relevant, n_retrieved, n_relevant_retrieved,
    first_relevant_rank (null when none), then :func:`measure_keys`, then with
    ``with_judged`` :func:`~reportgen.measure.judged.judged_keys`.
    ``threshold`` is at least 1: an unjudged chunk is never relevant. ``judged`` and
    ``returned`` (from :func:`judge` and :func:`read_run`) spare recomputing what
    several runs, or the caller, already have.
    """
    if judged is None or judged.ks != tuple(ks) or judged.threshold != threshold:
        judged = judge(gold, ks, threshold)
    if returned is None:
        returned = read_run(run, judged)
    # Only a judged chunk can move a measure (judged@k counts every grade, the others
    # a positive one), so the rest of the work is on those few rows per question,
    # never on the whole ranked list; one pass over them gives every measure.
    # Kept eager: group_by sums floats per sorted slice, and the same frame built by
    # a lazy plan (several chunks, no sorted flag) gave sums differing in the last bit.
    rows, graded = (
        (returned.judged_rows, judged.judgments)
        if with_judged
        else (returned.gold_rows, judged.positive)
    )
    # joins do not keep row order: sort right before the running count
    found = rows.join(graded, on=["qid", "chunk_id"], how="inner").sort("qid", "rank")
    if not run.in_blocks:  # a loaded run holds no chunk twice in a list already
        # A chunk repeated in one list counts once, at its first rank (SPEC.md).
        found = found.unique(["qid", "chunk_id"], keep="first", maintain_order=True)
    found = found.with_columns(is_rel=pl.col("grade") >= threshold).with_columns(
        # relevant rows are in rank order, so their running count is |G ∩ T_rank|
        precision_here=_running_count("is_rel") / pl.col("rank"),
        gain=pl.col("grade").cast(pl.Float64) / (pl.col("rank") + 1).log(2),
    )
    rel = pl.col("is_rel")
    rank = pl.col("rank")
    # gains summed over the positive grades only: the same floats in the same order
    # whether the grade-0 rows are there or not (a 0.0 among them could regroup a sum)
    positive = pl.col("grade") > 0
    per_run = found.group_by("qid").agg(
        rel.sum().cast(pl.Int64).alias("n_relevant_retrieved"),
        rank.filter(rel).min().alias("first_relevant_rank"),
        pl.col("precision_here").filter(rel).sum().alias("_ap_sum"),
        (rel & (rank <= pl.col("n_relevant"))).sum().alias("_rel_in_r"),
        *[(rel & (rank <= k)).sum().alias(f"_rel@{k}") for k in ks],
        *[pl.col("gain").filter(positive & (rank <= k)).sum().alias(f"_dcg@{k}") for k in ks],
        *[pl.col("precision_here").filter(rel & (rank <= k)).sum().alias(f"_ap@{k}") for k in ks],
        *(judged_counts(ks) if with_judged else []),
    )

    status = (
        pl.when(pl.col("unanswerable"))
        .then(pl.lit("unanswerable"))
        .when(pl.col("n_relevant") == 0)
        .then(pl.lit("no_relevant"))
        .when(pl.col("n_retrieved") == 0)
        .then(pl.lit("missing"))
        .otherwise(pl.lit("scored"))
    )
    base = (
        judged.questions.lazy()
        .join(returned.retrieved.lazy(), on="qid", how="left")
        .join(per_run.lazy(), on="qid", how="left")
        .with_columns(
            pl.col("^(n_.*|_.*)$").fill_null(0),
        )
        .with_columns(status=status)
    )

    # cutoff by cutoff, as the plan was before the measures carried their expressions
    columns = {m.key(k): m.expression(k) for k in ks for m in CUTOFF_MEASURES}
    columns |= {m.key(): m.expression(None) for m in WHOLE_LIST_MEASURES}
    if with_judged:
        base = base.with_columns(judged_values(ks)).with_columns(hole_values(ks))

    return (
        base.with_columns(**columns)
        .select(
            "qid",
            "kind",
            "status",
            "n_relevant",
            "n_retrieved",
            "n_relevant_retrieved",
            "first_relevant_rank",
            *measure_keys(ks),
            *(judged_keys(ks) if with_judged else []),
        )
        .sort("qid")
        .collect()
    )


def in_means(keep_no_relevant: bool = False) -> pl.Expr:
    """Which questions count in a mean (trec_eval keeps those with nothing relevant)."""
    statuses = [*IN_MEANS, "no_relevant"] if keep_no_relevant else list(IN_MEANS)
    return pl.col("status").is_in(statuses)


def means(
    scores: pl.DataFrame,
    keys: Sequence[str],
    *,
    keep_no_relevant: bool = False,
    by: str | None = None,
) -> pl.DataFrame:
    """Mean of each measure over the questions that count, overall or per group.

    The ``n`` column says over how many questions each mean was taken.
    """
    return mean_plan(scores, keys, keep_no_relevant=keep_no_relevant, by=by).collect()


def mean_plan(
    scores: pl.DataFrame,
    keys: Sequence[str],
    *,
    keep_no_relevant: bool = False,
    by: str | None = None,
) -> pl.LazyFrame:
    """:func:`means` as a plan, to collect with others (``pl.collect_all``). With no
    question counted, the overall row has ``n`` 0 and every mean null."""
    counted = scores.lazy().filter(in_means(keep_no_relevant))
    aggregations = [pl.len().cast(pl.Int64).alias("n"), *[pl.col(key).mean() for key in keys]]
    if by is None:
        return counted.select(aggregations)
    return counted.group_by(by).agg(aggregations).sort(by)


def to_long(scores: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """(qid, measure, value) rows, as ir_measures and trec_eval -q print them."""
    return scores.unpivot(index=["qid"], on=list(keys), variable_name="measure", value_name="value")
