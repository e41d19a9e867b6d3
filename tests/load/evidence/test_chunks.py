"""Chunk maps in JSONL, CSV and Parquet: what is kept, what is refused, and where."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import pytest

from reportgen.core.model import CHUNKS_SCHEMA
from reportgen.errors import InputError, UsageError
from reportgen.load.evidence.chunks import load_chunk_map, parse_chunks_spec
from tests.load.conftest import Write

JSONL = (
    '{"_meta": {"index_version": "kb-2"}}\n'
    '{"chunk_id": "c1", "doc": "faq.md", "start": 0, "end": 120, "text": "Refunds..."}\n'
    "\n"
    '{"id": 7, "document": "faq.md", "start": 100, "end": 240, "audience": "staff",'
    ' "valid_to": "2026-06-30"}\n'
)
CSV = (
    "chunk_id,doc,start,end,text,doc_version,index_version\n"
    'c1,faq.md,0,120,"Refunds, in short",3,kb-2\n'
    "7,faq.md,100,240,,3,kb-2\n"
)


def test_the_three_formats_read_alike(write: Write, tmp_path: Path) -> None:
    parquet = tmp_path / "map.parquet"
    pl.DataFrame(
        {"chunk_id": ["c1", "7"], "doc": ["faq.md"] * 2, "start": [0, 100], "end": [120, 240]}
    ).write_parquet(parquet)
    maps = [load_chunk_map(write("map.jsonl", JSONL)), load_chunk_map(write("map.csv", CSV))]
    maps.append(load_chunk_map(parquet))
    for chunk_map in maps:
        assert chunk_map.chunks.schema == CHUNKS_SCHEMA
        rows = chunk_map.chunks.select("chunk_id", "doc", "start", "end").rows()
        assert rows == [("c1", "faq.md", 0, 120), ("7", "faq.md", 100, 240)]
    jsonl, csv, _ = maps
    assert jsonl.index_version == csv.index_version == "kb-2"
    assert jsonl.chunks["text"].to_list() == ["Refunds...", None]
    assert jsonl.chunks["valid_to"].to_list() == [None, date(2026, 6, 30)]
    assert jsonl.chunks["line"].to_list() == [2, 4]
    assert csv.chunks["text"].to_list() == ["Refunds, in short", None]
    assert jsonl.has_text and not maps[2].has_text


def test_a_chunk_map_serves_as_the_manifest(write: Write) -> None:
    manifest = load_chunk_map(write("map.jsonl", JSONL)).manifest()
    assert manifest.chunks["chunk_id"].to_list() == ["c1", "7"]
    assert manifest.chunks["audience"].to_list() == [None, "staff"]
    assert manifest.index_version == "kb-2"


@pytest.mark.parametrize(
    ("name", "content", "problem", "line"),
    [
        (
            "m.jsonl",
            '{"chunk_id": "a", "doc": "d", "start": 0, "end": 5}\n'
            '{"chunk_id": "b", "doc": "d", "start": "3", "end": 9}\n',
            "start is '3', not a character offset",
            2,
        ),
        ("m.jsonl", '{"chunk_id": "a", "doc": "d", "start": 0}\n', "end is missing", 1),
        ("m.jsonl", '{"chunk_id": "a", "start": 0, "end": 3}\n', "a chunk without doc", 1),
        (
            "m.jsonl",
            '{"chunk_id": "a", "doc": "d", "start": 0, "end": 3}\n'
            '{"chunk_id": "a", "doc": "d", "start": 3, "end": 6}\n',
            "chunk a is also on line 1",
            2,
        ),
        ("m.jsonl", '{"chunk_id": "a", "doc": "d", "start": 4, "end": 3}\n', "runs from 4 to 3", 1),
        ("m.jsonl", '{"chunk_id": "a", "doc": "d", "start": 0, "end": 3\n', "not valid JSON", 1),
        ("m.csv", "chunk_id,doc,start,end\na,d,0,x\n", "end is 'x'", 2),
        ("m.csv", "chunk_id,doc,start\na,d,0\n", "no 'end' column", 1),
        (
            "m.csv",
            "chunk_id,doc,start,end,valid_from\na,d,0,4,soon\n",
            "valid_from 'soon' is not a date",
            2,
        ),
        ("m.csv", "chunk_id,doc,start,end\n,d,0,4\n", "empty chunk_id", 2),
        ("m.txt", "a\n", "format", None),
    ],
)
def test_bad_chunk_maps_name_the_line(
    write: Write, name: str, content: str, problem: str, line: int | None
) -> None:
    with pytest.raises(InputError, match=problem) as caught:
        load_chunk_map(write(name, content))
    assert caught.value.line == line


def test_chunk_specs_name_a_run_or_all() -> None:
    assert parse_chunks_spec("maps/a.parquet") == (None, Path("maps/a.parquet"))
    assert parse_chunks_spec("bm25=maps/a.parquet") == ("bm25", Path("maps/a.parquet"))
    with pytest.raises(UsageError, match="empty name or path"):
        parse_chunks_spec("=maps/a.parquet")
