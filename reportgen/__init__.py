"""reportgen: tell retrieval failures from generation failures in a RAG system.

``reportgen.evaluate(gold, runs)`` measures runs from paths, dicts or DataFrames (a
notebook's way in) and returns :class:`Results`; ``reportgen.api`` holds everything the
CLI does. Errors a caller can fix are :class:`ReportgenError` (:class:`InputError` for
data, :class:`UsageError` and :class:`ParameterError` for arguments).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reportgen.errors import InputError, ParameterError, ReportgenError, UsageError
from reportgen.version import __version__

__all__ = [
    "InputError",
    "ParameterError",
    "ReportgenError",
    "Results",
    "UsageError",
    "__version__",
    "evaluate",
]

_LAZY = ("evaluate", "Results")

if TYPE_CHECKING:
    from reportgen.notebook import Results, evaluate


def __getattr__(name: str) -> Any:
    """``evaluate`` and ``Results`` load on first use: the CLI's start-up never pays for them."""
    if name in _LAZY:
        from reportgen import notebook

        found = getattr(notebook, name)
        globals()[name] = found
        return found
    raise AttributeError(f"module 'reportgen' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (``dir(reportgen)``, tab completion), not the imports' names."""
    return sorted(__all__)
