"""Measure names as a user types them: which exist, the closest one to a typo, and
which are bounded to [0, 1].

Every option or key that names a measure (the gate's ``--min`` and ``--max-drop``, and
any later one) checks it here, at parse time, so that ``recal@3`` gets "did you mean
recall@3?" before any work is done rather than a list of every measure after it.
"""

from __future__ import annotations

import re

from reportgen.errors import UsageError
from reportgen.measure.measures import CUTOFF_MEASURES, WHOLE_LIST_MEASURES
from reportgen.measure.spans import SPAN_MEASURES

UNBOUNDED = frozenset({"context_chars"})
"""Measures counted in units (characters), not shares: any value 0 or more."""

AT_K = tuple(dict.fromkeys([*(m.name for m in CUTOFF_MEASURES), *SPAN_MEASURES]))
"""Measures taken at a cutoff: ``NAME@K``."""
WHOLE = tuple(m.name for m in WHOLE_LIST_MEASURES)
"""Measures over the whole list: no ``@K``."""

PERCENTILES = (50, 90, 95, 99)
SUMMARY_STATISTICS = ("mean", *(f"p{p}" for p in PERCENTILES))
"""What a run's latency, cost or context size is summed up by, per question."""
SUMMARIES = ("latency", "cost", "context_size", "context_words")
"""The per-question quantities beside quality (``runs.NAME.latency``...)."""


def summary_key(quantity: str, statistic: str) -> str:
    """The name a ``--max``/``--max-rise`` rule gives a summary: ``latency_p95_ms``,
    ``cost_mean``, ``context_size_p90``."""
    return f"{quantity}_{statistic}" + ("_ms" if quantity == "latency" else "")


SUMMARY_KEYS = tuple(summary_key(q, s) for q in SUMMARIES for s in SUMMARY_STATISTICS)
"""Every summary a ``--max`` or ``--max-rise`` rule may name."""

_AT = re.compile(r"^(?P<name>.+?)\s*@\s*(?P<k>\d+)$")


def family(measure: str) -> str | None:
    """The measure's name without its cutoff (``recall@3`` -> ``recall``), when known."""
    found = _AT.match(measure)
    if found and found["name"] in AT_K and int(found["k"]) >= 1:
        return found["name"]
    return measure if measure in WHOLE else None


def is_bounded(measure: str) -> bool:
    """Whether every value of the measure lies in [0, 1]."""
    return measure not in SUMMARY_KEYS and family(measure) not in UNBOUNDED


def suggest_measure(measure: str, summaries: bool = False) -> str | None:
    """The known measure name closest to ``measure``, keeping the cutoff typed (and
    among the summaries too when the option takes them)."""
    found = _AT.match(measure)
    k = found["k"] if found else "5"
    candidates = [f"{name}@{k}" for name in AT_K] + list(WHOLE)
    candidates += list(SUMMARY_KEYS) if summaries else []
    import difflib  # only once a measure name is misspelt

    close = difflib.get_close_matches(measure, candidates, n=1, cutoff=0.6)
    return close[0] if close else None


def check_measure(measure: str, where: str, summaries: bool = False) -> None:
    """Refuse a name that no measure has, with the closest one; ``where`` is how it
    was given (``--min recal@3=0.5``); ``summaries``: whether the option also takes a
    latency, cost or context summary (``--max latency_p95_ms=...``)."""
    if family(measure) is not None or (summaries and measure in SUMMARY_KEYS):
        return
    guess = suggest_measure(measure, summaries)
    names = [*(f"{name}@K" for name in AT_K), *WHOLE]
    names += ["latency_STAT_ms", "cost_STAT", "context_size_STAT"] if summaries else []
    known = ", ".join(names)
    hint = f"did you mean {guess}? the" if guess else "the"
    raise UsageError(
        f"{where}: {measure!r} is not a measure",
        f"{hint} measures are {known} (K a cutoff, e.g. recall@5"
        + (f"; STAT one of {', '.join(SUMMARY_STATISTICS)})" if summaries else ")"),
    )
