"""Each option of the command line, declared once, and --help that shows them by group.

An option is a `Declared`: the group --help lists it under, then Click's own arguments.
A command takes the declarations it needs (`takes`), and everything else follows from
that one place: the config file's keys are the command's options (cli/config.py), the
request's parts are filled by field name, the option's Python name (cli/request.py), and
docs/cli.md is the help (scripts/make_cli_reference.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import click

from reportgen.core.records import dataclass

Decorator = Callable[[Any], Any]

INPUTS = "Inputs"
MEASURING = "Measuring"
VERDICTS = "Verdicts"
COMPARING = "Comparisons and gate"
OUTPUTS = "Outputs"
PROVENANCE = "Provenance"
SCALE_OUT = "Scale-out"
GROUPS = (INPUTS, MEASURING, VERDICTS, COMPARING, OUTPUTS, PROVENANCE, SCALE_OUT)
"""The titles of --help's sections, in the order a reader meets the questions."""


class GroupedOption(click.Option):
    """A Click option that knows the --help section it belongs to, and whether --help
    shows it (everyday) or only --help-all."""

    def __init__(self, *args: Any, group: str, everyday: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group = group
        self.everyday = everyday


@dataclass(frozen=True)
class Declared:
    """One option: its --help group and Click's arguments, written once for every command."""

    group: str
    decls: tuple[str, ...]
    attrs: Mapping[str, Any]
    everyday: bool = False
    """Shown by --help; the others only by --help-all (and docs/cli.md)."""

    def but(self, **attrs: Any) -> Declared:
        """The same option with one command's own default or help (shard's --out)."""
        return replace(self, attrs={**self.attrs, **attrs})

    def apply(self, command: Any) -> Any:
        option = click.option(
            *self.decls, cls=GroupedOption, group=self.group, everyday=self.everyday, **self.attrs
        )
        return option(command)


def declare(group: str, *decls: str, everyday: bool = False, **attrs: Any) -> Declared:
    """An option of ``group``: ``decls`` and ``attrs`` as `click.option` takes them;
    ``everyday`` options are the ones plain --help shows."""
    if group not in GROUPS:
        raise ValueError(f"{group!r} is no --help group; the groups: {', '.join(GROUPS)}")
    return Declared(group, decls, attrs, everyday)


HELP_ALL = "reportgen.help_all"
"""The context's meta key that asks --help for every option (--help-all, docs/cli.md)."""


def shows_all(ctx: click.Context) -> bool:
    """Whether this --help lists every option, or only the everyday ones."""
    return bool(ctx.meta.get(HELP_ALL))


def takes(*declared: Declared | Decorator) -> Decorator:
    """A command's parameters, in the order written: options and its own arguments."""

    def apply(command: Any) -> Any:
        for item in reversed(declared):
            command = item.apply(command) if isinstance(item, Declared) else item(command)
        return command

    return apply


def format_grouped(
    command: click.Command, ctx: click.Context, formatter: click.HelpFormatter
) -> None:
    """The options under their groups' titles, in GROUPS order; the rest (--help) last.

    Plain --help lists only the everyday options of a command that has more, and ends
    with the line that leads to the others."""
    sections: dict[str, list[tuple[str, str]]] = {}
    options = [p for p in command.get_params(ctx) if isinstance(p, click.Option)]
    brief = not shows_all(ctx) and any(isinstance(p, GroupedOption) for p in options)
    hidden = 0
    for param in options:
        record = param.get_help_record(ctx)
        if record is None:
            continue
        if brief and isinstance(param, GroupedOption) and not param.everyday:
            hidden += 1
            continue
        sections.setdefault(getattr(param, "group", ""), []).append(record)
    rest = sections.pop("", [])
    for title in GROUPS:
        if title in sections:
            with formatter.section(title):
                formatter.write_dl(sections[title])
    if rest:
        with formatter.section("Other" if sections else "Options"):
            formatter.write_dl(rest)
    if hidden:
        formatter.write_paragraph()
        formatter.write_text(
            f"{hidden} more options, and more examples: {ctx.command_path} --help-all"
        )
