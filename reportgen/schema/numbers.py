"""The number format every reader sees, in one place below every layer.

HTML, Markdown, the CLI and the gate's messages (written into report.json by the
analysis stage) print a mean the same way.
"""

from __future__ import annotations


def fmt(value: float | None) -> str:
    """A mean or a share as printed: three decimals, ``n/a`` when there is none."""
    return "n/a" if value is None else f"{value:.3f}"
