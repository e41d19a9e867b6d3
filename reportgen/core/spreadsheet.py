"""Text cells of per_question.csv that a spreadsheet shows as text, never runs as formulas.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a
formula to Excel, LibreOffice and Google Sheets (OWASP's CSV injection): a question
id such as ``=HYPERLINK(...)`` would run when someone opens the file. Such a cell is
written with a single quote in front, which spreadsheets hide and read as "text".

The CSV is read back too (as a baseline, as a merge shard), so the rule must undo
exactly: a cell that already starts with quotes followed by one of those characters
(``'=x``) gets one more quote as well, and reading strips one quote from every cell
of that shape. Other cells, ``'x`` included, are left as they are both ways.
"""

from __future__ import annotations

import re

import polars as pl

FORMULA_START = r"[=+\-@\t\r]"
_QUOTED_WHEN_WRITTEN = f"^'*{FORMULA_START}"
_QUOTED_WHEN_READ = f"^'+{FORMULA_START}"


def as_text(column: str) -> pl.Expr:
    """The column's cells with a quote in front of those a spreadsheet would run."""
    cell = pl.col(column)
    return (
        pl.when(cell.str.contains(_QUOTED_WHEN_WRITTEN))
        .then(pl.lit("'") + cell)
        .otherwise(cell)
        .alias(column)
    )


def from_text(column: str) -> pl.Expr:
    """The cells as they were before :func:`as_text`."""
    cell = pl.col(column)
    return (
        pl.when(cell.str.contains(_QUOTED_WHEN_READ))
        .then(cell.str.slice(1))
        .otherwise(cell)
        .alias(column)
    )


def unquoted(cell: str) -> str:
    """One cell as it was before :func:`as_text`, for readers that go cell by cell."""
    return cell[1:] if re.match(_QUOTED_WHEN_READ, cell) else cell
