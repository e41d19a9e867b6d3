"""Which questions are not independent: ``--cluster-by FIELD`` groups them.

Several questions written from one document fail and succeed together, so counting
them as independent makes intervals too narrow and gates fail on noise. A cluster is
a value of a gold field (``group``, ``source``), or ``document``: the document of the
question's gold evidence (its evidence spans, else the part of its gold chunk ids
before ``#`` in ``doc#chunk`` ids, else its gold chunks' document in a chunk map); a
question with gold in several documents goes with the first of them by name. A
question without a value stands alone. When every cluster holds one question the
comparisons are exactly the unclustered ones, so :func:`question_clusters` returns
None and the report is byte-identical to one without ``--cluster-by``.
"""

from __future__ import annotations

import polars as pl

from reportgen.core.model import UNLABELLED_KIND
from reportgen.errors import ParameterError
from reportgen.measure.scoring import Evaluation

DOCUMENT = "document"
QUESTION_FIELDS = ("question", "kind", "index_version")
"""Gold fields kept in the questions' own columns rather than among the other fields
(``kind`` ``unlabelled`` is the absence of one)."""


def _documents(evaluation: Evaluation) -> pl.DataFrame:
    """(qid, cluster): each question's first document by name, from its evidence, its
    ``doc#chunk`` gold ids, or a chunk map."""
    gold = evaluation.gold
    evidence = gold.evidence.select("qid", pl.col("doc").alias("cluster"))
    relevant = gold.judgments.filter(pl.col("grade") > 0)
    prefixed = relevant.filter(pl.col("chunk_id").str.contains("#", literal=True)).select(
        "qid", pl.col("chunk_id").str.split("#").list.first().alias("cluster")
    )
    maps = [r.chunked.chunk_map.chunks for r in evaluation.runs if r.chunked is not None]
    mapped = [
        relevant.join(
            chunks.select("chunk_id", pl.col("doc").alias("cluster")), on="chunk_id"
        ).select("qid", "cluster")
        for chunks in maps[:1]
    ]
    found = evidence
    for source in [prefixed, *mapped]:
        found = pl.concat([found, source.join(found, on="qid", how="anti")])
    return found.group_by("qid").agg(pl.col("cluster").min()).drop_nulls()


def question_clusters(evaluation: Evaluation, field: str | None) -> dict[str, str] | None:
    """Question id -> its cluster under ``field``; None without ``field`` or when every
    question stands alone (the unclustered statistics are then exact)."""
    if field is None:
        return None
    gold = evaluation.gold
    if field == DOCUMENT:
        found = _documents(evaluation)
        fix = (
            "give the gold set evidence spans, doc#chunk ids or a chunk map (--chunks), "
            "or cluster by a gold field"
        )
    elif field in QUESTION_FIELDS:  # read into their own columns, fields all the same
        value = pl.col(field)
        found = gold.questions.filter(
            value.is_not_null() & (value != UNLABELLED_KIND if field == "kind" else pl.lit(True))
        ).select("qid", value.alias("cluster"))
        fields = [*QUESTION_FIELDS]
        fix = f"give the gold records a {field!r}, or cluster by another field"
    else:
        found = gold.attributes.filter(pl.col("key") == field).select(
            "qid", pl.col("value").alias("cluster")
        )
        fields = sorted({*gold.attributes.get_column("key").to_list(), *QUESTION_FIELDS})
        fix = (
            f"add a {field!r} field to the gold records, or use one of: "
            f"{', '.join([*fields, DOCUMENT])}"
        )
    if found.is_empty():
        raise ParameterError(
            "cluster_by",
            field,
            "no question of the gold set has a value for it",
            fix,
            option="--cluster-by",
        )
    # a question of a list field goes with its first value by name, as with documents
    found = found.group_by("qid").agg(pl.col("cluster").min())
    sizes = found.group_by("cluster").len()
    if sizes.get_column("len").max() == 1:
        return None
    alone = gold.questions.height - found.height  # questions without a value stand alone
    if sizes.height + alone < 2:
        raise ParameterError(
            "cluster_by",
            field,
            f"one cluster holds every question ({found.height}): whole clusters are "
            "resampled, and one cluster leaves nothing to resample",
            "cluster by a field with two or more values, or leave --cluster-by out",
            option="--cluster-by",
        )
    # a cluster's label is prefixed so that it never equals a lone question's own id
    return dict(found.select("qid", pl.lit("\x1f") + pl.col("cluster")).iter_rows())
