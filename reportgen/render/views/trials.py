"""Judge trials in words: one short line for the first screen, the terminal and
summary.md, and the cells' ranges for the full report's verdict notes."""

from __future__ import annotations

from reportgen.render.cells import CELL_NAMES
from reportgen.render.views.common import fmt, plural
from reportgen.schema.sections import VerdictsSection


def trials_line(verdicts: VerdictsSection | None) -> str:
    """``Judged 3 times: 4 flaky questions (trials disagree), 1 tied (out of the cells);
    Fleiss' kappa 0.81, 90% unanimous.``; empty for one trial."""
    # a report written before judge trials has no "trials": one trial
    if verdicts is None or verdicts.get("trials", 1) < 2:
        return ""
    agreement = verdicts["agreement"]
    kappa = "" if agreement is None else f"; Fleiss' kappa {fmt(agreement['fleiss_kappa'])}"
    unanimous = (
        ""
        if agreement is None or agreement["unanimous"] is None
        else (f", {agreement['unanimous']:.0%} unanimous")
    )
    return (
        f"Judged {verdicts['trials']} times: "
        f"{plural(verdicts['flaky']['count'], 'flaky question')} (trials disagree), "
        f"{verdicts['tied']['count']} tied (out of the cells){kappa}{unanimous}."
    )


def ranges_line(verdicts: VerdictsSection) -> str:
    """Each cell's min..max over the trials; the cells shown are the majority's."""
    ranges = verdicts.get("cell_ranges")
    if ranges is None:
        return ""
    spans = ", ".join(
        f"{name} {ranges[key]['min']}..{ranges[key]['max']}" for key, name in CELL_NAMES.items()
    )
    return (
        f"The cells are the majority of {verdicts['trials']} trials; each trial alone gives "
        f"{spans}. Flaky: {', '.join(verdicts['flaky']['ids']) or 'none'}."
        + (f" Tied: {', '.join(verdicts['tied']['ids'])}." if verdicts["tied"]["ids"] else "")
    )
