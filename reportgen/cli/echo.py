"""Every line the command line prints goes out here, through ``core.log_line``.

No other module of the CLI calls ``click.echo``: a line that holds a run name, a kind,
a version, a question or a file name can then never start a CI runner's workflow
command nor a new line (tests/hardening/test_workflow_commands.py reads every output).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

import click

from reportgen.core.log_line import annotation_line, log_line


def say(text: str, err: bool = False, file: IO[Any] | None = None) -> None:
    """One line to stdout (stderr with ``err``, or ``file``), escaped."""
    click.echo(log_line(text), file=file, err=err and file is None)


def say_lines(lines: Iterable[str], err: bool = False) -> None:
    """Each of ``lines`` as one line (an empty one is a blank line)."""
    for line in lines:
        say(line, err=err)


def annotate(commands: Iterable[str]) -> None:
    """reportgen's own workflow commands (``render.annotations``), kept commands."""
    for command in commands:
        click.echo(annotation_line(command))
