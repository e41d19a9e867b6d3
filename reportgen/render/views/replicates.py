"""Run replicates in words: the noise floor beside a comparison, the flaky count."""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.render.views.common import fmt, plural
from reportgen.schema import Report


def compared_runs(entry: Mapping[str, object]) -> tuple[str, ...]:
    """The runs a comparison names: against a baseline its sides are labelled
    ``rag (v1)``, and the run is ``entry["run"]``."""
    named = (entry["before"], entry["after"], entry.get("run"))
    return tuple(str(name) for name in named if name is not None)


def noise_floor_note(report: Report, runs: tuple[str, ...]) -> str:
    """`` Noise floor (replicates' means apart): dense recall@5 0.012, hit@5 0.``: the
    change rerunning one system gives, for each of ``runs`` given several times."""
    k = report["context_k"]
    keys = (f"recall@{k}", f"hit@{k}", f"mrr@{k}")
    parts = []
    known = report.get("runs") or {}
    for name in dict.fromkeys(runs):
        section = known.get(name)
        if section is None or "noise_floor" not in section or "replicates" not in section:
            continue
        floor = section["noise_floor"]
        shown = ", ".join(f"{key} {fmt(floor[key])}" for key in keys if key in floor)
        parts.append(f"{name} ({section['replicates']['count']} replicates) {shown}")
    if not parts:
        return ""
    return (
        " Noise floor (max - min of the replicates' means; a smaller change is what "
        f"rerunning one system gives): {'; '.join(parts)}."
    )


def replicates_line(report: Report) -> str:
    """``Replicates: dense 3 runs, 4 flaky questions (hit@5 differs).``; empty without."""
    k = report["context_k"]
    parts = [
        f"{name} {run['replicates']['count']} runs, "
        f"{plural(run['flaky']['count'], 'flaky question')}"
        for name, run in report["runs"].items()
        if "replicates" in run
    ]
    return f"Replicates: {'; '.join(parts)} (hit@{k} differs between them)." if parts else ""
