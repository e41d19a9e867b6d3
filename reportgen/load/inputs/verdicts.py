"""End-to-end verdicts from JSON Lines, CSV, promptfoo, DeepEval or ragas, as one frame.

Every reader ends in the same rows (question id or text, run, correct, abstained), so
attribution never knows which eval framework judged the answers. A verdict that
could not be reached (an eval that errored) is kept as unknown, not as wrong: a
crashed judge says nothing about the answer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

import polars as pl

from reportgen.core.model import VERDICTS_SCHEMA, VerdictSet
from reportgen.core.records import dataclass
from reportgen.errors import InputError, ParameterError, UsageError, printable
from reportgen.load.formats.csv_input import column, csv_rows, optional_column
from reportgen.load.formats.ids import json_id, text_id
from reportgen.load.formats.json_input import json_document, json_records, pick
from reportgen.load.formats.vocabulary import ID_KEYS, detect_format, parse_flag

QUESTION_COLUMNS = ("user_input", "question")
"""ragas names the question ``user_input`` (0.2+) or ``question`` (before)."""


@dataclass
class _Rows:
    """Verdicts as a reader finds them; ``where`` names a record in errors."""

    path: Path
    lines: bool = True
    """True when positions are file lines; False for records of one JSON document."""
    container: str = ""
    data: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in VERDICTS_SCHEMA}
    )

    def add(
        self,
        position: int,
        qid: str | None,
        question: str | None,
        run: str | None,
        correct: bool | None,
        abstained: bool | None,
    ) -> None:
        row = (qid, question, run, correct, abstained, position)
        for name, value in zip(VERDICTS_SCHEMA, row, strict=True):
            self.data[name].append(value)

    @contextmanager
    def at(self, position: int) -> Iterator[None]:
        """Name a JSON document's record, not a line, in errors raised inside."""
        try:
            yield
        except InputError as err:
            if self.lines or err.problem.startswith(self._record(position)):
                raise
            raise self.error(position, err.problem, err.fix) from None

    def _record(self, position: int) -> str:
        """The JSON path of a document's record: ``results.results[0]``."""
        return f"{self.container}[{position - 1}]"

    def error(self, position: int | None, problem: str, fix: str) -> InputError:
        if self.lines or position is None:
            return InputError(self.path, problem, fix, position)
        return InputError(self.path, f"{self._record(position)}: {problem}", fix)

    def frame(self) -> pl.DataFrame:
        frame = pl.DataFrame(self.data, schema=VERDICTS_SCHEMA)
        if frame.height == 0:
            where = "the file" if self.lines else f"{self.container} (an empty list)"
            raise InputError(
                self.path,
                f"no verdicts in {where}",
                "check that this is the right file, and that the eval wrote its results",
                1 if self.lines else None,
            )
        self._refuse_repeats(frame)
        return frame

    def _refuse_repeats(self, frame: pl.DataFrame) -> None:
        """Two verdicts for one question of one run leave the cell undecided."""
        key = "qid" if frame["qid"].null_count() == 0 else "question"
        clash = (
            frame.filter(pl.struct("run", key).is_duplicated())
            .group_by("run", key)
            .agg(pl.col("line").sort().head(2))
            .with_columns(second=pl.col("line").list.get(1))
            .sort("second")
            .head(1)
        )
        if clash.height == 0:
            return
        first, second = clash["line"].item().to_list()
        run = clash["run"].item()
        where = f"line {first}" if self.lines else self._record(first)
        raise self.error(
            second,
            f"question {clash[key].item()!r}{f' of run {run!r}' if run else ''} "
            f"already has a verdict ({where})",
            "keep one verdict per question and run, or add a run field to tell runs apart",
        )


def load_verdicts(
    path: str | Path,
    fmt: str | None = None,
    *,
    metric: str | None = None,
    threshold: float | None = None,
) -> VerdictSet:
    """Read verdicts; ``metric`` and ``threshold`` turn a DeepEval or ragas score into one."""
    path = Path(path)
    if threshold is not None and not math.isfinite(threshold):
        raise ParameterError(  # named as given: option, config key or API parameter
            "verdict_threshold",
            threshold,
            "not a finite number",
            "give a score such as 0.7 (a score at or above it is a correct answer)",
            option="--verdict-threshold",
        )
    fmt = detect_format(path, fmt, "verdict", metric)
    if fmt in ("jsonl", "csv", "promptfoo") and (metric is not None or threshold is not None):
        raise UsageError(
            f"--verdict-metric and --verdict-threshold do not apply to {fmt} verdicts",
            "drop them, or force --verdict-format deepeval or ragas",
        )
    if fmt == "deepeval" and threshold is not None:
        raise UsageError(
            "--verdict-threshold does not apply to DeepEval: each metric's own success is used",
            "drop --verdict-threshold",
        )
    join_on: Literal["id", "question"] = "id"
    if fmt == "jsonl":
        rows = _jsonl(path)
    elif fmt == "csv":
        rows = _csv(path)
    elif fmt == "promptfoo":
        rows = _promptfoo(path, _document(path))
    elif fmt == "deepeval":
        rows = _deepeval(path, _document(path), metric)
    elif metric is None or threshold is None:
        raise UsageError(
            "a ragas results file needs a metric and a threshold to become verdicts",
            "pass e.g. --verdict-metric faithfulness --verdict-threshold 0.7",
        )
    else:
        rows, join_on = _ragas(path, metric, threshold)
    return VerdictSet(
        rows=rows.frame(),
        source=printable(path),
        format=fmt,
        join_on=join_on,
        metric=metric,
        threshold=threshold,
    )


def _document(path: Path) -> Any:
    return json_document(path, "write one JSON document")


def _optional_text(value: Any, path: Path, line: int | None, what: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InputError(path, f"{what} is not a string", f"quote the {what}", line)
    return str(value).strip() or None


def _jsonl(path: Path) -> _Rows:
    """``{"id": "q1", "correct": true, "run": "rerank", "abstained": false}`` per line."""
    return verdict_records(path, json_records(path))


def verdict_records(path: Path, records: Iterable[tuple[int, dict[str, Any]]]) -> _Rows:
    """Verdict records, checked: a JSON Lines file's, or a dict's given in memory."""
    rows = _Rows(path)
    for line, record in records:
        raw_id = pick(record, ID_KEYS, path, line)
        if raw_id is None:
            raise InputError(path, "a verdict without a question id", 'add "id": "..."', line)
        if "correct" not in record:
            raise InputError(
                path,
                "a verdict without a correct field",
                'add "correct": true or false (null when unknown)',
                line,
            )
        rows.add(
            line,
            json_id(raw_id, path, line, "question id"),
            None,
            _optional_text(record.get("run"), path, line, "run"),
            parse_flag(record["correct"], path, line, "correct"),
            parse_flag(record.get("abstained"), path, line, "abstained"),
        )
    return rows


def _csv(path: Path) -> _Rows:
    """Columns ``id, correct`` and optionally ``run, abstained``; an empty correct is unknown."""
    header, records = csv_rows(path)
    if "correct" not in header:
        raise InputError(
            path,
            f"no 'correct' column in the header ({', '.join(header)})",
            "add a correct column (true/false); for a ragas results file pass "
            "--verdict-metric and --verdict-threshold",
            1,
        )
    ccorrect = header.index("correct")
    cid = column(path, header, ID_KEYS)
    crun = optional_column(header, ("run",))
    cabstained = optional_column(header, ("abstained",))
    rows = _Rows(path)
    for line, values in records:
        rows.add(
            line,
            text_id(values[cid], path, line, "question id"),
            None,
            None if crun is None else values[crun].strip() or None,
            parse_flag(values[ccorrect], path, line, "correct"),
            None if cabstained is None else parse_flag(values[cabstained], path, line, "abstained"),
        )
    return rows


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _promptfoo(path: Path, document: Any) -> _Rows:
    """``promptfoo eval -o results.json``: one verdict per row of ``results.results``.

    The id comes from a var, then the test's metadata, then its description; a row
    that failed with an error (failureReason 2) is unknown, not wrong.
    """
    results = _object(document).get("results")
    listed = results.get("results") if isinstance(results, dict) else results
    if not isinstance(listed, list):
        raise InputError(
            path,
            "no results.results list, as promptfoo eval -o results.json writes",
            "pass the JSON that promptfoo eval --output wrote, or force another --verdict-format",
        )
    rows = _Rows(path, lines=False, container="results.results")
    for position, raw in enumerate(listed, start=1):
        with rows.at(position):
            _promptfoo_row(rows, position, _object(raw))
    return rows


def _promptfoo_row(rows: _Rows, position: int, row: dict[str, Any]) -> None:
    path = rows.path
    test = _object(row.get("testCase"))
    variables = _object(row.get("vars")) or _object(test.get("vars"))
    metadata = _object(test.get("metadata")) | _object(row.get("metadata"))
    found = [pick(source, ID_KEYS, path, position) for source in (variables, metadata)]
    found.append(test.get("description") or row.get("description"))
    raw_id = next((value for value in found if value not in (None, "")), None)
    if raw_id is None:
        raise rows.error(
            position,
            "no question id (no id, qid or question_id var or metadata, no description)",
            "add vars: {id: q001} (or metadata) to every promptfoo test",
        )
    if not isinstance(row.get("success"), bool):
        raise rows.error(position, "no success true/false", "pass promptfoo's own output")
    errored = row.get("failureReason") == 2
    run = variables.get("run", metadata.get("run"))
    abstained = variables.get("abstained", metadata.get("abstained"))
    rows.add(
        position,
        json_id(raw_id, path, position, "question id"),
        None,
        _optional_text(run, path, position, "run"),
        None if errored else row["success"],
        parse_flag(abstained, path, position, "abstained"),
    )


def _deepeval(path: Path, document: Any, metric: str | None) -> _Rows:
    """A DeepEval test run: ``testCases[]``, id from metadata then name.

    The verdict is the test case's ``success``, or one metric's when ``metric`` is
    named (matched without regard to case); a metric that errored is unknown.
    """
    body = _object(document)
    cases = _object(body.get("testRunData")).get("testCases", body.get("testCases"))
    if not isinstance(cases, list):
        raise InputError(
            path,
            "no testCases list, as a DeepEval test run holds",
            "pass DeepEval's test run JSON (e.g. .deepeval/.latest_test_run.json)",
        )
    rows = _Rows(path, lines=False, container="testCases")
    for position, raw in enumerate(cases, start=1):
        with rows.at(position):
            _deepeval_case(rows, position, _object(raw), metric)
    return rows


def _deepeval_case(rows: _Rows, position: int, case: dict[str, Any], metric: str | None) -> None:
    path = rows.path
    metadata = _object(case.get("metadata"))
    raw_id = pick(metadata, ID_KEYS, path, position)
    if raw_id is None:
        raw_id = case.get("name")
    if raw_id is None:
        raise rows.error(position, "no question id", "set metadata={'id': ...} on the case")
    success = case.get("success") if metric is None else _metric(rows, position, case, metric)
    if success is not None and not isinstance(success, bool):
        raise rows.error(position, f"success is {success!r}", "pass DeepEval's own output")
    rows.add(
        position,
        json_id(raw_id, path, position, "question id"),
        None,
        _optional_text(metadata.get("run"), path, position, "run"),
        success,
        parse_flag(metadata.get("abstained"), path, position, "abstained"),
    )


def _metric(rows: _Rows, position: int, case: dict[str, Any], metric: str) -> Any:
    """The named metric's success on one test case (None when it errored)."""
    measured = [_object(m) for m in case.get("metricsData") or []]
    named = [m for m in measured if str(m.get("name", "")).lower() == metric.lower()]
    if not named:
        names = ", ".join(sorted(str(m.get("name")) for m in measured)) or "none"
        raise rows.error(
            position,
            f"no metric named {metric!r} (this test case has: {names})",
            "pass one of those names to --verdict-metric",
        )
    return None if named[0].get("error") else named[0].get("success")


def _ragas(path: Path, metric: str, threshold: float) -> tuple[_Rows, Literal["id", "question"]]:
    """A ragas results CSV: correct when the metric reaches the threshold.

    Joined by an id column when there is one, else by the question's text.
    """
    header, records = csv_rows(path)
    cmetric = optional_column(header, (metric.lower(),))
    if cmetric is None:
        raise InputError(
            path,
            f"no {metric!r} column in the header ({', '.join(header)})",
            "pass one of the metric columns to --verdict-metric",
            1,
        )
    cid = optional_column(header, ID_KEYS)
    cquestion = optional_column(header, QUESTION_COLUMNS)
    if cid is None and cquestion is None:
        raise InputError(
            path,
            "neither an id nor a question column (user_input, question)",
            "add an id column, or keep ragas' user_input column",
            1,
        )
    crun = optional_column(header, ("run",))
    rows = _Rows(path)
    for line, values in records:
        raw = values[cmetric].strip()
        try:
            score = float(raw) if raw else math.nan
        except ValueError:
            raise InputError(
                path, f"{metric} {raw!r} is not a number", "write scores as numbers", line
            ) from None
        question = None if cquestion is None else " ".join(values[cquestion].split()) or None
        if cid is None and question is None:
            raise InputError(path, "empty question", "give every row its question", line)
        rows.add(
            line,
            None if cid is None else text_id(values[cid], path, line, "question id"),
            question,
            None if crun is None else values[crun].strip() or None,
            None if math.isnan(score) else score >= threshold,
            None,
        )
    return rows, "id" if cid is not None else "question"
