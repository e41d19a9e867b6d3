"""GitHub Actions workflow commands: the gate's failures and stale gold ids as annotations.

Under GitHub Actions (``GITHUB_ACTIONS=true``) a line ``::error file=F,line=N::text``
on stdout becomes an annotation on the run's page and in the pull request's diff.
GitHub shows a limited number per step, so each class is capped at ``CAP`` with a
summary line for the rest. Messages and properties are escaped as GitHub's runner
reads them (``%``, CR and LF everywhere; ``:`` and ``,`` in properties too), so a
hostile id cannot end the command early or start another.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CAP = 10
"""Annotations per class; the rest are counted in one summary line."""


def escape_data(text: str) -> str:
    """A command's message, as GitHub's runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property's value (file, title): also ``:`` and ``,``, which end it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **properties: str | int | None) -> str:
    """One workflow command line: ``::kind prop=value,...::message``."""
    given = ",".join(
        f"{name}={escape_property(str(value))}"
        for name, value in properties.items()
        if value is not None
    )
    return f"::{kind}{' ' + given if given else ''}::{escape_data(message)}"


def stale_questions(report: Mapping[str, Any]) -> dict[str, list[str]]:
    """Question id -> its gold ids missing from the index manifest (the kept ones)."""
    hygiene = report.get("hygiene") or {}
    stale = hygiene.get("stale") or {}
    questions = stale.get("questions") or {}
    return {str(qid): list(ids) for qid, ids in questions.items()}


def workflow_commands(
    report: Mapping[str, Any], gold_file: str | None, gold_lines: Mapping[str, int]
) -> list[str]:
    """The annotations of a report: ``::error`` per failed gate rule, ``::warning`` per
    question with stale gold ids (at its line of ``gold_file`` when known)."""
    gate = report.get("gate") or {}
    failed = [rule for rule in gate.get("rules") or [] if not rule.get("passed")]
    lines = [
        command("error", str(rule["message"]), title="reportgen quality gate")
        for rule in failed[:CAP]
    ]
    if len(failed) > CAP:
        lines.append(
            command(
                "error",
                f"{len(failed) - CAP} more quality rules failed (of {len(failed)}): see the report",
                title="reportgen quality gate",
            )
        )
    stale = stale_questions(report)
    section = (report.get("hygiene") or {}).get("stale") or {}
    total = int(section.get("question_count", 0))
    why = (
        "not in the index manifest"
        if section.get("basis", "manifest") == "manifest"
        else "returned by no run (possibly stale: give --manifest to know)"
    )
    for qid, ids in list(stale.items())[:CAP]:
        lines.append(
            command(
                "warning",
                f"question {qid}: gold chunk ids {why}: {', '.join(ids)} (stale gold "
                "scores 0 whatever search does; update the gold set or the index)",
                title="reportgen stale gold",
                file=gold_file,
                line=gold_lines.get(qid),
            )
        )
    if max(total, len(stale)) > CAP:
        lines.append(
            command(
                "warning",
                f"{max(total, len(stale)) - CAP} more questions with stale gold ids "
                f"(of {max(total, len(stale))}): see the report's hygiene section",
                title="reportgen stale gold",
            )
        )
    return lines
