"""One error family for everything the user can fix; anything else is a bug.

The CLI turns a :class:`ReportgenError` into a message on stderr and its exit code,
never a traceback. Messages follow ``path:line: what is wrong. Fix: what to do.``
"""

from __future__ import annotations

from pathlib import Path


class ReportgenError(Exception):
    """Base of every error the user can act on."""

    exit_code = 2


class InputError(ReportgenError):
    """A file the user gave cannot be read as what it should be."""

    def __init__(self, path: str | Path, problem: str, fix: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.problem = problem.rstrip(".")
        self.fix = fix.rstrip(".")
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {self.problem}. Fix: {self.fix}.")


class UsageError(ReportgenError):
    """Options that do not fit together, or a value out of range."""

    def __init__(self, problem: str, fix: str) -> None:
        self.problem = problem.rstrip(".")
        self.fix = fix.rstrip(".")
        super().__init__(f"{self.problem}. Fix: {self.fix}.")


class GateFailed(ReportgenError):
    """A quality rule failed; the report was still written."""

    exit_code = 1
