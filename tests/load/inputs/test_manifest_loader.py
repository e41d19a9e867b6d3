"""Manifests in their three shapes, and the gold set's forbidden chunks."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from reportgen.errors import InputError
from reportgen.load import load_gold, load_manifest


def test_one_id_per_line_with_a_version_comment(tmp_path: Path) -> None:
    path = tmp_path / "manifest.txt"
    path.write_bytes(b"\xef\xbb\xbf# index_version: kb-7\r\nc1\r\n\r\n  c2  \r\n# note\r\nc3\r\n")
    manifest = load_manifest(path)
    assert manifest.index_version == "kb-7"
    assert manifest.chunks["chunk_id"].to_list() == ["c1", "c2", "c3"]
    assert manifest.chunks["line"].to_list() == [2, 4, 6]
    assert not manifest.has("audience")


def test_jsonl_with_metadata(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text(
        '{"_meta": {"index_version": "kb-8"}}\n'
        '{"chunk_id": "p1", "audience": "staff", "doc_version": 2, '
        '"valid_from": "2025-01-01", "valid_to": "2025-12-31T23:00:00"}\n'
        '{"id": "p2"}\n'
    )
    manifest = load_manifest(path)
    assert manifest.index_version == "kb-8"
    rows = manifest.chunks.drop("line").rows()
    assert rows == [
        ("p1", "staff", "2", date(2025, 1, 1), date(2025, 12, 31)),
        ("p2", None, None, None, None),
    ]
    assert manifest.has("audience") and manifest.has("valid_to")


def test_csv_with_an_index_version_column(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_text("chunk_id,audience,index_version\nc1,public,kb-9\nc2,,kb-9\n")
    manifest = load_manifest(path, index_version=None)
    assert manifest.index_version == "kb-9"
    assert manifest.chunks["audience"].to_list() == ["public", None]


def test_the_callers_index_version_wins(tmp_path: Path) -> None:
    path = tmp_path / "m.txt"
    path.write_text("# index_version: old\nc1\n")
    assert load_manifest(path, index_version="new").index_version == "new"


def test_content_decides_when_the_extension_does_not(tmp_path: Path) -> None:
    path = tmp_path / "manifest"
    path.write_text('\n{"chunk_id": "c1"}\n')
    assert load_manifest(path).chunks["chunk_id"].to_list() == ["c1"]


@pytest.mark.parametrize(
    ("name", "content", "line", "problem"),
    [
        ("m.txt", "c1\nc2\nc1\n", 3, "chunk c1 is also on line 1"),
        ("m.txt", "c1 staff\n", 1, "more than one field"),
        ("m.txt", "# index_version: a\n# index_version: b\nc1\n", 1, "two index versions"),
        ("m.txt", "# only comments\n", 1, "no chunk ids"),
        ("m.jsonl", '{"chunk_id": "c1", "valid_to": "soon"}\n', 1, "is not a date"),
        ("m.jsonl", '{"chunk_id": "c1", "audience": ["a"]}\n', 1, "audience is a JSON array"),
        (
            "m.jsonl",
            '{"chunk_id": "c1", "valid_from": "2026-02-01", "valid_to": "2026-01-01"}\n',
            1,
            "valid_from is after valid_to",
        ),
        ("m.jsonl", '{"audience": "staff"}\n', 1, "without a chunk id"),
        ("m.csv", "id,index_version\nc1,a\nc2,b\n", 3, "index_version 'b' here"),
        ("m.csv", "name\nc1\n", 1, "no 'chunk_id' column"),
    ],
)
def test_bad_manifests_name_the_line(
    tmp_path: Path, name: str, content: str, line: int, problem: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(InputError) as caught:
        load_manifest(path)
    assert caught.value.line == line
    assert problem in caught.value.problem
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert ". Fix: " in str(caught.value)


def test_forbidden_chunks_as_a_list_or_with_reasons(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text(
        '{"id": "q1", "gold": ["c1"], "forbidden": {"s9": "staff-only", "p1": null}}\n'
        '{"id": "q2", "gold": ["c2"], "forbidden": ["old3"]}\n'
        '{"id": "q3", "gold": ["c3"]}\n'
    )
    gold = load_gold(path)
    assert sorted(gold.forbidden.rows()) == [
        ("q1", "p1", "forbidden"),
        ("q1", "s9", "staff-only"),
        ("q2", "old3", "forbidden"),
    ]


def test_forbidden_chunks_change_the_fingerprint_only_when_present(tmp_path: Path) -> None:
    plain, marked = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    plain.write_text('{"id": "q1", "gold": ["c1"]}\n')
    marked.write_text('{"id": "q1", "gold": ["c1"], "forbidden": []}\n')
    forbidding = tmp_path / "c.jsonl"
    forbidding.write_text('{"id": "q1", "gold": ["c1"], "forbidden": ["s1"]}\n')
    assert load_gold(plain).fingerprint == load_gold(marked).fingerprint
    assert load_gold(plain).fingerprint != load_gold(forbidding).fingerprint


@pytest.mark.parametrize(
    ("forbidden", "problem"),
    [
        ('"s1"', "forbidden is a JSON string"),
        ('{"s1": 3}', "not a string"),
        ('["c1"]', "both a gold chunk and forbidden"),
        ("[null]", "forbidden chunk id is a JSON null"),
    ],
)
def test_bad_forbidden_lists(tmp_path: Path, forbidden: str, problem: str) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text(
        '{"id": "q0", "gold": ["c0"]}\n'
        f'{{"id": "q1", "gold": ["c1"], "forbidden": {forbidden}}}\n'
    )
    with pytest.raises(InputError) as caught:
        load_gold(path)
    assert caught.value.line == 2
    assert problem in caught.value.problem


def test_csv_gold_marks_forbidden_chunks_in_a_column(tmp_path: Path) -> None:
    """The same gold set as JSONL and as CSV: the same questions, gold and forbidden chunks."""
    jsonl, csv = tmp_path / "gold.jsonl", tmp_path / "gold.csv"
    jsonl.write_text(
        '{"id": "q1", "gold": ["c1"], "forbidden": {"s9": "staff-only", "p1": null}}\n'
        '{"id": "q2", "gold": ["c2"]}\n'
    )
    csv.write_text(
        "id,chunk_id,forbidden\n"
        "q1,s9,staff-only\n"
        "q1,c1,\n"
        "q1,p1,true\n"
        "q1,s9,staff-only\n"  # repeated: listed once
        "q2,c2,no\n"
    )
    from_csv, from_jsonl = load_gold(csv), load_gold(jsonl)
    assert sorted(from_csv.forbidden.rows()) == sorted(from_jsonl.forbidden.rows())
    assert sorted(from_csv.judgments.rows()) == [("q1", "c1", 1), ("q2", "c2", 1)]
    assert from_csv.fingerprint == from_jsonl.fingerprint


@pytest.mark.parametrize(
    ("rows", "line", "problem"),
    [
        ("q1,c1,\nq1,c1,staff-only\n", 3, "c1 is both a gold chunk and forbidden for question q1"),
        ("q1,s1,staff-only\nq1,s1,\n", 3, "(line 2)"),
        ("q1,,staff-only\n", 2, "forbidden is set on a row without a chunk_id"),
        ("q1,s1,staff-only\n", 2, "question q1 has only forbidden chunks"),
    ],
)
def test_csv_forbidden_mistakes_are_named(
    tmp_path: Path, rows: str, line: int, problem: str
) -> None:
    path = tmp_path / "gold.csv"
    path.write_text("id,chunk_id,forbidden\n" + rows)
    with pytest.raises(InputError) as caught:
        load_gold(path)
    assert problem in caught.value.problem
    assert str(caught.value).startswith(f"{path}:{line}: ")
