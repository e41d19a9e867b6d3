"""Gold sets, runs and verdicts handed over in memory: dicts, Polars or pandas DataFrames.

Each form becomes what a file reader makes (JSON records, CSV rows, table rows, scored
lists) and goes through the same checks, so a notebook's input is held to the same
rules as a file. An error names the parameter and the record in the caller's own
syntax (``gold['q7']``, ``runs['bm25'].row(3)``) where a file's would name a line.

What Polars cannot hold is refused by name too, never left to surface as a raw
exception: a lone surrogate (``"q\\ud800"``, not text) anywhere in a record, and a
pandas object column mixing types (text and numbers) that pyarrow cannot convert.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.filesystem import is_text
from reportgen.core.model import GoldSet, Run, VerdictSet
from reportgen.errors import InputError, UsageError, printable
from reportgen.load.formats.csv_input import optional_column
from reportgen.load.formats.ids import odd_id
from reportgen.load.formats.meta import identified
from reportgen.load.formats.vocabulary import CHUNK_COLUMNS, ID_KEYS
from reportgen.load.inputs.gold import gold_set, load_gold, parsed_records, parsed_rows
from reportgen.load.inputs.qrels import judged_frames
from reportgen.load.inputs.ranking import rank_rows
from reportgen.load.inputs.remembered import GOLD_FRAMES, RUN_FRAMES
from reportgen.load.inputs.runs import listed_rows, load_run, scored_rows, table_rows
from reportgen.load.inputs.trials import verdict_trials
from reportgen.load.inputs.verdicts import load_verdicts, verdict_records

Where = Callable[[int | None], str]
"""The record an error's line number stands for, as the caller would write it."""
HEADER_LINE = 1
"""Tables are numbered as their CSV would be: the columns on line 1, row 0 on line 2."""
_LINE = re.compile(r"\b(?:on )?line (\d+)")


def is_path(value: object) -> bool:
    return isinstance(value, str | os.PathLike)


def is_pandas(value: object) -> bool:
    """A pandas DataFrame, found without importing pandas for callers who do not use it."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, pandas.DataFrame)


def is_frame(value: object) -> bool:
    return isinstance(value, pl.DataFrame) or is_pandas(value)


SURROGATE_FIX = "pass text only: decode bytes as UTF-8, or write a surrogate pair"


def _lone_surrogate(value: Any) -> bool:
    """Whether a lone surrogate is anywhere in ``value`` (its keys, items and texts)."""
    if isinstance(value, str):
        return not is_text(value)
    if isinstance(value, Mapping):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return any(_lone_surrogate(item) for item in value)
    return False


@contextmanager
def text_only(label: str, value: Any) -> Iterator[None]:
    """A lone surrogate in ``value`` (a mapping), which Polars cannot encode, raised as
    an InputError naming its record: looked for only when Polars has failed on one."""
    try:
        yield
    except UnicodeEncodeError:
        if not isinstance(value, Mapping):
            raise
        keys = list(value)
        where = _keyed(label, keys)
        line = next(
            (n for n, (k, v) in enumerate(value.items(), 1) if _lone_surrogate((k, v))), None
        )
        if line is None:
            raise
        raise InputError(where(line), "holds a lone surrogate (not text)", SURROGATE_FIX) from None


@contextmanager
def located(where: Where) -> Iterator[None]:
    """Errors raised inside name the record instead of a line (``line 3`` included)."""
    try:
        yield
    except InputError as err:
        problem = _LINE.sub(lambda found: f"at {where(int(found[1]))}", err.problem)
        raise InputError(where(err.line), problem, err.fix) from None


def _keyed(label: str, keys: Sequence[Any]) -> Where:
    """Records of a mapping: line n is its n-th key."""

    def where(line: int | None) -> str:
        if line is None or not 1 <= line <= len(keys):
            return label
        return f"{label}[{keys[line - 1]!r}]"

    return where


def _rows_of(label: str, pandas: bool) -> Where:
    """Rows of a DataFrame, as the caller would pick one out."""

    def where(line: int | None) -> str:
        if line is None:
            return label
        if line == HEADER_LINE:
            return f"{label} (its columns)"
        return f"{label}.iloc[{line - 2}]" if pandas else f"{label}.row({line - 2})"

    return where


def _pairs_of(label: str, run: Mapping[Any, Mapping[Any, Any]]) -> Where:
    """Items of ``{qid: {chunk_id: score}}``: line n is the n-th pair, in reading order."""

    def where(line: int | None) -> str:
        if line is not None:
            seen = 0
            for qid, ranked in run.items():
                if line <= seen + len(ranked):
                    chunk = list(ranked)[line - seen - 1]
                    return f"{label}[{qid!r}][{chunk!r}]"
                seen += len(ranked)
        return label

    return where


PYARROW_ERRORS = (ValueError, TypeError, NotImplementedError, OverflowError)
"""What pyarrow raises on a pandas column it cannot convert (its errors subclass these)."""


def polars_frame(value: Any, label: str, *, nan_is_missing: bool = True) -> pl.DataFrame:
    """A Polars DataFrame, from pandas when need be (pandas and pyarrow: reportgen[pandas]).

    pandas writes a missing value as NaN: read as null (an empty CSV cell) unless
    ``nan_is_missing`` is False, for scores, where NaN is a failed score to refuse."""
    if isinstance(value, pl.DataFrame):
        return value
    try:
        return pl.from_pandas(value, nan_to_null=nan_is_missing)
    except ImportError as err:
        raise UsageError(
            f"{label} is a pandas DataFrame, and reading it needs pyarrow ({err})",
            "pip install 'reportgen[pandas]', or pass a Polars DataFrame",
        ) from None
    except PYARROW_ERRORS as err:
        raise _pandas_problem(value, label, nan_is_missing, err) from None


def _pandas_problem(frame: Any, label: str, nan_is_missing: bool, err: Exception) -> InputError:
    """Why pyarrow could not convert a pandas frame: a column named twice, a lone
    surrogate, or an object column mixing types, at the first row at fault (its line as
    in a CSV file, which ``located`` names as the caller would)."""
    named = [str(name) for name in frame.columns[frame.columns.duplicated()]]
    if named:
        return InputError(
            label, f"column {named[0]!r} is named twice", "name each column once", HEADER_LINE
        )
    for number, name in enumerate(frame.columns):
        column = frame.iloc[:, number]
        try:
            pl.from_pandas(column, nan_to_null=nan_is_missing)
        except PYARROW_ERRORS:
            return _column_problem(column.tolist(), str(name), label)
    return InputError(label, f"pyarrow cannot convert it ({err})", _MIXED_FIX)


_MIXED_FIX = "give each column one type, e.g. frame['qid'] = frame['qid'].astype(str)"


def _column_problem(values: list[Any], name: str, label: str) -> InputError:
    """The first row of an object column that pyarrow refused: text that is not text, or
    a value of another type than the first one's (looked for on failure only)."""
    for row, value in enumerate(values):
        if isinstance(value, str) and not is_text(value):
            problem = f"column {name!r} holds a lone surrogate (not text)"
            return InputError(label, problem, SURROGATE_FIX, row + 2)
    huge = next((row for row, v in enumerate(values) if _beyond_64_bits(v)), None)
    if huge is not None:
        problem = f"column {name!r} holds an integer beyond 64 bits ({values[huge]})"
        return InputError(label, problem, "use numbers in a sane range", huge + 2)
    present = [(row, type(value)) for row, value in enumerate(values) if not _missing(value)]
    odd = next(((row, kind) for row, kind in present if kind is not present[0][1]), None)
    if odd is None:
        problem = f"column {name!r} holds values pyarrow cannot convert"
        return InputError(label, problem, _MIXED_FIX, present[0][0] + 2 if present else None)
    row, kind = odd
    problem = (
        f"column {name!r} mixes {present[0][1].__name__} and {kind.__name__} ({values[row]!r} here)"
    )
    return InputError(label, problem, _MIXED_FIX.replace("qid", name), row + 2)


def _beyond_64_bits(value: Any) -> bool:
    return isinstance(value, int) and not -(2**63) <= value < 2**64


def _missing(value: Any) -> bool:
    """None and NaN: what pandas writes for a missing cell, of no type of its own."""
    return value is None or (isinstance(value, float) and value != value)


def _gold_from_frame(value: Any, parameter: str) -> GoldSet:
    """A gold set from the rows of a Polars or pandas DataFrame."""
    where = _rows_of(parameter, is_pandas(value))
    with located(where):
        frame = polars_frame(value, parameter)
    if frame.height == 0:
        raise _empty(parameter, "questions")
    frame, listed = _list_fields(frame)
    header = [name.strip().lower() for name in frame.columns]
    frame = _whole_grades(frame, optional_column(header, ("grade",)))
    with located(where):
        _refuse_nested(frame, parameter)
        judged = None if listed else _judgment_rows(frame, header)
        if judged is not None:
            table, plain = judged
            frames = judged_frames(Path(parameter), table, ids_checked=plain)
            return gold_set(Path(parameter), *frames)
        texts = frame.select(pl.all().cast(pl.String).fill_null(""))
        rows = ((line, list(row)) for line, row in enumerate(texts.iter_rows(), start=2))
        parsed = parsed_rows(Path(parameter), header, rows)
        parsed.attributes.extend(listed)
        return gold_set(Path(parameter), *parsed.frames(), parsed)


def _empty(label: str, what: str) -> InputError:
    return InputError(label, f"no {what}", f"pass at least one {what[:-1]}")


def gold_from(value: Any, parameter: str = "gold", unanswerable: Sequence[Any] = ()) -> GoldSet:
    """A gold set from a path, ``{qid: {chunk_id: grade}}``, ``{qid: [chunk_ids]}`` or a
    DataFrame of rows as in a gold CSV file (``qid``, ``chunk_id``, ``grade``, ``kind``,
    ``unanswerable``, ...). ``unanswerable`` names a dict's questions whose answer the
    corpus lacks (a file or a table marks them itself)."""
    if unanswerable and not isinstance(value, Mapping):
        raise UsageError(
            "unanswerable= marks questions of a dict gold set; this gold set is a "
            f"{'path' if is_path(value) else type(value).__name__}",
            'mark them in it: "unanswerable": true in JSONL, an unanswerable column in a '
            "table, or pass the gold set as a dict",
        )
    if is_path(value):
        return load_gold(value)
    if isinstance(value, pl.DataFrame):  # one equal to a frame read lately: what it gave
        return GOLD_FRAMES.read(value, parameter, lambda: _gold_from_frame(value, parameter))
    if is_frame(value):
        return _gold_from_frame(value, parameter)
    if isinstance(value, Mapping):
        none = _unanswerable_ids(unanswerable, value, parameter)
        if not value and not none:
            raise _empty(parameter, "questions")
        _check_gold_dict(value, parameter, none)
        keys = [*value, *(qid for qid in none if qid not in value)]
        records = (
            (
                line,
                {"id": qid, "unanswerable": True}
                if qid in none
                else {"id": qid, "gold": _plain(value[qid])},
            )
            for line, qid in enumerate(keys, start=1)
        )
        with text_only(parameter, value), located(_keyed(parameter, keys)):
            parsed = parsed_records(Path(parameter), identified(Path(parameter), records))
            return gold_set(Path(parameter), *parsed.frames(), parsed)
    raise _unreadable(parameter, value, "{qid: {chunk_id: grade}} or {qid: [chunk_ids]}")


UNANSWERABLE_FIX = (
    "list the chunks that answer it; if the corpus holds no answer, mark it unanswerable: "
    "evaluate(gold, runs, unanswerable=[{qid!r}])"
)


def _unanswerable_ids(ids: Sequence[Any], gold: Mapping[Any, Any], parameter: str) -> set[str]:
    """The questions ``unanswerable=`` names: strings, none with gold chunks of its own."""
    if isinstance(ids, str):
        raise UsageError(
            f"unanswerable={ids!r} is one string, not a list of question ids",
            f"pass a list: unanswerable=[{ids!r}]",
        )
    found = set()
    for qid in ids:
        if not isinstance(qid, str):
            raise UsageError(
                f"unanswerable holds {qid!r}, a {type(qid).__name__}, not a question id",
                f"pass question ids as strings: unanswerable=[{str(qid)!r}]",
            )
        if gold.get(qid):
            raise InputError(
                f"{parameter}[{qid!r}]",
                "has gold chunks, and unanswerable= names it too",
                "leave it out of one of them: an unanswerable question has no gold chunk",
            )
        found.add(qid)
    return found


def _check_gold_dict(gold: Mapping[Any, Any], parameter: str, unanswerable: set[str]) -> None:
    """Ids as strings, and the advice a dict needs (not a file's) for a question with no
    chunks: ``{"q5": []}``, ``{"q5": None}`` or ``{"q5": {"unanswerable": True}}``."""
    for qid, chunks in gold.items():
        string_id(qid, parameter, "question id")
        where = f"{parameter}[{qid!r}]"
        if qid in unanswerable:
            continue
        if isinstance(chunks, Mapping) and "unanswerable" in chunks:
            raise InputError(
                where,
                "is a mapping chunk id -> grade, so 'unanswerable' reads as a chunk id",
                UNANSWERABLE_FIX.format(qid=qid),
            )
        if chunks is None or (isinstance(chunks, Mapping | list | tuple) and not chunks):
            raise InputError(where, "has no gold chunks", UNANSWERABLE_FIX.format(qid=qid))
        if isinstance(chunks, Mapping | list | tuple) and set(map(type, chunks)) != {str}:
            for chunk in chunks:
                string_id(chunk, where, "chunk id")


def string_id(value: Any, where: str, what: str) -> None:
    """Refuse an id that is not a string (``1``, ``("c2", 0.9)``), naming where it is:
    ``1`` and ``"1"`` would otherwise be read as one id, silently."""
    if not isinstance(value, str):
        raise InputError(
            where,
            f"{what} {value!r} is of type {type(value).__name__}, not a string",
            f"pass ids as strings (str({value!r}))"
            + (
                ", and a ranked list as [chunk_id, ...] or [(chunk_id, score), ...]"
                if isinstance(value, tuple | list)
                else ""
            ),
        )


def _list_fields(frame: pl.DataFrame) -> tuple[pl.DataFrame, list[tuple[str, str, str]]]:
    """A table's list-of-text columns (``tags``) as slice fields, (qid, field, item) once
    per item, and the table without them: each cell of the others holds one value."""
    ids = [name for name in frame.columns if name.strip().lower() in ID_KEYS]
    lists = [
        name
        for name, dtype in frame.schema.items()
        if isinstance(dtype, pl.List)
        and (dtype.inner in (pl.String, pl.Boolean, pl.Null) or dtype.inner.is_numeric())
        and name not in ids
    ]
    if not ids or not lists or frame.schema[ids[0]].is_nested():
        return frame, []  # an id column of lists is refused with the other nested columns
    found: list[tuple[str, str, str]] = []
    for name in lists:
        items = (
            frame.select(
                pl.col(ids[0]).cast(pl.String).str.strip_chars().alias("qid"),
                pl.col(name).list.eval(pl.element().cast(pl.String)).alias("value"),
            )
            .explode("value")
            .drop_nulls()
            .unique(maintain_order=True)
        )
        found += [(qid, name.strip(), value) for qid, value in items.iter_rows()]
    return frame.drop(lists), found


def _refuse_nested(frame: pl.DataFrame, label: str) -> None:
    """A gold table holds one value per cell, as a CSV file does: lists, structs and
    Python objects would fail deep in a cast to text."""
    for name, dtype in frame.schema.items():
        if dtype.is_nested() or dtype == pl.Object:
            raise InputError(
                label,
                f"column {name!r} has type {dtype}",
                f"store {name} as text, one value per row (a row per question and chunk)",
                HEADER_LINE,
            )


def _judgment_rows(frame: pl.DataFrame, header: list[str]) -> tuple[pl.DataFrame, bool] | None:
    """A table of (question, chunk, grade) only, every cell filled, as qrels rows (qid,
    chunk_id, raw, line) for the frame-wide checks, and whether its ids are known good;
    None sends it through the gold CSV reader, row by row (kinds, unanswerable rows,
    forbidden chunks, empty cells).

    Most tables' ids hold no white space, control character or excess length: one pass
    of aggregates shows it (question ids once per block of rows), and then there is
    nothing to strip, no id is empty, and no id needs :func:`refuse_bad_ids`.
    """
    qid, chunk = optional_column(header, ID_KEYS), optional_column(header, CHUNK_COLUMNS)
    grade = optional_column(header, ("grade",))
    if qid is None or chunk is None or len(header) != 2 + (grade is not None):
        return None
    text = [pl.col(frame.columns[i]).cast(pl.String) for i in (qid, chunk)]
    raw = pl.lit("1") if grade is None else pl.col(frame.columns[grade])
    # grades held as signed integers are what the text would parse to: kept as they are
    whole = grade is not None and frame.schema[frame.columns[grade]] in _SIGNED
    # a row whose question id is the one above passes or fails as that row did
    firsts = frame.select(text[0].filter((text[0] != text[0].shift(1)).fill_null(True)))
    plain = not (
        firsts.select(odd_id(pl.first()).any()).item() or frame.select(odd_id(text[1]).any()).item()
    )
    if not plain:
        text = [column.str.strip_chars() for column in text]
    rows = frame.select(
        qid=text[0],
        chunk_id=text[1],
        raw=raw if whole else raw.cast(pl.String).str.strip_chars(),
        line=pl.int_range(2, pl.len() + 2, dtype=pl.Int64),
    )
    empty = [pl.col("raw").is_null() | (pl.lit(False) if whole else pl.col("raw") == "")]
    if not plain:
        empty += [pl.col(name).is_null() | (pl.col(name) == "") for name in ("qid", "chunk_id")]
    return None if rows.select(pl.any_horizontal(empty).any()).item() else (rows, plain)


_SIGNED = (pl.Int8, pl.Int16, pl.Int32, pl.Int64)


def _whole_grades(frame: pl.DataFrame, grade: int | None) -> pl.DataFrame:
    """A float grade column (pandas makes one of integers with a missing cell) as the
    text a CSV cell would hold: 2.0 as "2", NaN as empty; 2.5 stays "2.5", refused."""
    if grade is None or not frame.schema[frame.columns[grade]].is_float():
        return frame
    name = frame.columns[grade]
    value = pl.col(name).fill_nan(None)
    whole = value.is_finite() & (value == value.floor()) & (value.abs() < 2**53)
    text = pl.when(whole).then(value.cast(pl.Int64, strict=False)).cast(pl.String)
    return frame.with_columns(text.fill_null(value.cast(pl.String)).alias(name))


def _plain(value: Any) -> Any:
    """A mapping or sequence as the dict or list a JSON reader would have made."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    return value


def _unreadable(parameter: str, value: Any, shape: str) -> UsageError:
    return UsageError(
        f"{parameter} is a {type(value).__name__}, which reportgen cannot read",
        f"pass a file path, a Polars or pandas DataFrame, or a dict {shape}",
    )


def is_one_run(value: Any) -> bool:
    """A run itself rather than runs by name: a path, a DataFrame, or ``{qid: ...}`` whose
    values are a question's ranked list (not a whole run)."""
    if is_path(value) or is_frame(value):
        return True
    if not isinstance(value, Mapping):
        return False
    return not all(
        is_path(v) or is_frame(v) or _holds_lists(v) or is_replicates(v) for v in value.values()
    )


def is_replicates(value: Any) -> bool:
    """A list of runs of one system (replicates): paths as ``Path`` objects, DataFrames or
    ``{qid: ...}`` dicts; a list of strings is a question's ranked chunk ids."""
    return (
        isinstance(value, list | tuple)
        and bool(value)
        and all(
            isinstance(item, os.PathLike) or is_frame(item) or isinstance(item, Mapping)
            for item in value
        )
    )


def _holds_lists(value: Any) -> bool:
    """``{qid: {chunk: score}}`` or ``{qid: [chunk]}``: judged by the first question."""
    if not isinstance(value, Mapping) or not value:
        return False
    first = next(iter(value.values()))
    return isinstance(first, Mapping | list | tuple)


def runs_from(value: Any, parameter: str = "runs") -> list[Run]:
    """Runs from one run or a mapping name -> run; each a path, ``{qid: {chunk_id: score}}``,
    ``{qid: [chunk_ids]}`` (list order ranks) or a DataFrame (``qid``, ``chunk_id``,
    ``score`` and/or ``rank``). A list of paths is taken as the CLI takes them."""
    if isinstance(value, list | tuple) and all(is_path(v) for v in value):
        return [load_run(path) for path in value]
    if is_one_run(value):
        return [run_from(value, "run" if not is_path(value) else None, parameter)]
    if not isinstance(value, Mapping):
        raise _unreadable(parameter, value, "{name: run}, {qid: {chunk_id: score}}")
    if not value:
        raise _empty(parameter, "runs")
    runs = []
    for name, run in value.items():
        if not isinstance(name, str):
            raise UsageError(
                f"{parameter} has a run named {name!r}, not a string",
                "name each run with a string, e.g. {'bm25': ..., 'dense': ...}",
            )
        if is_replicates(run):
            label = f"{parameter}[{name!r}]"
            runs += [run_from(one, name, f"{label}[{i}]") for i, one in enumerate(run)]
        else:
            runs.append(run_from(run, name, f"{parameter}[{name!r}]"))
    return runs


def run_from(value: Any, name: str | None, label: str) -> Run:
    """One run; ``name`` None takes the file's name, as the CLI does. A Polars DataFrame
    equal to one read lately gives the same Run again (remembered.py)."""
    if is_path(value):
        return load_run(value, name=name)
    if isinstance(value, pl.DataFrame):
        return RUN_FRAMES.read(value, (name, label), lambda: _run_from(value, name, label))
    return _run_from(value, name, label)


def _run_from(value: Any, name: str | None, label: str) -> Run:
    path = Path(label)
    if is_frame(value):
        where = _rows_of(label, is_pandas(value))
        with located(where):
            rows = table_rows(path, polars_frame(value, label, nan_is_missing=False))
    elif isinstance(value, Mapping) and all(isinstance(v, Mapping) for v in value.values()):
        value = _string_keys(value, label)
        where = _pairs_of(label, value)
        with text_only(label, value), located(where):
            rows = scored_rows(path, dict(value))
    elif isinstance(value, Mapping):
        keys = list(value)
        where = _keyed(label, keys)
        for qid in keys:
            string_id(qid, label, "question id")
        listed = {qid: _ranked(ranked, f"{label}[{qid!r}]") for qid, ranked in value.items()}
        records = lambda: identified(  # noqa: E731 - read twice when an item needs a closer look
            path, ((n, {"id": q, **v}) for n, (q, v) in enumerate(listed.items(), 1))
        )
        with text_only(label, value), located(where):
            rows = listed_rows(path, records)
    else:
        raise _unreadable(label, value, "{qid: {chunk_id: score}} or {qid: [chunk_ids]}")
    with text_only(label, value), located(where):
        results, repeated = rank_rows(path, rows)
    return Run(
        name=printable(name or "run"),
        results=results,
        source=label,
        order=rows.order,
        repeated_chunks=repeated,
        in_blocks=True,
        costs=rows.costs,
    )


def _string_keys(run: Mapping[Any, Mapping[Any, Any]], label: str) -> Mapping[str, Any]:
    """Question and chunk ids must be strings, checked item by item only when some key
    is not a string: one set of types per question costs little."""
    if all(type(q) is str and set(map(type, r)) <= {str} for q, r in run.items()):
        return run
    for qid, ranked in run.items():
        string_id(qid, label, "question id")
        for chunk in ranked:
            string_id(chunk, f"{label}[{qid!r}]", "chunk id")
    return run


def _ranked(ranked: Any, where: str) -> dict[str, Any]:
    """One question's list as a JSON record: ``[chunk_id, ...]`` (list order ranks) or
    ``[(chunk_id, score), ...]`` (list order ranks too; the scores are kept)."""
    if not isinstance(ranked, list | tuple) or not ranked:
        return {"chunks": _plain(ranked)}  # the reader names what is wrong with it
    if set(map(type, ranked)) == {str}:  # the common case, at C speed
        return {"chunks": list(ranked)}
    if all(isinstance(item, tuple | list) and len(item) == 2 for item in ranked):
        for item in ranked:
            string_id(item[0], where, "chunk id")
        return {"chunks": [item[0] for item in ranked], "scores": [item[1] for item in ranked]}
    for number, item in enumerate(ranked):
        string_id(item, f"{where}[{number}]", "chunk id")
    return {"chunks": list(ranked)}


def verdicts_from(value: Any, parameter: str = "verdicts") -> VerdictSet:
    """Verdicts from a path, ``{qid: correct}``, ``{qid: {"correct": ..., "abstained":
    ..., "run": ...}}`` (correct None: unknown, e.g. the judge errored) or a DataFrame
    with those columns; a list of them is the same answers judged again (judge trials)."""
    if isinstance(value, list | tuple):
        if not value:
            raise _unreadable(parameter, value, "a non-empty list of verdicts")
        return verdict_trials(
            [verdicts_from(one, f"{parameter}[{number}]") for number, one in enumerate(value)]
        )
    if is_path(value):
        return load_verdicts(value)
    if is_frame(value):
        frame = polars_frame(value, parameter)
        numbered = enumerate(frame.to_dicts(), start=HEADER_LINE + 1)
        with located(_rows_of(parameter, is_pandas(value))):
            rows = verdict_records(Path(parameter), numbered).frame()
        return VerdictSet(rows=rows, source=parameter, format="memory")
    if not isinstance(value, Mapping):
        raise _unreadable(parameter, value, "{qid: correct}")
    keys = list(value)
    for qid in keys:
        string_id(qid, parameter, "question id")
    records = (
        (line, {"id": qid, **(dict(v) if isinstance(v, Mapping) else {"correct": v})})
        for line, (qid, v) in enumerate(value.items(), start=1)
    )
    with text_only(parameter, value), located(_keyed(parameter, keys)):
        rows = verdict_records(Path(parameter), records).frame()
    return VerdictSet(rows=rows, source=parameter, format="memory")
