"""The command line: Click only. Each command is a module of this package that parses
its options (declared once, in cli/options/) and calls reportgen.api.

Exit codes: 0 done, 1 a failed quality gate, 2 bad input or usage (one line,
``where: problem. Fix: ...``), 3 an internal error, 130 interrupted; never a
traceback unless --debug (cli/errors.py).
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, MutableMapping
from importlib import import_module

import click

from reportgen.cli.command import ReportgenCommand, ReportgenGroup
from reportgen.version import __version__

COMMANDS = ("demo", "label", "merge", "publish", "render", "report", "shard")
"""The commands: each the function NAME of the module reportgen/cli/NAME.py. To add a
command, write its module and add its name here."""


@click.group(
    "reportgen", cls=ReportgenGroup, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="reportgen")
@click.option(
    "--debug",
    is_flag=True,
    help="On an internal error (exit 3), print the traceback (also: REPORTGEN_DEBUG=1).",
)
def cli(debug: bool) -> None:
    """Tell retrieval failures from generation failures in a RAG system.

    \b
    Quick start, on the bundled synthetic example:
      reportgen demo --out demo-report
    """


class Commands(MutableMapping[str, click.Command]):
    """The group's commands, each module imported when its command is first looked up:
    `reportgen report` never loads `publish` or `label` (Click asks the group's mapping
    for the one command it runs; --help and the docs walk them all)."""

    def __init__(self, names: Iterable[str]) -> None:
        self._loaded: dict[str, click.Command | None] = dict.fromkeys(names)

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            raise KeyError(name)
        found = self._loaded[name]
        if found is None:
            found = self._loaded[name] = _imported(name)
        return found

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded)

    def __len__(self) -> int:
        return len(self._loaded)


def _imported(name: str) -> click.Command:
    command = getattr(import_module(f"reportgen.cli.{name}"), name)
    if not isinstance(command, ReportgenCommand | ReportgenGroup):
        raise TypeError(f"reportgen.cli.{name}.{name} is not a command made with @command")
    return command


cli.commands = Commands(COMMANDS)


def main() -> None:
    """The `reportgen` console script (and `python -m reportgen`)."""
    try:
        cli(prog_name="reportgen")
    finally:
        # The process ends here: the collector need not walk the ~70k objects it still
        # holds one last time (0.1-0.2 s of the demo's 1.9 s). Only the command line
        # may do this; a library caller's objects must stay collectable.
        gc.freeze()
