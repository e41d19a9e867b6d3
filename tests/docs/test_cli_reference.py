"""docs/cli.md is the CLI's own help, and every command, option and argument has help."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import click
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_cli_reference", REPO / "scripts" / "make_cli_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def all_contexts(generator: ModuleType) -> list[click.Context]:
    from reportgen.cli import cli

    return list(generator.contexts(cli, "reportgen"))


def test_committed_reference_matches_the_help(generator: ModuleType) -> None:
    committed = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    assert committed == generator.reference(), (
        "docs/cli.md is stale. Fix: python scripts/make_cli_reference.py"
    )


def test_reference_covers_every_command(generator: ModuleType) -> None:
    text = generator.reference()
    paths = [context.command_path for context in all_contexts(generator)]
    assert {"reportgen", "reportgen report", "reportgen demo"} <= set(paths)
    for path in paths:
        assert f"## `{path}`" in text


def test_every_command_has_help(generator: ModuleType) -> None:
    missing = [
        context.command_path
        for context in all_contexts(generator)
        if not (context.command.help or "").strip()
    ]
    assert missing == [], f"commands without a docstring: {missing}"


def test_every_option_has_help(generator: ModuleType) -> None:
    missing = [
        f"{context.command_path} {param.opts[0]}"
        for context in all_contexts(generator)
        for param in context.command.get_params(context)
        if isinstance(param, click.Option) and not param.hidden and not (param.help or "").strip()
    ]
    assert missing == [], f"options without help: {missing}"


def test_every_argument_is_explained(generator: ModuleType) -> None:
    """Click arguments take no help=, so the command's text must name each one."""
    missing = [
        f"{context.command_path} {param.human_readable_name}"
        for context in all_contexts(generator)
        for param in context.command.get_params(context)
        if isinstance(param, click.Argument)
        and param.human_readable_name not in (context.command.help or "")
    ]
    assert missing == [], f"arguments the help does not mention: {missing}"


def test_check_mode_flags_a_stale_page(
    generator: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = tmp_path / "cli.md"
    stale.write_text("# old\n")
    monkeypatch.setattr(generator, "TARGET", stale)
    assert generator.main(["--check"]) == 1
    assert generator.main([]) == 0
    assert generator.main(["--check"]) == 0
