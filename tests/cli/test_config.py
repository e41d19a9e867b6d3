"""The config file: every option of `report` can be set there, the command line wins."""

from __future__ import annotations

import json
import os
import re
from datetime import date
from pathlib import Path
from typing import Any

import click
import pytest
from click.core import ParameterSource

from reportgen.cli import cli
from reportgen.cli.config import config_keys
from reportgen.cli.request import gate_rules
from reportgen.load.inputs.config import REPORT_KEYS, Rule

REPO = Path(__file__).resolve().parents[2]
REPORT = cli.commands["report"]


def context(folder: Path, *args: str) -> click.Context:
    """The `report` context the command line would build, run from ``folder``."""
    previous = Path.cwd()
    os.chdir(folder)
    try:
        return REPORT.make_context("report", ["gold.jsonl", "run.jsonl", *args])
    finally:
        os.chdir(previous)


def doc_config(name: str) -> str:
    page = (REPO / "docs" / "config.md").read_text(encoding="utf-8")
    return re.search(rf"```toml file={re.escape(name)}\n(.*?)```", page, re.S).group(1)  # type: ignore[union-attr]


def test_the_documented_example_sets_what_it_says(tmp_path: Path) -> None:
    (tmp_path / "reportgen.toml").write_text(doc_config("reportgen.toml"))
    for path in ("eval/verdicts.jsonl", "index/manifest.jsonl"):
        (tmp_path / path).parent.mkdir(parents=True)
        (tmp_path / path).write_text("")
    params = context(tmp_path).params
    assert params["ks"] == (1, 3, 5, 10) and params["context_k"] == 5
    assert params["formats"] == ("html", "md", "json")
    # one file, as a repeatable option holds it (several: judge trials)
    assert params["verdicts"] == (Path("eval/verdicts.jsonl"),)
    assert params["verdicts_run"] == "rerank"
    assert params["run_index_versions"] == {"rerank": "kb-2026-11-02"}
    assert params["as_of"] == date(2026, 11, 30)  # the option gives the day itself
    assert params["baseline"] == Path("site")
    assert params["strict"] and params["significant_only"]
    assert params["config_path"] == Path("reportgen.toml")
    gate = gate_rules(
        tmp_path / "reportgen.toml", (), ("recall@5=0.05",), params["significant_only"]
    )
    assert set(gate.rules) == {
        Rule("min", "recall@5", 0.8),
        Rule("min", "recall@5", 0.7, kind="version"),
        Rule("max-drop", "recall@5", 0.05),  # the command line's replaces the file's 0.02
    }


def test_the_documented_pyproject_table_is_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n' + doc_config("pyproject.toml")
    )
    ctx = context(tmp_path)
    assert ctx.params["context_k"] == 5
    assert ctx.params["config_path"] == Path("pyproject.toml")


def sample(param: click.Option, folder: Path) -> Any:
    """A value for the option's key that differs from its default, of the right type."""
    kind = param.type
    if param.is_flag:
        return not param.default
    if param.multiple and isinstance(kind, click.Path):  # --verdicts: judge trials
        for name in ("first.file", "second.file"):
            (folder / name).write_text("")
        return ["first.file", "second.file"]
    if param.multiple:
        return ["rerank=kb-1"]
    if isinstance(kind, click.Choice):
        return next(c for c in kind.choices if c != param.default)
    if isinstance(kind, click.IntRange | click.types.IntParamType):
        return 2
    if isinstance(kind, click.types.FloatParamType):
        return 0.75 if param.default == 0.5 else 0.5
    if isinstance(kind, click.DateTime):
        return "2026-11-30"
    if isinstance(kind, click.Path):
        target = folder / f"{param.name}.file"
        if kind.file_okay:
            target.write_text("")
        else:
            target.mkdir()
        return target.name
    if param.callback is not None and param.name == "ks":
        return [2, 7]
    if param.name == "formats":
        return ["json"]
    return "sample"


SET_ELSEWHERE = {"minimums", "max_drops", "maximums", "max_rises"}
"""Rule tables: the gate reads them, merged rule by rule (tested above)."""


def test_the_python_api_knows_the_same_keys() -> None:
    """load_gate_rules checks a file's keys without the CLI: against REPORT_KEYS."""
    assert sorted(REPORT_KEYS) == sorted(config_keys(REPORT))


def test_every_option_can_be_set_in_the_file(tmp_path: Path) -> None:
    options = [
        param
        for param in REPORT.params
        if isinstance(param, click.Option)
        and param.name not in SET_ELSEWHERE | {"config_path", "help"}
        and param.expose_value
    ]
    assert len(options) > 25
    lines = []
    for param in options:
        key = param.opts[0].lstrip("-")
        assert key in config_keys(REPORT)
        lines.append(f"{key} = {json.dumps(sample(param, tmp_path))}")
    (tmp_path / "reportgen.toml").write_text("\n".join(lines) + "\n")
    ctx = context(tmp_path)
    not_from_file = [
        param.opts[0]
        for param in options
        if ctx.get_parameter_source(param.name or "") is not ParameterSource.DEFAULT_MAP
        or ctx.params[param.name or ""] == param.default
    ]
    assert not_from_file == []


def test_the_command_line_wins_and_flags_can_be_undone(tmp_path: Path) -> None:
    (tmp_path / "reportgen.toml").write_text(
        'context-k = 3\nstrict = true\nquiet = true\nformat = "json"\n'
    )
    params = context(tmp_path, "--context-k", "7", "--no-strict", "--format", "md").params
    assert params["context_k"] == 7 and params["formats"] == ("md",)
    assert params["strict"] is False and params["quiet"] is True


def test_underscores_are_accepted(tmp_path: Path) -> None:
    (tmp_path / "reportgen.toml").write_text("context_k = 3\nsignificant_only = true\n")
    params = context(tmp_path).params
    assert params["context_k"] == 3 and params["significant_only"] is True


def test_paths_are_relative_to_the_config_files_folder(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "reportgen.toml").write_text('out = "report"\nbaseline = "../site"\n')
    params = context(tmp_path, "--config", "ci/reportgen.toml").params
    assert params["out_dir"] == Path("ci/report")
    assert params["baseline"] == Path("ci/../site")


def test_reportgen_toml_is_preferred_and_a_bare_pyproject_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert context(tmp_path).params["config_path"] is None
    (tmp_path / "pyproject.toml").write_text("[tool.reportgen]\ncontext-k = 4\n")
    (tmp_path / "reportgen.toml").write_text("context-k = 6\n")
    assert context(tmp_path).params["context_k"] == 6


def test_significant_only_from_the_file_can_be_switched_off(tmp_path: Path) -> None:
    config = tmp_path / "reportgen.toml"
    config.write_text('significant-only = true\nmax-drop = { "recall@5" = 0.02 }\n')
    params = context(tmp_path, "--no-significant-only").params
    gate = gate_rules(config, (), (), params["significant_only"])
    assert gate.significant_only is False and gate.rules == (Rule("max-drop", "recall@5", 0.02),)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("max-drops = 1\n", "reportgen.toml:1: unknown key max-drops. Fix: did you mean max-drop?"),
        ("\n\nk = { a = 1 }\n", "reportgen.toml:3: k takes a value, not a table"),
        (
            "run-index-version = [1]\n",
            "reportgen.toml:1: run-index-version must be a list of strings",
        ),
        ("quiet = 1\n", "reportgen.toml:1: quiet must be true or false"),
    ],
)
def test_wrong_keys_and_shapes_name_the_line(tmp_path: Path, content: str, message: str) -> None:
    from tests.hardening.corpus import run_cli

    (tmp_path / "reportgen.toml").write_text(content)
    outcome = run_cli(["report", "gold.jsonl", "run.jsonl"], cwd=tmp_path)
    assert outcome.code == 2
    assert outcome.stderr.startswith(f"Error: {message}"), outcome.stderr
