"""What a shard's merge/shard.json and Parquet files must hold, checked before a merge
reads a value: a key missing or of another type, a column dropped, retyped or holding
NaN is an input error naming the file and the key or column, not a crash mid-merge.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.records import dataclass
from reportgen.errors import InputError
from reportgen.measure.judged import judged_keys
from reportgen.measure.measures import measure_keys
from reportgen.measure.scoring import COST_COLUMNS
from reportgen.measure.spans import span_keys
from reportgen.measure.ties import RANK_SENSITIVE

MERGE_DATA_FIX = "measure the shard again with `reportgen report --merge-data` (this reportgen)"
MAX_SHARDS = 10_000
"""The most shards `reportgen shard` cuts, and so the most a cut.json may say."""
MAX_COUNT = 2**53
"""Every whole number these files hold is a count, a number or a k: 0 to this."""


@dataclass(frozen=True)
class Maybe:
    """The value, or null."""

    spec: Any


@dataclass(frozen=True)
class Each:
    """A JSON object of any keys (each one ``key`` accepts), every value ``spec``."""

    spec: Any
    key: Callable[[str], bool] = lambda key: True
    what: str = "a key"


@dataclass(frozen=True)
class Text:
    """A string ``test`` accepts (an ISO date, a known name)."""

    test: Callable[[str], bool]
    what: str


def _tie_key(key: str) -> bool:
    """``mrr@5``: what ties_within_top_k keys its questions by."""
    name, _, k = key.partition("@")
    return name in RANK_SENSITIVE and k.isdigit()


ISO_DATE = Text(lambda text: re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) is not None, "a date")
RUN = {
    "source": str,
    "order": str,
    "index_version": Maybe(str),
    "repeated_chunks": int,
    "repeated_across_hops": int,
    "rows": int,
    "unscored_rows": int,
    "sent_unretrieved": [str],
    "traced": bool,
    "extra_questions": [str],
    "ties": Each([str], str.isdigit, "a cutoff k"),
    "chunk_map": Maybe(str),
    "chunk_map_digest": Maybe(str),
    "unmapped_chunks": [str],
    "ties_within": Each([str], _tie_key, "a measure@k"),
    "longest_list": int,
    "traces": Maybe(int),
    "tied_hops": [str],
    "unmatched_traces": [{"trace_id": str, "reason": str, "line": Maybe(int)}],
    "replicates": [str],
}
CUT_JSON = {"shard": int, "shards": int, "gold_fingerprint": str, "questions": int}
"""cut.json in a shard folder, and shard.json's ``cut``: the shard's place in its cut."""
SHARD_JSON = {
    "merge_data_format": int,
    "settings": {
        "k": [int],
        "context_k": int,
        "relevance_threshold": int,
        "trec_eval": bool,
        "retrieved_when": str,
        "min_coverage": float,
        "context_k_assumed": bool,
    },
    "gold": {
        "source": str,
        "version": Maybe(str),
        "index_version": Maybe(str),
        "misspelt_keys": [{"key": str, "closest": Maybe(str), "line": Maybe(int), "count": int}],
        "nested_fields": [str],
    },
    "runs": Each(RUN, what="a run name"),
    "verdicts": Maybe(
        {
            "source": str,
            "format": str,
            "join_on": str,
            "metric": Maybe(str),
            "threshold": Maybe(float),
            "judged": str,
            "trials": [{"source": str, "format": str}],
        }
    ),
    "manifest": Maybe({"source": str, "index_version": Maybe(str)}),
    "checks": {"audience": Maybe(str), "as_of": Maybe(ISO_DATE)},
    "cut": Maybe(CUT_JSON),
    "spans_digest": Maybe(str),
    "judgments": Maybe(str),
}
"""shard.json as report/merge_data.py writes it (extra keys are ignored)."""

NAMES = {
    str: "a string",
    int: "a whole number from 0 to 2**53",
    float: "a number",
    bool: "true or false",
}


def check_cut(path: Path, cut: dict[str, Any], fix: str) -> None:
    """A cut (``CUT_JSON``, its types checked) that `reportgen shard` could have made:
    1 to MAX_SHARDS shards, this one among them."""
    if not 1 <= cut["shards"] <= MAX_SHARDS:
        raise InputError(
            path, f"a cut into {cut['shards']} shards (reportgen cuts 1 to {MAX_SHARDS:,})", fix
        )
    if not 0 <= cut["shard"] < cut["shards"]:
        raise InputError(path, f"shard {cut['shard']} of {cut['shards']} is no shard", fix)


def _kind(value: Any) -> str:
    """How a JSON value reads in a message: its type, and the value when short."""
    if value is None:
        return "null"
    kind = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number"
    )
    shown = repr(value)
    return kind if len(shown) > 30 or isinstance(value, dict | list) else f"{kind} ({shown})"


def _fits(value: Any, spec: type) -> bool:
    if spec is float:
        return type(value) in (int, float) and math.isfinite(value)
    if spec is int:
        return type(value) is int and 0 <= value <= MAX_COUNT
    return isinstance(value, spec)


def check_json(path: Path, value: Any, spec: Any, where: str = "") -> None:
    """Refuse the first key of ``value`` that ``spec`` does not allow, by its path."""

    def wrong(expected: str) -> InputError:
        named = f"key {where}" if where else "the file"
        return InputError(path, f"{named} is {_kind(value)}, not {expected}", MERGE_DATA_FIX)

    def inside(key: str | int) -> str:
        return f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}".lstrip(".")

    if isinstance(spec, Maybe):
        if value is not None:
            check_json(path, value, spec.spec, where)
    elif isinstance(spec, dict):
        if not isinstance(value, dict):
            raise wrong("an object")
        for key, inner in spec.items():
            if key not in value:
                raise InputError(path, f"key {inside(key)} is missing", MERGE_DATA_FIX)
            check_json(path, value[key], inner, inside(key))
    elif isinstance(spec, Each):
        if not isinstance(value, dict):
            raise wrong("an object")
        for key, inner in value.items():
            if not spec.key(key):
                raise InputError(path, f"key {inside(key)}: not {spec.what}", MERGE_DATA_FIX)
            check_json(path, inner, spec.spec, inside(key))
    elif isinstance(spec, list):
        if not isinstance(value, list):
            raise wrong("a list")
        for index, item in enumerate(value):
            check_json(path, item, spec[0], inside(index))
    elif isinstance(spec, Text):
        if not isinstance(value, str) or not spec.test(value):
            raise wrong(spec.what)
    elif not _fits(value, spec):
        raise wrong(NAMES[spec])


SCORE_COLUMNS = pl.Schema(
    [
        ("run", pl.String),
        ("qid", pl.String),
        ("kind", pl.String),
        ("status", pl.String),
        ("n_relevant", pl.Int64),
        ("n_retrieved", pl.Int64),
        ("n_relevant_retrieved", pl.Int64),
        ("first_relevant_rank", pl.Int64),
    ]
)


def scores_schema(meta: dict[str, Any]) -> pl.Schema:
    """The columns of scores.parquet the shard's settings give: one per measure, the span
    measures when a run was measured through a chunk map."""
    ks = meta["settings"]["k"]
    spans = any(run["chunk_map"] is not None for run in meta["runs"].values())
    keys = measure_keys(ks) + judged_keys(ks) + (span_keys(ks) if spans else [])
    measures = [(key, pl.Int64 if key.startswith("context_chars@") else pl.Float64) for key in keys]
    given = meta["settings"].get("costs")  # absent from shards measured before latency
    costs = [
        (name, pl.Float64) for name in COST_COLUMNS if isinstance(given, list) and name in given
    ]
    return pl.Schema([*SCORE_COLUMNS.items(), *measures, *costs])


def check_frame(path: Path, frame: pl.DataFrame, expected: pl.Schema) -> pl.DataFrame:
    """The frame with the expected columns, in their order; refused when one is missing,
    of another type or holds NaN (no merge/ value may)."""
    for name, dtype in expected.items():
        if name not in frame.schema:
            raise InputError(path, f"column {name!r} is missing", MERGE_DATA_FIX)
        if frame.schema[name] != dtype:
            raise InputError(
                path, f"column {name!r} is {frame.schema[name]}, not {dtype}", MERGE_DATA_FIX
            )
    extra = [name for name in frame.columns if name not in expected]
    if extra:
        raise InputError(path, f"column {extra[0]!r} is not one merge/ writes", MERGE_DATA_FIX)
    floats = [name for name, dtype in expected.items() if dtype.is_float()]
    if floats:
        nan = frame.select(pl.col(floats).is_nan().any()).row(0)
        if any(nan):
            name = floats[nan.index(True)]
            raise InputError(path, f"column {name!r} holds NaN", MERGE_DATA_FIX)
    return frame.select(expected.names())
