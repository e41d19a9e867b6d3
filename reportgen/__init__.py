"""reportgen: tell retrieval failures from generation failures in a RAG system.

``reportgen.evaluate(gold, runs)`` measures runs from paths, dicts or DataFrames (a
notebook's way in); ``reportgen.api`` holds everything the CLI does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reportgen.version import __version__

__all__ = ["Results", "__version__", "evaluate"]

if TYPE_CHECKING:
    from reportgen.notebook import Results, evaluate


def __getattr__(name: str) -> Any:
    """``evaluate`` and ``Results`` load on first use: the CLI's start-up never pays for them."""
    if name in ("evaluate", "Results"):
        from reportgen import notebook

        found = getattr(notebook, name)
        globals()[name] = found
        return found
    raise AttributeError(f"module 'reportgen' has no attribute {name!r}")
