"""How many times a reportgen command collects a Polars frame, and from where.

Usage: python count_collects.py [--top N] -- REPORTGEN ARGS...

Patches ``polars.LazyFrame.collect``, ``LazyFrame._collect_eager`` (what every eager
DataFrame method runs: ``select``, ``filter``, ``join``, ...) and ``polars.collect_all``
(a count is stable under load, where seconds are not), runs the command in this
process, and prints the total and the reportgen lines that collected most often.
"""

from __future__ import annotations

import collections
import runpy
import sys
import traceback

import polars as pl

calls: collections.Counter[str] = collections.Counter()


def where() -> str:
    """The innermost reportgen frame below this one."""
    for frame in reversed(traceback.extract_stack()[:-2]):
        if "/reportgen/" in frame.filename:
            return f"{frame.filename.split('/reportgen/')[-1]}:{frame.lineno} {frame.name}"
    return "?"


def counting(original):  # type: ignore[no-untyped-def]
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[where()] += 1
        return original(*args, **kwargs)

    return wrapper


def main() -> None:
    split = sys.argv.index("--")
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv[:split] else 15
    pl.LazyFrame.collect = counting(pl.LazyFrame.collect)  # type: ignore[method-assign]
    pl.LazyFrame._collect_eager = counting(pl.LazyFrame._collect_eager)  # type: ignore[method-assign]
    pl.collect_all = counting(pl.collect_all)
    sys.argv = ["reportgen", *sys.argv[split + 1 :]]
    try:
        runpy.run_module("reportgen", run_name="__main__")
    except SystemExit as done:
        if done.code:
            print(f"exit {done.code}", file=sys.stderr)
    print(f"{sum(calls.values())} collects", file=sys.stderr)
    for line, count in calls.most_common(top):
        print(f"{count:6d}  {line}", file=sys.stderr)


if __name__ == "__main__":
    main()
