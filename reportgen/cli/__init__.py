"""The command line: Click only. Each command parses its options and calls reportgen.api."""

from __future__ import annotations


def main() -> None:
    """The ``reportgen`` command (pyproject.toml's entry point)."""
    from reportgen.cli.commands import main as run

    run()
