"""Hypothesis against every loader: any bytes, any JSON, and the CLI on top of them.

tests/load/ fuzzes the gold and run readers with byte soup; here the manifest reader
gets the same, structured JSON records reach the gold set's ``forbidden`` field and
the manifest's metadata, and the whole command must end in exit 0 or 2, never a crash.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen.cli import cli
from reportgen.errors import InputError
from reportgen.load import load_gold, load_manifest

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANIFEST_NAMES = ["m.txt", "m.jsonl", "m.csv", "manifest"]
TOKENS = [
    *("c1", "c2", "# index_version: v1", "#", ",", "chunk_id", "audience", "staff", "public"),
    *("valid_to", "2026-01-01", "2026-13-45", "{", "}", '"chunk_id":', '"c1"', '"_meta":', ":"),
    *("\t", "\r", "\ufeff", "\x00", "null", "true", "1e999", "NaN"),
]
soup = st.lists(st.lists(st.sampled_from(TOKENS), max_size=6).map(" ".join), max_size=6).map(
    lambda rows: "\n".join(rows).encode()
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def _in_file(name: str, content: bytes) -> tuple[tempfile.TemporaryDirectory[str], Path]:
    folder = tempfile.TemporaryDirectory()
    path = Path(folder.name) / name
    path.write_bytes(content)
    return folder, path


@FAST
@given(content=st.one_of(st.binary(max_size=200), soup), name=st.sampled_from(MANIFEST_NAMES))
def test_manifest_fails_only_with_input_error(content: bytes, name: str) -> None:
    folder, path = _in_file(name, content)
    with folder:
        try:
            manifest = load_manifest(path)
        except InputError as error:
            assert error.line is None or error.line >= 1
            assert "Fix:" in str(error)
        else:
            assert manifest.chunks.height > 0
            assert manifest.chunks["chunk_id"].is_duplicated().sum() == 0


@FAST
@given(
    records=st.lists(
        st.fixed_dictionaries(
            {"chunk_id": json_values},
            optional={
                k: json_values for k in ("audience", "doc_version", "valid_from", "valid_to")
            },
        ),
        max_size=4,
    )
)
def test_manifest_metadata_of_any_json_type(records: list[dict[str, object]]) -> None:
    content = "".join(json.dumps(r) + "\n" for r in records).encode()
    folder, path = _in_file("m.jsonl", content)
    with folder:
        try:
            load_manifest(path)
        except InputError as error:
            assert "Fix:" in str(error)


@FAST
@given(forbidden=json_values, gold=json_values)
def test_gold_forbidden_of_any_json_type(forbidden: object, gold: object) -> None:
    record = {"id": "q1", "gold": gold, "forbidden": forbidden}
    folder, path = _in_file("g.jsonl", (json.dumps(record) + "\n").encode())
    with folder:
        try:
            loaded = load_gold(path)
        except InputError as error:
            assert error.line == 1
        else:
            both = loaded.forbidden.join(loaded.judgments, on=["qid", "chunk_id"])
            assert both.height == 0, "a chunk is never both gold and forbidden"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    gold=st.one_of(st.binary(max_size=120), soup),
    run=st.one_of(st.binary(max_size=120), soup),
    manifest=st.one_of(st.binary(max_size=120), soup),
)
def test_the_command_ends_in_0_or_2(gold: bytes, run: bytes, manifest: bytes) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        paths = [folder / "g.jsonl", folder / "r.trec", folder / "m.txt"]
        for path, content in zip(paths, (gold, run, manifest), strict=True):
            path.write_bytes(content)
        args = ["report", str(paths[0]), str(paths[1]), "--manifest", str(paths[2])]
        result = CliRunner().invoke(cli, [*args, "--out", str(folder / "o"), "-q"])
        assert result.exit_code in (0, 2), result.output
        assert not isinstance(result.exception, Exception) or isinstance(
            result.exception, SystemExit
        ), result.exception
