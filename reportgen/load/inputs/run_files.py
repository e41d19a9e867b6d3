"""Runs of every kind, read into runs and the verdicts that came with them.

A run file is a ranked list (TREC, JSON Lines, CSV, Parquet, ranx), a trace file (which
also brings its verdicts and must carry the gold set of the report), or a span export
(OTLP JSON or Phoenix), which needs the gold set to match its traces to questions.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import polars as pl

from reportgen.core.filesystem import is_file
from reportgen.core.model import GoldSet, Run, VerdictSet
from reportgen.core.records import dataclass
from reportgen.errors import InputError, UsageError
from reportgen.load.formats.vocabulary import (
    SPAN_FORMATS,
    TRACE_FORMAT,
    detect_format,
    is_trace_file,
)
from reportgen.load.inputs.gold import load_gold
from reportgen.load.inputs.runs import load_run
from reportgen.load.inputs.spans import load_span_run
from reportgen.load.inputs.traces import Trace, load_trace


@dataclass(frozen=True)
class RunInputs:
    """The runs in the order given, and the verdicts their trace files held."""

    runs: tuple[Run, ...]
    verdicts: VerdictSet | None


def load_gold_input(
    path: Path, fmt: str | None, version: str | None, index_version: str | None
) -> tuple[GoldSet, Trace | None]:
    """The gold set, and the trace when the gold file is a trace file (its first run)."""
    if fmt is None and is_trace_file(path):
        trace = load_trace(path)
        gold = dataclasses.replace(
            trace.gold,
            version=trace.gold.version if version is None else version,
            index_version=trace.gold.index_version if index_version is None else index_version,
        )
        return gold, trace
    try:
        return load_gold(path, fmt, version=version, index_version=index_version), None
    except InputError as error:
        raise _with_hint(error, path, "run") from None


def load_run_inputs(
    specs: Iterable[tuple[str | None, Path] | Run],
    gold: GoldSet,
    fmt: str | None = None,
    question_key: str | None = None,
    first: Trace | None = None,
    doc_key: str | None = None,
) -> RunInputs:
    """Every run of the report; ``first`` is the trace the gold file was, if it was one."""
    runs: list[Run] = [] if first is None else [first.run]
    verdicts: list[VerdictSet] = [] if first is None or first.verdicts is None else [first.verdicts]
    for spec in specs:
        if isinstance(spec, Run):  # loaded already (the Python API)
            runs.append(spec)
            continue
        name, path = spec
        found = detect_format(path, fmt, "run")
        if found == TRACE_FORMAT:
            trace = load_trace(path, name)
            refuse_other_gold(trace, gold)
            runs.append(trace.run)
            if trace.verdicts is not None:
                verdicts.append(trace.verdicts)
        elif found in SPAN_FORMATS:
            runs.append(load_span_run(path, gold, name, question_key, found, doc_key))
        else:
            try:
                runs.append(load_run(path, name=name, fmt=found))
            except InputError as error:
                raise _with_hint(error, path, "gold") from None
    merged = None
    if verdicts:
        merged = VerdictSet(
            rows=pl.concat([v.rows for v in verdicts]),
            source=", ".join(v.source for v in verdicts),
            format=TRACE_FORMAT,
        )
    return RunInputs(tuple(runs), merged)


SWAP_FIX = "the gold set comes first, then the runs (reportgen report GOLD NAME=RUN)"


def _with_hint(error: InputError, path: Path, other: str) -> InputError:
    """``error``, with a hint when the file it names looks like the other input (a run
    given as the gold set, or the gold set given as a run): the arguments swapped."""
    if Path(error.path) != Path(path) or _looks_like(path) != other:
        return error
    what = "a run (a ranked list of chunks)" if other == "run" else "a gold set (graded chunks)"
    return InputError(
        error.path,
        f"{error.problem}; the file looks like {what}",
        f"{error.fix}; if the arguments are swapped, {SWAP_FIX}",
        error.line,
    )


_SNIFF_BYTES = 65536


def _looks_like(path: Path) -> str | None:
    """``"run"`` or ``"gold"`` from the first lines of a text file, when they say so.
    Only a regular file is opened: a pipe would block until a writer came."""
    if not is_file(path):
        return None
    try:
        with path.open("rb") as stream:
            head = stream.read(_SNIFF_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    lines = [line.strip() for line in head.splitlines()[:20]]
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines:
        return None
    if lines[0].startswith("{"):
        keys: set[str] = set()
        for line in lines:
            try:
                found = json.loads(line)
            except (ValueError, RecursionError):  # the error being hinted says which
                continue
            keys |= set(found) if isinstance(found, dict) else set()
        if keys & {"gold", "unanswerable", "forbidden"}:
            return "gold"
        return "run" if keys & {"chunks", "results", "scores"} else None
    fields = lines[0].split()
    if len(fields) >= 6 and fields[1].upper() == "Q0":
        return "run"
    if len(fields) == 4 and fields[3].lstrip("-").isdigit():
        return "gold"
    header = {name.strip().strip('"').lower() for name in lines[0].split(",")}
    if header & {"rank", "score"}:
        return "run"
    return "gold" if header & {"grade", "kind", "unanswerable"} else None


def refuse_other_gold(trace: Trace, gold: GoldSet) -> None:
    """A trace file scored against another gold set would compare unlike numbers."""
    if trace.gold.fingerprint != gold.fingerprint:
        raise InputError(
            trace.run.source,
            f"its gold set (fingerprint {trace.gold.fingerprint}) is not the report's, "
            f"{gold.source} (fingerprint {gold.fingerprint})",
            "give trace files written over the same gold set, or report them separately",
        )


def with_trace_verdicts(
    given: VerdictSet | None, traced: VerdictSet | None, target: str, run_names: Sequence[str]
) -> VerdictSet | None:
    """The verdicts file's and the trace files' verdicts as one set, one source per run.

    ``target`` is the run the file's rows without a run name judge; they are named so,
    lest they serve a trace's run too. A file that judges none of ``run_names`` is
    refused, as it is without traces: its verdicts would silently serve nothing.
    """
    if given is None or traced is None:
        return given or traced
    if given.trials:
        raise UsageError(
            f"the verdicts come from {len(given.trials)} judge trials ({given.source}) and "
            f"from trace files ({traced.source}); a trace holds one trial",
            "give the trials with --verdicts alone (runs as ranked lists), or drop --verdicts",
        )
    if given.join_on == "question":
        raise UsageError(
            f"{given.source} joins verdicts by question text, the trace files by id",
            "give the verdicts file an id column, or leave it out",
        )
    rows = given.rows.with_columns(pl.col("run").fill_null(target))
    named = sorted(set(rows["run"].unique()))
    if not set(named) & set(run_names):
        raise UsageError(
            f"{given.source} has verdicts for run(s) {', '.join(named)}, "
            f"none for a run of this report ({', '.join(run_names)})",
            "name one of these runs in its run column, or leave --verdicts out",
        )
    clash = sorted(set(rows["run"].unique()) & set(traced.rows["run"].unique()))
    if clash:
        raise UsageError(
            f"run {clash[0]!r} has verdicts in {given.source} and in its trace file",
            "keep one source of verdicts per run: drop --verdicts, or its rows for that run",
        )
    return VerdictSet(
        rows=pl.concat([rows, traced.rows]),
        source=f"{given.source}, {traced.source}",
        format=f"{given.format}, {traced.format}",
        join_on=given.join_on,
        metric=given.metric,
        threshold=given.threshold,
    )
