"""Everything that reads an input file: gold sets, runs, verdicts and manifests.

Nothing outside this package opens an input file, so every reading error is an
InputError that names the path, the line and the fix.
"""

from __future__ import annotations

from pathlib import Path

from reportgen.core.filesystem import is_file
from reportgen.errors import UsageError, printable
from reportgen.load.formats.vocabulary import (
    GOLD_FORMATS,
    MANIFEST_FORMATS,
    RUN_FORMATS,
    VERDICT_FORMATS,
)
from reportgen.load.inputs.gold import load_gold
from reportgen.load.inputs.manifest import load_manifest
from reportgen.load.inputs.runs import load_run
from reportgen.load.inputs.verdicts import load_verdicts

__all__ = [
    "GOLD_FORMATS",
    "MANIFEST_FORMATS",
    "RUN_FORMATS",
    "VERDICT_FORMATS",
    "load_gold",
    "load_manifest",
    "load_run",
    "load_verdicts",
    "parse_run_spec",
]


def parse_run_spec(spec: str) -> tuple[str | None, Path]:
    """``name=path`` or a bare path; a file whose own name holds ``=`` is taken whole."""
    whole = Path(spec)
    if "=" not in spec or is_file(whole):
        return None, whole
    name, _, path = spec.partition("=")
    if not name.strip() or not path:
        raise UsageError(
            f"run {spec!r} has an empty name or path",
            "write it as NAME=PATH, e.g. bm25=runs/bm25.trec",
        )
    return printable(name.strip()), Path(path)
