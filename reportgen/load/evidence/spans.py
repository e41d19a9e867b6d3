"""Evidence spans of a gold set: parsed from its records, located in the documents.

A gold question may name its evidence as character ranges (``{"doc": "faq.md",
"start": 120, "end": 410}``) or as a quote of the document (``{"doc": "faq.md",
"quote": "Refunds take 5 to 7 business days"}``). A quote is found exactly, else with
runs of whitespace read as one space; found nowhere or twice, it is an error naming
the question, unless the document changed since the gold set was written: then it is
stale gold, and a warning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.filesystem import reading
from reportgen.core.model import EVIDENCE_SCHEMA, SPANS_SCHEMA, GoldSet, StaleEvidence
from reportgen.core.records import dataclass
from reportgen.errors import InputError, UsageError, printable, shortened
from reportgen.load.formats.files import decode
from reportgen.load.formats.json_input import fits_int64, json_type
from reportgen.measure.spans import merge_ranges

EVIDENCE_FIX = (
    'write "evidence": [{"doc": "faq.md", "start": 120, "end": 410}] '
    'or [{"doc": "faq.md", "quote": "..."}]'
)
_SPACE = re.compile(r"\s+")


def evidence_items(value: Any, qid: str, path: Path, line: int) -> list[tuple[Any, ...]]:
    """A gold record's ``evidence``, as EVIDENCE_SCHEMA rows; each item checked."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError(
            path, f"evidence is a JSON {json_type(value)}, not an array", EVIDENCE_FIX, line
        )
    rows: list[tuple[Any, ...]] = []
    for item in value:
        if not isinstance(item, dict):
            raise InputError(
                path,
                f"an evidence item is a JSON {json_type(item)}, not an object",
                EVIDENCE_FIX,
                line,
            )
        doc = item.get("doc")
        if not isinstance(doc, str) or not doc.strip():
            raise InputError(
                path, f"question {qid}: an evidence item without a doc", EVIDENCE_FIX, line
            )
        quote = item.get("quote")
        has_range = "start" in item or "end" in item
        if (quote is None) == (not has_range):
            raise InputError(
                path,
                f"question {qid}: an evidence item in {doc} needs either start and end or a quote",
                "give one of the two",
                line,
            )
        version = item.get("doc_version")
        if version is not None and not isinstance(version, str | int | float):
            raise InputError(path, "doc_version is not a string", "quote the doc_version", line)
        version = None if version is None else str(version)
        if quote is not None:
            if not isinstance(quote, str) or not _SPACE.sub(" ", quote).strip():
                raise InputError(
                    path, f"question {qid}: an empty or non-text quote", "quote the passage", line
                )
            rows.append((qid, doc.strip(), None, None, quote, version, line))
            continue
        start, end = (_offset(item.get(key), key, qid, path, line) for key in ("start", "end"))
        if end <= start:
            raise InputError(
                path,
                f"question {qid}: the evidence in {doc} runs from {start} to {end}",
                "give end > start (characters, end exclusive)",
                line,
            )
        rows.append((qid, doc.strip(), start, end, None, version, line))
    return rows


def _offset(value: Any, key: str, qid: str, path: Path, line: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not fits_int64(value) or value < 0:
        raise InputError(
            path,
            f"question {qid}: evidence {key} is {value!r}, not a character offset",
            f"give {key} as a whole number of characters from the start of the document",
            line,
        )
    return value


def evidence_frame(rows: list[tuple[Any, ...]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=EVIDENCE_SCHEMA, orient="row")


@dataclass
class Documents:
    """The documents' text under ``--docs DIR``, read when first asked for."""

    root: Path
    _texts: dict[str, str | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.root.is_dir():
            raise UsageError(
                f"--docs {printable(self.root)} is not a folder",
                "pass the folder that holds the documents",
            )

    def text(self, doc: str) -> str | None:
        """The document's text, or None when the folder has no such file (or it lies outside)."""
        if doc not in self._texts:
            self._texts[doc] = self._read(doc)
        return self._texts[doc]

    def _read(self, doc: str) -> str | None:
        root = self.root.resolve()
        path = (root / doc).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            return None
        with reading(path):
            return decode(path, path.read_bytes())


@dataclass(frozen=True)
class Located:
    """Evidence as merged ranges, and the items left out because their document changed."""

    spans: pl.DataFrame
    stale: tuple[StaleEvidence, ...] = ()

    @cached_property
    def questions(self) -> pl.Series:
        return self.spans.get_column("qid").unique().sort()


def locate(
    gold: GoldSet,
    documents: Documents | None,
    lengths: Mapping[str, int],
    current_versions: Mapping[str, str],
) -> Located:
    """Every evidence item as a ``[start, end)`` range of its document's text.

    ``lengths`` bounds each document when its text is not at hand (the furthest chunk
    end of the chunk maps); ``current_versions`` (document -> doc_version of the chunk
    maps) tells a document that changed since the gold set was written: its evidence
    that no longer fits is stale gold, not an error.
    """
    rows: list[tuple[str, str, int, int]] = []
    stale: list[StaleEvidence] = []
    fit, unsure = _ranges_that_fit(gold.evidence, documents, lengths)
    for item in unsure.iter_rows(named=True):
        version = item["doc_version"]
        changed = version is not None and current_versions.get(item["doc"], version) != version
        try:
            rows.append(_located(gold.source, item, documents, lengths))
        except _Misplaced as err:
            if not changed:
                raise err.error from None
            stale.append(StaleEvidence(item["qid"], item["doc"], err.what))
    checked = pl.DataFrame(rows, schema=SPANS_SCHEMA, orient="row")
    spans = merge_ranges(pl.concat([fit.select(SPANS_SCHEMA.names()), checked]))
    return Located(spans=spans, stale=tuple(stale))


def _ranges_that_fit(
    evidence: pl.DataFrame, documents: Documents | None, lengths: Mapping[str, int]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(ranges known to fit their document, every other item), checked as one frame.

    Gold sets of evidence offsets run to tens of thousands of items: only quotes, ranges
    past their document's end and documents not found go through the item-by-item path
    that locates, names the line or calls the item stale.
    """
    docs = evidence.get_column("doc").unique().to_list()
    if documents is not None:
        known = {doc: len(text) for doc in docs if (text := documents.text(doc)) is not None}
    else:
        known = {doc: lengths[doc] for doc in docs if doc in lengths}
    bounds = pl.DataFrame(
        {"doc": list(known), "_length": list(known.values())},
        schema={"doc": pl.String, "_length": pl.Int64},
    )
    joined = evidence.join(bounds, on="doc", how="left")
    # without the documents, a document no chunk map covers has no known end
    inside = (pl.col("end") <= pl.col("_length")).fill_null(documents is None)
    fits = pl.col("quote").is_null() & inside
    return joined.filter(fits), joined.filter(~fits).drop("_length")


class _Misplaced(Exception):
    """Evidence that is not where the gold set says: an error, or stale gold."""

    def __init__(self, error: InputError, what: str) -> None:
        super().__init__(error.problem)
        self.error = error
        self.what = what


def _located(
    source: str,
    item: dict[str, Any],
    documents: Documents | None,
    lengths: Mapping[str, int],
) -> tuple[str, str, int, int]:
    qid, doc, quote, line = item["qid"], item["doc"], item["quote"], item["line"]
    text = None if documents is None else documents.text(doc)
    if documents is not None and text is None:
        raise InputError(
            source,
            f"question {qid}: document {doc} is not in {printable(documents.root)}",
            "check the doc's path (relative to --docs) or add the document",
            line,
        )
    if quote is not None:
        if text is None:
            raise UsageError(
                f"question {qid} quotes {doc}, and no documents are given to find the quote in",
                "pass --docs DIR (the folder the doc paths are relative to)",
            )
        shown = f"quote {shortened(quote)!r}"
        try:
            start, end = find_quote(text, quote)
        except LookupError as err:
            problem = f"question {qid}: the {shown} {err.args[0]} {doc}"
            fix = "copy the quote exactly from the document (longer when it is there twice)"
            raise _Misplaced(InputError(source, problem, fix, line), shown) from None
        return qid, doc, start, end
    start, end = int(item["start"]), int(item["end"])
    length = len(text) if text is not None else lengths.get(doc)
    if length is not None and end > length:
        problem = (
            f"question {qid}: the evidence [{start}, {end}) runs past the end of {doc} "
            f"({length} characters)"
        )
        fix = "correct the offsets (characters, end exclusive)"
        raise _Misplaced(InputError(source, problem, fix, line), f"range [{start}, {end})")
    return qid, doc, start, end


def find_quote(text: str, quote: str) -> tuple[int, int]:
    """The ``[start, end)`` of the one place ``quote`` stands in ``text``.

    Exact first; else with every run of whitespace (spaces, tabs, newlines) read as one
    space, the range then running from the original character where the match begins
    to the one where it ends. Raises LookupError saying "is not in" or "is twice in".
    """
    exact = _one_place(text, quote)
    if exact is not None:
        return exact, exact + len(quote)
    spaced, origin = _normalised(text)
    wanted = _SPACE.sub(" ", quote).strip()
    where = _one_place(spaced, wanted)
    if where is None:
        raise LookupError("is not in")
    return origin[where], origin[where + len(wanted) - 1] + 1


def _one_place(text: str, quote: str) -> int | None:
    first = text.find(quote)
    if first < 0:
        return None
    if text.find(quote, first + 1) >= 0:
        raise LookupError("is more than once in")
    return first


def _normalised(text: str) -> tuple[str, list[int]]:
    """``text`` with each whitespace run as one space, and each character's original offset."""
    parts: list[str] = []
    origin: list[int] = []
    at = 0
    for run in _SPACE.finditer(text):
        parts.append(text[at : run.start()])
        origin.extend(range(at, run.start()))
        parts.append(" ")
        origin.append(run.start())
        at = run.end()
    parts.append(text[at:])
    origin.extend(range(at, len(text)))
    return "".join(parts), origin
