"""Runs from TREC, JSON Lines, CSV, Parquet or ranx JSON, put in the order the model saw.

Every reader yields long rows (qid, chunk_id, score, rank?, line); ``rank_rows``
(load/ranking.py) then validates scores, orders each list, numbers positions and drops
repeated chunks, so ranking rules live in one place whatever the format.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.filesystem import reading
from reportgen.core.model import Run
from reportgen.errors import InputError, printable
from reportgen.load.formats.costs import COST_FIELDS, costs_frame, record_costs, table_costs
from reportgen.load.formats.csv_input import column, csv_frame, optional_column
from reportgen.load.formats.fields import split_fields
from reportgen.load.formats.files import check_file, first_line, polars_source, read_text
from reportgen.load.formats.ids import json_id
from reportgen.load.formats.json_input import as_number, json_document, json_type, pick
from reportgen.load.formats.meta import question_records
from reportgen.load.formats.vocabulary import CHUNK_COLUMNS, CHUNK_KEYS, ID_KEYS, detect_format
from reportgen.load.inputs.ranking import ROW_SCHEMA, Order, RunRows, rank_rows

QidRange = tuple[str | None, str | None]
"""Question ids from the first (inclusive) to the second (exclusive); None: no bound."""


def in_range(qid: pl.Expr, block: QidRange) -> pl.Expr:
    low, high = block
    keep = pl.lit(True)
    if low is not None:
        keep = keep & (qid >= low)
    if high is not None:
        keep = keep & (qid < high)
    return keep


def load_run(
    path: str | Path,
    name: str | None = None,
    fmt: str | None = None,
    *,
    block: QidRange | None = None,
) -> Run:
    """Read one run; ``name`` defaults to the file name without its extension.

    ``block`` reads only those questions' rows of a Parquet run (a lazy scan: of a run
    sorted by question, only the row groups the block lies in), for runs larger than
    memory.
    """
    path = Path(path)
    fmt = detect_format(path, fmt, "run")
    if block is not None and fmt != "parquet":
        raise InputError(
            path,
            f"a {fmt} run cannot be read one block of questions at a time",
            "write the run as Parquet (id, chunk_id, rank, score), or measure it whole",
        )
    if fmt not in _READERS:
        raise InputError(
            path,
            f"a {fmt} file holds more than a ranked list: it is read with its gold set",
            "give it to reportgen report: a trace file as the gold set (it holds one) or "
            "as a run after it, a span export as a run after the gold set",
        )
    rows = _parquet(path, block) if block is not None else _READERS[fmt](path)
    results, repeated = rank_rows(path, rows)
    return Run(
        name=printable(name or path.stem),
        results=results,
        source=printable(path),
        order=rows.order,
        repeated_chunks=repeated,
        in_blocks=True,
        index_version=rows.index_version,
        costs=rows.costs,
    )


def _no_records(path: Path) -> InputError:
    return InputError(path, "no results in the file", "check that this is the right file", 1)


def _trec(path: Path) -> RunRows:
    """``qid Q0 docid rank score tag``: the rank column is ignored, as trec_eval does."""
    picks = {0: "qid", 2: "chunk_id", 4: "raw"}
    frame = split_fields(path, picks, 6, False, "qid Q0 docid rank score tag", {4: pl.Float64()})
    if frame.height == 0:
        raise _no_records(path)
    frame = frame.with_columns(pl.col("raw").cast(pl.Float64, strict=False).alias("score"))
    _refuse_unparsed(path, frame, "raw", "score", "a number")
    return RunRows(frame.select(list(ROW_SCHEMA)), "score", tidy=False)


def _refuse_unparsed(path: Path, frame: pl.DataFrame, raw: str, col: str, kind: str) -> None:
    """A value that is there but did not cast is an error, named by its line."""
    if (line := first_line(frame, pl.col(col).is_null() & pl.col(raw).is_not_null())) is None:
        return
    value = frame.filter(pl.col("line") == line)[raw].item()
    raise InputError(path, f"{col} {value!r} is not {kind}", f"write every {col} as {kind}", line)


_NUMBER = {int, float, type(None)}


def _jsonl(path: Path) -> RunRows:
    """One question per line: ``chunks`` (+ ``scores``) or ``results``; list order ranks."""
    found: dict[str, str | None] = {}
    rows = listed_rows(path, lambda: question_records(path, found))
    rows.index_version = found.get("index_version")
    return rows


Records = Callable[[], Iterable[tuple[int, str, dict[str, Any]]]]
"""(line, question id, record) of each question, read again when a closer look is needed."""


def listed_rows(path: Path, records: Records, check: bool = False) -> RunRows:
    """Long rows of JSON-like records, one per question, from a file or from memory.

    Item types are first checked in bulk (a set of types, at C speed); only when that
    finds a stray type are the records read again, ``check``-ed item by item.
    """
    qids: list[str] = []
    chunks: list[Any] = []
    scores: list[Any] = []
    lines: list[int] = []
    questions: list[str] = []
    costs: list[tuple[float | None, ...]] = []
    count = 0
    for line, qid, record in records():
        count += 1
        questions.append(qid)
        costs.append(record_costs(record, path, line))
        ids, values = _listed(record, path, line, check)
        qids.extend([qid] * len(ids))
        chunks.extend(ids)
        scores.extend(values)
        lines.extend([line] * len(ids))
    if not count:
        raise _no_records(path)
    if not check and not (set(map(type, chunks)) <= {str} and set(map(type, scores)) <= _NUMBER):
        return listed_rows(path, records, check=True)
    try:
        frame = pl.DataFrame(
            {"qid": qids, "chunk_id": chunks, "score": scores, "line": lines}, schema=ROW_SCHEMA
        )
    except (OverflowError, TypeError):  # a number beyond float range: find it
        if check:
            raise
        return listed_rows(path, records, check=True)
    return RunRows(frame, "list", costs=costs_frame(questions, costs))


def _listed(
    record: dict[str, Any], path: Path, line: int, check: bool
) -> tuple[list[Any], list[Any]]:
    """Chunk ids and scores (None where absent) of one JSONL record; items checked if asked."""
    if "chunks" in record and "results" in record:
        raise InputError(path, "both chunks and results", "keep one of them", line)
    if "results" in record:
        results = record["results"]
        if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
            raise InputError(
                path,
                "results is not a list of objects",
                'write "results": [{"chunk_id": "c1", "score": 0.9}]',
                line,
            )
        raw = [pick(r, CHUNK_KEYS, path, line) for r in results]
        return _ids(raw, path, line, check), _scores(
            [r.get("score") for r in results], path, line, check
        )
    ids = record.get("chunks")
    if not isinstance(ids, list):
        raise InputError(
            path,
            "no chunks list" if ids is None else f"chunks is a JSON {json_type(ids)}, not an array",
            'write "chunks": ["c1", "c2"] or "results": [{"chunk_id": "c1"}]',
            line,
        )
    given = record.get("scores")
    if given is None:
        return _ids(ids, path, line, check), [None] * len(ids)
    if not isinstance(given, list) or len(given) != len(ids):
        raise InputError(
            path, "scores is not a list as long as chunks", "give one score per chunk", line
        )
    return _ids(ids, path, line, check), _scores(given, path, line, check)


def _ids(values: list[Any], path: Path, line: int, check: bool) -> list[Any]:
    if not check:
        return values
    return [json_id(v, path, line, "chunk id") for v in values]


def _scores(values: list[Any], path: Path, line: int, check: bool) -> list[Any]:
    if not check:
        return values
    numbers = [None if value is None else as_number(value) for value in values]
    for value, number in zip(values, numbers, strict=True):
        if value is not None and number is None:
            raise InputError(
                path, f"score {value!r} is not a finite number", "write scores as numbers", line
            )
    return numbers


def _csv(path: Path) -> RunRows:
    """Long rows ``id, chunk_id, rank, score``; rank and score are optional."""
    header, rows = csv_frame(path)
    if rows.height == 0:
        raise _no_records(path)
    picks = {
        "qid": column(path, header, ID_KEYS),
        "chunk_id": column(path, header, CHUNK_COLUMNS),
        "rank": optional_column(header, ("rank",)),
        "score": optional_column(header, ("score",)),
        **{key: optional_column(header, (key,)) for key in COST_FIELDS},
    }
    frame = rows.select(
        "line",
        *[
            pl.col(f"c{i}").str.strip_chars().replace("", None).alias(name)
            for name, i in picks.items()
            if i is not None
        ],
    )
    return _typed(path, frame)


def _typed(path: Path, frame: pl.DataFrame) -> RunRows:
    """Cast rank and score, and decide the order from the columns that have values;
    the latency and cost columns, when there are any, are read per question."""
    costs = table_costs(path, frame)
    for col, dtype, kind in (
        ("rank", pl.Int64, "a whole number"),
        ("score", pl.Float64, "a number"),
    ):
        if col not in frame.columns or frame[col].null_count() == frame.height:
            frame = frame.drop(col, strict=False).with_columns(pl.lit(None, dtype).alias(col))
            continue
        if frame[col].dtype == pl.String:
            frame = frame.with_columns(pl.col(col).alias("raw"))
            frame = frame.with_columns(pl.col(col).cast(dtype, strict=False))
            _refuse_unparsed(path, frame, "raw", col, kind)
        if col == "rank" and (line := first_line(frame, pl.col("rank").is_null())) is not None:
            raise InputError(path, "no rank here while other rows have one", "rank every row", line)
    has_rank = frame["rank"].null_count() == 0
    order: Order = "rank" if has_rank else "score" if frame["score"].null_count() == 0 else "list"
    typed = (
        frame.select(*ROW_SCHEMA, "rank")
        .cast(ROW_SCHEMA)
        .with_columns(pl.col("rank").cast(pl.Int64))
    )
    return RunRows(typed, order, costs=costs)


def _parquet(path: Path, block: QidRange | None = None) -> RunRows:
    """Long rows as in CSV; numeric ids become strings, row numbers stand for lines."""
    check_file(path)
    try:
        with reading(path):
            scan = pl.scan_parquet(
                polars_source(path), glob=False, row_index_name="_row", row_index_offset=1
            )
            columns = [c for c in scan.collect_schema().names() if c != "_row"]
            if block is not None:
                qid = columns[column(path, [c.lower() for c in columns], ID_KEYS)]
                scan = scan.filter(in_range(pl.col(qid).cast(pl.String), block))
            table = scan.collect()
    except pl.exceptions.PolarsError as err:
        raise InputError(
            path,
            f"not a readable Parquet file ({str(err).splitlines()[0]})",
            "write it again with a Parquet writer, or force another format with --run-format",
        ) from None
    if table.height == 0 and block is None:
        raise _no_records(path)
    return table_rows(path, table.drop("_row"), table["_row"])


def table_rows(path: Path, table: pl.DataFrame, rows: pl.Series | None = None) -> RunRows:
    """Long rows of a table (a Parquet file's, a DataFrame's): columns found by name and
    type-checked; ``rows`` numbers them (row numbers stand for lines), from 2 by default
    (a table's columns stand for line 1, as a CSV header does)."""
    if rows is None:
        rows = pl.int_range(2, table.height + 2, dtype=pl.Int64, eager=True)
    header = [c.lower() for c in table.columns]
    names = {
        "qid": column(path, header, ID_KEYS),
        "chunk_id": column(path, header, CHUNK_COLUMNS),
        "rank": optional_column(header, ("rank",)),
        "score": optional_column(header, ("score",)),
        **{key: optional_column(header, (key,)) for key in COST_FIELDS},
    }
    picked = {new: table.columns[i] for new, i in names.items() if i is not None}
    frame = table.select(**{new: pl.col(old) for new, old in picked.items()})
    for col, ok in (
        ("qid", _is_id), ("chunk_id", _is_id), ("rank", _is_integer), ("score", _is_numeric),
        ("latency_ms", _is_numeric), ("cost", _is_numeric),
    ):  # fmt: skip
        if col in frame.columns and not ok(frame[col].dtype):
            raise InputError(
                path,
                f"column {picked[col]!r} has type {frame[col].dtype}",
                f"store {col} as {'a string' if ok is _is_id else 'a number'}",
            )
    frame = frame.with_columns(
        pl.col("qid", "chunk_id").cast(pl.String), rows.cast(pl.Int64).alias("line")
    )
    return _typed(path, frame)


def _is_id(dtype: pl.DataType) -> bool:
    return dtype == pl.String or dtype.is_integer()


def _is_integer(dtype: pl.DataType) -> bool:
    return dtype.is_integer()


def _is_numeric(dtype: pl.DataType) -> bool:
    return dtype.is_numeric()


def _ranx(path: Path) -> RunRows:
    """``{"q1": {"c2": 0.91}}`` as ranx and pytrec_eval write it; scores decide the order."""
    run = json_document(path, "write one JSON object")
    return scored_rows(path, run, lambda qid, chunk: _line_of(read_text(path), qid, chunk))


def scored_rows(path: Path, run: Any, where: Callable[[str, str], int] | None = None) -> RunRows:
    """Long rows of ``{qid: {chunk_id: score}}``, read from a file or given in memory.

    ``where`` finds the line of a bad (question, chunk) pair in a file, only on the way
    to an error; without it, each pair's number in reading order stands for its line.
    """
    if not isinstance(run, dict) or not all(isinstance(v, dict) for v in run.values()):
        raise InputError(
            path,
            "not an object of objects",
            'write {"q1": {"c2": 0.91, "c7": 0.4}}, or force --run-format jsonl',
            1,
        )
    if not run:
        raise _no_records(path)
    qids: list[str] = []
    chunks: list[str] = []
    scores: list[float] = []
    for qid, listed in run.items():
        for chunk, score in listed.items():
            if not qid.strip() or not chunk.strip():
                line = where(qid, chunk) if where else len(scores) + 1
                raise InputError(path, "an empty id", "give every question and chunk an id", line)
            if (number := as_number(score)) is None:
                raise InputError(
                    path,
                    f"score {score!r} is not a finite number",
                    "write numbers",
                    where(qid, chunk) if where else len(scores) + 1,
                )
            scores.append(number)
        qids.extend([qid] * len(listed))
        chunks.extend(listed)
    lines = [1] * len(qids) if where else range(1, len(qids) + 1)
    frame = pl.DataFrame(
        {"qid": qids, "chunk_id": chunks, "score": scores, "line": lines}, schema=ROW_SCHEMA
    )
    return RunRows(frame, "score")


_READERS = {"trec": _trec, "jsonl": _jsonl, "csv": _csv, "parquet": _parquet, "json": _ranx}


def _line_of(text: str, *keys: str) -> int:
    """Best-effort line of nested keys in a JSON text, for an error message."""
    position = 0
    for key in keys:
        found = text.find(json.dumps(key), position)
        if found < 0:
            break
        position = found
    return text.count("\n", 0, position) + 1
