"""Count the Polars collects a piece of code runs (issue 28: collect once per stage).

Every eager DataFrame method (``select``, ``filter``, ``join``, ``drop_nulls``, ...) runs
``LazyFrame._collect_eager``; lazy plans run ``LazyFrame.collect`` or
``polars.collect_all``. A count is stable under load, where seconds are not, so a test
can say "this stage collects twice, however many runs it compares".
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import polars as pl
import pytest


def _asked_from(module: str) -> bool:
    """Whether the innermost reportgen frame calling is in ``module`` (a path under
    reportgen/, as ``analyse/drilldown.py``)."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename.replace("\\", "/")
        if "/reportgen/" in name:
            return name.endswith(f"/reportgen/{module}")
        frame = frame.f_back  # type: ignore[assignment]
    return False


@contextmanager
def counting_collects(
    monkeypatch: pytest.MonkeyPatch, module: str | None = None
) -> Iterator[list[int]]:
    """Within the block, ``count[0]`` is the number of collects so far (only those
    asked by ``module``'s code when given)."""
    count = [0]

    def counted(original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if module is None or _asked_from(module):
                count[0] += 1
            return original(*args, **kwargs)

        return wrapper

    with monkeypatch.context() as patch:
        patch.setattr(pl.LazyFrame, "collect", counted(pl.LazyFrame.collect))
        patch.setattr(pl.LazyFrame, "_collect_eager", counted(pl.LazyFrame._collect_eager))
        patch.setattr(pl, "collect_all", counted(pl.collect_all))
        yield count
