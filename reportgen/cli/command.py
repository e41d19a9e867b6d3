"""The classes of `reportgen` and its commands: errors in one line, help in groups."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from reportgen.cli.errors import guarded_invoke, one_line_parse, run_standalone
from reportgen.cli.options import HELP_ALL, GroupedOption, format_grouped, shows_all
from reportgen.errors import UsageError, closest


class ReportgenCommand(click.Command):
    """A command whose usage errors are one line in the house form, and whose --help
    lists the options under titled groups (Click's own sections: no dependency, no cost
    at start-up)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return one_line_parse(super().parse_args, ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        return guarded_invoke(super().invoke, ctx)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        format_grouped(self, ctx, formatter)

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command's text; plain --help stops before its ``More examples:``."""
        if shows_all(ctx) or not self.help or MORE_EXAMPLES not in self.help:
            super().format_help_text(ctx, formatter)
            return
        full = self.help
        self.help = full[: full.index(MORE_EXAMPLES)].rstrip().removesuffix("\b").rstrip()
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = full

    def get_short_help_str(self, limit: int = 45) -> str:
        return blurb(self)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        """Click's parameters, and --help-all when --help leaves options out."""
        params = super().get_params(ctx)
        if any(isinstance(p, GroupedOption) and not p.everyday for p in params):
            params.append(HELP_ALL_OPTION)
        return params


MORE_EXAMPLES = "More examples:"
"""Where a command's text stops under plain --help (the rest is --help-all's)."""


def _show_all(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    ctx.meta[HELP_ALL] = True
    click.echo(ctx.get_help(), color=ctx.color)
    ctx.exit()


HELP_ALL_OPTION = click.Option(
    ["--help-all"],
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_all,
    help="Show every option and example, and exit.",
)


def blurb(command: click.Command) -> str:
    """A command's line in `reportgen --help`: its first paragraph whole (Click cuts it
    at 45 characters with "...")."""
    if command.short_help:
        return command.short_help
    return " ".join((command.help or "").strip().split("\n\n")[0].split())


class ReportgenGroup(click.Group):
    """The `reportgen` group: every failure becomes its exit code and one line."""

    command_class = ReportgenCommand

    def get_short_help_str(self, limit: int = 45) -> str:
        return blurb(self)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return one_line_parse(super().parse_args, ctx, args)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            name = args[0] if args else ""
            guess = closest(name, self.list_commands(ctx))
            fix = f"did you mean {guess}?" if guess else f"see {ctx.command_path} --help"
            raise UsageError(
                f"{name}: no such command of {ctx.command_path}",
                f"{fix} (the commands: {', '.join(self.list_commands(ctx))})",
            ) from None

    def invoke(self, ctx: click.Context) -> Any:
        return guarded_invoke(super().invoke, ctx)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:  # the caller handles the errors
            return super().main(args, prog_name, complete_var, False, **extra)
        main = super().main
        run_standalone(lambda a, **kw: main(a, prog_name, complete_var, **kw), args, **extra)


def command(function: Any) -> ReportgenCommand:
    """A command of `reportgen`, named after its function; register its module in
    cli/__init__.py."""
    made: ReportgenCommand = click.command(cls=ReportgenCommand)(function)
    return made
