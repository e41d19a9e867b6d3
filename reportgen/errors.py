"""One error family for everything the user can fix; anything else is a bug.

The CLI turns a :class:`ReportgenError` into a message on stderr and its exit code,
never a traceback. Messages follow ``path:line: what is wrong. Fix: what to do.``
Every other exception is an internal error (exit 3): one line, the traceback only
with ``--debug``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

EXIT_DONE = 0
EXIT_GATE_FAILED = 1
"""A quality rule failed (or a warning under --strict); the report was written."""
EXIT_BAD_INPUT = 2
"""Bad input or usage: a file, an option or a config key the user can fix."""
EXIT_INTERNAL = 3
"""A bug in reportgen: an exception no check foresaw."""
EXIT_INTERRUPTED = 130
"""Ctrl-C (SIGINT), as a shell reports a process it interrupted."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str | os.PathLike[str]) -> str:
    """Text any terminal, JSON or HTML can hold: each undecodable byte becomes U+FFFD.

    File names and arguments that are not UTF-8 reach Python as text with lone
    surrogates (surrogateescape); so may a JSON string (``"\\ud800"``).
    """
    value = os.fspath(text)
    if not _SURROGATE.search(value):
        return value
    try:  # bytes that came in through surrogateescape (argv, file names)
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # lone surrogates of another origin
        return _SURROGATE.sub("\ufffd", value)


_CONTROL = re.compile("[\x00-\x1f\x7f]")


def one_line(text: str) -> str:
    """A name shown in a message: control characters as escapes (``\\n``, ``\\x1b``), so a
    file name cannot break the line or colour the terminal."""
    return _CONTROL.sub(lambda found: found[0].encode("unicode_escape").decode(), text)


MAX_PROBLEM = 300
"""Characters of a problem shown: a value quoted from a hostile file may be megabytes."""


def shortened(text: str) -> str:
    """``text``, its middle cut out when it is longer than MAX_PROBLEM."""
    if len(text) <= MAX_PROBLEM:
        return text
    half = MAX_PROBLEM // 2
    return f"{text[:half]}...({len(text) - 2 * half} characters)...{text[-half:]}"


class ReportgenError(Exception):
    """Base of every error the user can act on."""

    exit_code = EXIT_BAD_INPUT

    def __str__(self) -> str:
        return printable(super().__str__())


class InputError(ReportgenError):
    """A file the user gave cannot be read as what it should be."""

    def __init__(self, path: str | Path, problem: str, fix: str, line: int | None = None) -> None:
        self.path = one_line(printable(path))
        self.line = line
        self.problem = shortened(problem.rstrip("."))
        self.fix = fix.rstrip(".")
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {self.problem}. Fix: {self.fix}.")


class UsageError(ReportgenError):
    """Options that do not fit together, or a value out of range."""

    def __init__(self, problem: str, fix: str) -> None:
        self.problem = problem.rstrip(".")
        self.fix = fix.rstrip(".")
        super().__init__(f"{self.problem}. Fix: {self.fix}.")


class ParameterError(UsageError):
    """One value the caller passed is wrong: named as the caller spelled it.

    Through Python the message names the API's parameter (``context_k=0: must be at
    least 1``); the CLI shows the same error under its option (``--context-k 0: ...``).
    ``problem`` and ``fix`` are worded for both.
    """

    def __init__(self, parameter: str, value: object, problem: str, fix: str, option: str) -> None:
        self.parameter = parameter
        self.value = value
        self.option = option
        super().__init__(f"{parameter}={value!r}: {problem.rstrip('.')}", fix)
        self.problem = problem.rstrip(".")

    def for_option(self, shown_value: str) -> str:
        """The message as the CLI prints it: the option and the value as typed."""
        return f"{self.option} {shown_value}: {self.problem}. Fix: {self.fix}."


def reworded(error: InputError, names: Mapping[str, str]) -> InputError:
    """``error`` with the command line's option names (``--on-gold-change intersect``)
    replaced by what a Python caller writes (``on_gold_change='intersect'``): the readers
    word their fixes for the CLI, the Python API re-words them. Longer names first, so
    that ``--baseline-version`` is not read as ``--baseline``."""
    pattern = re.compile("|".join(re.escape(name) for name in sorted(names, key=len, reverse=True)))

    def swap(text: str) -> str:
        return pattern.sub(lambda found: names[found.group(0)], text)

    return InputError(error.path, swap(error.problem), swap(error.fix), error.line)


class GateFailed(ReportgenError):
    """A quality rule failed; the report was written. Its message is one line per rule."""

    exit_code = EXIT_GATE_FAILED


def rules_failed(failed: Sequence[str]) -> GateFailed:
    """The failed rules under one line that counts them, each rule one line: a line break
    inside a rule (a run name may hold one) is shown as ``\\n``, never a new line."""
    count = f"{len(failed)} quality rules" if len(failed) > 1 else "1 quality rule"
    lines = [line.replace("\r", "\\r").replace("\n", "\\n") for line in failed]
    return GateFailed(f"{count} failed (the report was written):\n" + "\n".join(lines))


def closest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The choice a typo most likely meant (``max-drops`` -> ``max-drop``), if any is close."""
    import difflib  # only once something is misspelt

    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return found[0] if found else None


def case_hint(unmatched: Iterable[str], known: Iterable[str]) -> str:
    """A clause for a message about ids that match nothing (``Q1`` against a gold ``q1``):
    how many match a known id when letter case is ignored; empty when none does."""
    folded: dict[str, str] = {}
    for name in known:
        folded.setdefault(name.casefold(), name)
    pairs = [(name, folded[name.casefold()]) for name in unmatched if name.casefold() in folded]
    if not pairs:
        return ""
    given, meant = pairs[0]
    return (
        f" ({len(pairs)} match a gold id when letter case is ignored, e.g. {given!r} and "
        f"{meant!r}: ids are compared exactly, so write them with the same case)"
    )
