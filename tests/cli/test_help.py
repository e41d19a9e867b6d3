"""--help fits a screen: the everyday options, then one line to every other option;
--help-all and docs/cli.md have them all; `reportgen --help` gives whole sentences."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.cli.options import GroupedOption

HELP_LINES = 80


def options_of(name: str) -> list[str]:
    command = cli.commands[name]
    return [
        param.opts[0]
        for param in command.params
        if isinstance(param, click.Option) and not param.hidden
    ]


@pytest.mark.parametrize("name", ["report", "merge", "demo"])
def test_help_shows_the_everyday_options_and_points_at_the_rest(name: str) -> None:
    short = CliRunner().invoke(cli, [name, "--help"], terminal_width=80)
    assert short.exit_code == 0
    lines = short.output.splitlines()
    assert len(lines) <= HELP_LINES, len(lines)
    hidden = [
        p for p in cli.commands[name].params if isinstance(p, GroupedOption) and not p.everyday
    ]
    if hidden:
        assert lines[-1] == (
            f"{len(hidden)} more options, and more examples: reportgen {name} --help-all"
        )
        assert "--out" in short.output
    full = CliRunner().invoke(cli, [name, "--help-all"], terminal_width=80)
    assert full.exit_code == 0
    for option in options_of(name):
        assert option in full.output, option
    assert "more options" not in full.output


def test_report_help_keeps_the_everyday_options_near_the_top() -> None:
    """--out was at line 179 of 257; now everyday options all fit the first screen."""
    text = CliRunner().invoke(cli, ["report", "--help"], terminal_width=80).output
    lines = text.splitlines()
    for option in ("--out", "--verdicts", "--baseline", "--min", "--max-drop", "--context-k"):
        assert any(line.lstrip().startswith(option) for line in lines[:HELP_LINES]), option
    assert "--gold-format" not in text and "More examples" not in text


def test_command_blurbs_are_whole_sentences() -> None:
    text = CliRunner().invoke(cli, ["--help"], terminal_width=80).output
    commands = text.split("Commands:")[1]
    assert "..." not in commands
    # an entry starts at two spaces and a name; its wrapped lines are indented further
    parts = re.split(r"\n  (?=\S)", "\n" + commands)
    entries = [" ".join(part.split()) for part in parts if part.strip()]
    assert [entry.split()[0] for entry in entries] == sorted(cli.commands)
    assert all(entry.endswith(".") for entry in entries), entries
