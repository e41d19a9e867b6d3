"""The one escape for every line reportgen prints to a terminal or a CI log.

A run name, a kind, a version or a question comes from a file a pull request may add,
and a CI runner reads every line a step prints: GitHub Actions runs a line that starts
with ``::`` (after any leading white space) as a workflow command (``::add-mask::``,
``::stop-commands::``, ``::error``), and one with ``##[`` anywhere in it as an older
form of the same (Azure Pipelines: ``##vso[``). A newline or carriage return inside a
value would start such a line. So every line printed goes through :func:`log_line`:
control characters become visible escapes (``\\n``, ``\\x1b``, as in :func:`one_line`),
a leading ``::`` and any ``##[`` lose their meaning, and only reportgen's own
annotations (:func:`annotation_line`, escaped as the runner reads them) start with
``::``.
"""

from __future__ import annotations

import os
import re

from reportgen.errors import printable

_BREAKS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
"""Control characters (C0 but tab, DEL, C1) and the Unicode line and paragraph
separators: each could end the line or drive the terminal."""
_OLD_COMMAND = re.compile(r"#(?=#(?:vso)?\[)", re.IGNORECASE)
"""The first ``#`` of ``##[`` or ``##vso[``, commands that count anywhere in a line."""
_COMMAND_KEY = "::"


def _escape(found: re.Match[str]) -> str:
    return found[0].encode("unicode_escape").decode("ascii")


def log_line(text: str | os.PathLike[str]) -> str:
    """``text`` as one harmless line: what a runner reads as a command is shown, not run."""
    line = _BREAKS.sub(_escape, printable(text))
    line = _OLD_COMMAND.sub(r"\\x23", line)
    start = len(line) - len(line.lstrip())
    if line.startswith(_COMMAND_KEY, start):
        line = f"{line[:start]}\\x3a{line[start + 1 :]}"
    return line


def annotation_line(command: str) -> str:
    """One of reportgen's own workflow commands, made by ``render.annotations.command``
    (its message and properties escaped as GitHub reads them, CR and LF as ``%0D`` and
    ``%0A``): kept a command; any other control character escaped as in every line."""
    if not command.startswith(_COMMAND_KEY) or "\n" in command or "\r" in command:
        raise ValueError(f"not one escaped workflow command: {command!r}")
    return _COMMAND_KEY + log_line(command[len(_COMMAND_KEY) :])
