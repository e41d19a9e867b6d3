"""Each option is declared once (cli/options/), and from that one place it reaches the
command line, its --help group, the config file, the request and docs/cli.md."""

from __future__ import annotations

import importlib.util
import pkgutil
import re
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

import reportgen.cli
from reportgen.cli import COMMANDS, cli
from reportgen.cli.command import ReportgenCommand, command
from reportgen.cli.config import config_keys
from reportgen.cli.options import GROUPS, OUTPUTS, Declared, GroupedOption, declare, takes
from reportgen.cli.options.inputs import CONFIG
from reportgen.cli.options.outputs import OUT
from reportgen.cli.request import filled

REPO = Path(__file__).resolve().parents[2]
DECLARING = ("inputs", "measuring", "outputs")
"""The modules of cli/options/ that declare options."""


@dataclass(frozen=True)
class Part:
    """A request part, as reportgen/request.py writes them."""

    out_dir: Path
    made_up: str = "the field's default"


MADE_UP = declare(OUTPUTS, "--made-up", default="typed default", help="Added here only.")


@command
@takes(CONFIG, OUT, MADE_UP)
def made(**options: Any) -> None:
    """A command taking one new option beside two of `report`'s."""
    click.echo(repr(filled(Part, options)))


def declarations() -> list[Declared]:
    """Every declaration once (one may be named alone and inside a bundle too)."""
    found: dict[int, Declared] = {}
    for name in DECLARING:
        for value in vars(import_module(f"reportgen.cli.options.{name}")).values():
            items = value if isinstance(value, tuple) else (value,)
            found.update({id(item): item for item in items if isinstance(item, Declared)})
    return list(found.values())


def test_a_new_option_is_in_its_help_group() -> None:
    shown = CliRunner().invoke(made, ["--help-all"]).output
    outputs = shown.split("Outputs:")[1]
    assert "--made-up TEXT" in outputs and "Added here only." in outputs
    assert "--made-up" not in shown.split("Outputs:")[0]


def test_a_new_option_is_a_config_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "made-up" in config_keys(made)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reportgen.toml").write_text('made-up = "from the file"\n')
    from_file = CliRunner().invoke(made, [])
    assert from_file.exit_code == 0, from_file.output
    assert "made_up='from the file'" in from_file.output
    typed = CliRunner().invoke(made, ["--made-up", "typed"])
    assert "made_up='typed'" in typed.output  # the command line wins


def test_a_new_option_fills_its_request_field_by_name() -> None:
    result = CliRunner().invoke(made, ["--made-up", "x", "--out", "elsewhere"])
    assert result.output.strip() == "Part(out_dir=PosixPath('elsewhere'), made_up='x')"
    assert filled(Part, {"out_dir": Path("r"), "not_a_field": 1}).made_up == "the field's default"


def test_a_new_option_is_in_the_cli_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location(
        "make_cli_reference", REPO / "scripts" / "make_cli_reference.py"
    )
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    monkeypatch.setattr(generator, "cli", click.Group("reportgen", commands=[made]))
    page = generator.reference()
    assert "## `reportgen made`" in page and "--made-up TEXT" in page


def test_an_unknown_group_is_refused() -> None:
    with pytest.raises(ValueError, match="no --help group"):
        declare("Misc", "--whatever")


def test_each_option_name_is_declared_once() -> None:
    names = [opt for item in declarations() for opt in item.decls if opt.startswith("-")]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_no_command_declares_an_option_of_its_own() -> None:
    """Every option of every command comes from cli/options/ (--help aside)."""
    for name, sub in cli.commands.items():
        own = [
            param.opts[0]
            for param in sub.params
            if isinstance(param, click.Option) and not isinstance(param, GroupedOption)
        ]
        assert own == [], f"{name} declares {own} itself"


def test_every_command_module_is_registered() -> None:
    """A module cli/NAME.py whose NAME is a command is one of `reportgen`'s commands."""
    for module in pkgutil.iter_modules(reportgen.cli.__path__):
        found = getattr(import_module(f"reportgen.cli.{module.name}"), module.name, None)
        if isinstance(found, ReportgenCommand):
            assert module.name in COMMANDS and cli.commands[module.name] is found


def test_report_help_shows_the_examples_then_the_groups_in_order() -> None:
    shown = CliRunner().invoke(cli, ["report", "--help-all"], terminal_width=88).output
    titles = re.findall(r"^(\S[^:\n]*):$", shown, re.M)
    expected = ["Inputs", "Measuring", "Verdicts", "Comparisons and gate", "Outputs"]
    assert titles == [*expected, "Provenance", "Scale-out", "Other"]
    assert shown.index("Each RUN is") < shown.index("Examples:") < shown.index("Inputs:")
    assert titles[:-1] == [group for group in GROUPS if group in titles]
    other = " ".join(shown.split("Other:")[1].split())
    assert other == (
        "-h, --help Show this message and exit. --help-all Show every option and example, and exit."
    )
