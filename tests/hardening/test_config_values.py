"""Every value a config file can hold, for every key: exit 0 or 2 naming the file, the
line and the key, never an internal error, and never a folder the user did not name.

A path key takes a string only: ``out = 5`` was an internal error and
``out = ["a", "b"]`` wrote the report into a folder named ``a,b``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen.load.inputs.config import REPORT_KEYS
from tests.hardening.corpus import run_cli

GOLD = '{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": ["c2"]}\n'
RUN = '{"id": "q1", "chunks": ["c1", "c2"]}\n{"id": "q2", "chunks": ["c3"]}\n'
COMMAND = ["report", "gold.jsonl", "run.jsonl", "--format", "json", "-q"]


def folder_with(config: str, root: Path) -> Path:
    """``root/work`` holding the inputs and a reportgen.toml of ``config``."""
    work = root / "work"
    work.mkdir()
    (work / "gold.jsonl").write_text(GOLD)
    (work / "run.jsonl").write_text(RUN)
    (work / "reportgen.toml").write_text(config, encoding="utf-8")
    return work


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("out = 5\n", "out is a path: write it as a string, not a number"),
        ("\nbaseline = 5\n", "baseline is a path: write it as a string, not a number"),
        ('out = ["a", "b"]\n', "out is a path: write it as a string, not an array"),
        ("manifest = 1.5\n", "manifest is a path: write it as a string, not a number"),
        ("docs = 2026-01-01\n", "docs is a path: write it as a string, not a date"),
        ('out = ""\n', "out is an empty path"),
        ('out = "a\\u0000b"\n', "out holds a control character"),
        ("verdicts = [[1]]\n", "verdicts is a path or a list of paths: write each as a string"),
        ("verdicts = 5\n", "verdicts is a path or a list of paths: write each as a string"),
        ("as-of = 5\n", "as-of takes a date (YYYY-MM-DD), not a number"),
        ("context-k = 2.5\n", "context-k takes a whole number, not 2.5"),
        # a range with no upper end, asked for its bound alone: was exit 3
        ("cost-per-1k-chars = 2026-01-01\n", "not a number. Fix: pass a number of at least 0"),
        ("retrieved-when = [1, 2]\n", "retrieved-when takes one value, not an array"),
        ("k = " + "[" * 5000 + "]" * 5000 + "\n", "arrays or tables nested too deeply"),
        ("[a]\nb = " + "{x = " * 3000 + "1" + "}" * 3000 + "\n", "nested too deeply"),
    ],
)
def test_a_value_of_the_wrong_type_names_the_file_and_key(
    tmp_path: Path, config: str, message: str
) -> None:
    work = folder_with(config, tmp_path)
    outcome = run_cli(COMMAND, cwd=work)
    assert outcome.code == 2, outcome.stderr
    assert outcome.stderr.startswith("Error: reportgen.toml:"), outcome.stderr
    assert message in outcome.stderr and ". Fix: " in outcome.stderr, outcome.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work"]
    assert sorted(p.name for p in work.iterdir()) == ["gold.jsonl", "reportgen.toml", "run.jsonl"]


def test_the_line_of_the_deep_nesting_is_named(tmp_path: Path) -> None:
    work = folder_with("quiet = true\n\nk = " + "[" * 2000 + "]" * 2000 + "\n", tmp_path)
    outcome = run_cli(COMMAND, cwd=work)
    assert outcome.code == 2 and outcome.stderr.startswith("Error: reportgen.toml:3: ")


toml_scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda f: repr(float(f))),
    st.sampled_from(["nan", "inf", "-inf", "2026-01-01", "2026-01-01T10:00:00", "10:00:00"]),
    st.text(st.characters(codec="utf-8"), max_size=6).map(
        lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    ),
).map(lambda v: str(v).lower() if isinstance(v, bool) else str(v))
toml_values = st.recursive(
    toml_scalars,
    lambda inner: (
        st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]")
        | st.lists(inner, max_size=2).map(
            lambda items: "{" + ", ".join(f"x{i} = {v}" for i, v in enumerate(items)) + "}"
        )
    ),
    max_leaves=5,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(REPORT_KEYS), value=toml_values)
def test_any_value_of_any_key_is_exit_0_or_2(key: str, value: str) -> None:
    with tempfile.TemporaryDirectory() as root:
        work = folder_with(f"{key} = {value}\n", Path(root))
        outcome = run_cli(COMMAND, cwd=work)
        assert outcome.code in (0, 1, 2), outcome.stderr
        if outcome.code == 2:
            assert outcome.stderr.startswith("Error: ") and "Fix: " in outcome.stderr
        assert sorted(p.name for p in Path(root).iterdir()) == ["work"]
