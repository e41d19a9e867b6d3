"""Read what reportgen wrote before: a report folder, and a site's history.

``publish`` copies a report folder into a site; it reads report.json to learn the
version and the headline numbers, and history.jsonl to draw the trends.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reportgen.core.labels import LABEL_FIX, label_problem
from reportgen.core.model import fingerprint_of
from reportgen.errors import InputError
from reportgen.load.formats.files import decode, read_bytes
from reportgen.load.formats.json_input import UnreadableJSON, json_document, strict_loads
from reportgen.schema import FORMAT_VERSION, READABLE_FORMAT_VERSIONS
from reportgen.schema.check import SchemaProblem, check_report

REPORT_KEYS = ("format_version", "version", "created", "context_k", "gold", "runs")


def read_report(path: Path, required: Sequence[str], fix: str) -> dict[str, Any]:
    """A report.json that reportgen wrote, holding every ``required`` key.

    A dotted key (``gold.fingerprint``) names a key inside an object. Baselines,
    shards and ``publish`` all read reports through here, so a broken one reads the
    same whichever command finds it.
    """
    report = json_document(path, fix)
    if not isinstance(report, dict):
        raise InputError(path, "not a reportgen report (no JSON object)", fix)
    check_format_version(path, report)
    try:  # versions 1 and 2 hold the same types: 2 changed what a list holds, not its type
        check_report({**report, "format_version": FORMAT_VERSION})
    except SchemaProblem as problem:
        raise InputError(
            path,
            f"{problem.where} is {problem.problem}: not as reportgen writes it (edited or damaged)",
            f"{fix}, unedited (or write the report again)",
        ) from None
    for key in required:
        value: Any = report
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is None:
            raise InputError(path, f"not a reportgen report (no {key!r})", fix)
    return report


def check_format_version(path: Path, report: dict[str, Any]) -> None:
    """A report.json of a format this reportgen cannot read is refused, not misread.

    Every earlier version stays readable (READABLE_FORMAT_VERSIONS); a newer one may
    have changed what a key means (docs/report-json.md says when the version changes).
    """
    written = report.get("format_version")
    if isinstance(written, bool) or not isinstance(written, int):
        return  # a missing or odd one: the keys each reader requires are checked next
    if written not in READABLE_FORMAT_VERSIONS:
        readable = " and ".join(str(version) for version in READABLE_FORMAT_VERSIONS)
        raise InputError(
            path,
            f"report.json format_version {written}: this reportgen reads {readable}",
            f"upgrade reportgen to the one that wrote it ({report.get('tool_version')!s}), "
            "or give a report written by this one",
        )


def load_report_dir(report_dir: Path) -> dict[str, Any]:
    """report.json of a folder written by ``reportgen report`` or ``reportgen demo``,
    with the types publish reads checked."""
    path = report_dir / "report.json"
    fix = "give the folder that `reportgen report --out` or `reportgen demo --out` wrote"
    if not path.is_file():
        raise InputError(path, "no report.json in this folder", fix)
    report = read_report(path, REPORT_KEYS, fix)
    check_published_types(path, report)
    problem = label_problem(report["version"])
    if problem is not None:
        raise InputError(path, problem, f"re-run the report with another --version: {LABEL_FIX}")
    return report


JSON_TYPES: dict[type, str] = {
    str: "a string",
    bool: "true or false",
    int: "an integer",
    float: "a number",
    dict: "an object",
    list: "an array",
    type(None): "null",
}


def _json_type(value: Any) -> str:
    return JSON_TYPES.get(type(value), type(value).__name__)


def _expect(path: Path, where: str, value: Any, allowed: tuple[type, ...], expected: str) -> None:
    """``value`` at key path ``where`` is one of ``allowed`` (bool is never a number)."""
    if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
        raise InputError(
            path,
            f"{where} is {_json_type(value)}, expected {expected}",
            "publish the folder that `reportgen report --out` wrote, unedited "
            "(or run the report again)",
        )


def check_published_types(path: Path, report: dict[str, Any]) -> None:
    """The keys ``publish`` reads have the types reportgen writes, or say which does not.

    A report.json edited by hand (``"means": "x"``) would otherwise fail deep inside
    the index, far from the key to fix.
    """
    number = (int, float, type(None))
    _expect(path, "version", report["version"], (str,), "a string")
    _expect(path, "created", report["created"], (str,), "a string")
    _expect(path, "context_k", report["context_k"], (int,), "an integer")
    _expect(path, "tool_version", report.get("tool_version"), (str, type(None)), "a string or null")
    gold = report["gold"]
    _expect(path, "gold", gold, (dict,), "an object")
    for key, allowed, expected in (
        ("version", (str, type(None)), "a string or null"),
        ("fingerprint", (str, type(None)), "a string or null"),
        ("questions", (int, type(None)), "an integer or null"),
    ):
        _expect(path, f"gold.{key}", gold.get(key), allowed, expected)
    runs = report["runs"]
    _expect(path, "runs", runs, (dict,), "an object")
    for name, run in runs.items():
        _expect(path, f"runs.{name}", run, (dict,), "an object")
        _expect(path, f"runs.{name}.n", run.get("n"), (int, type(None)), "an integer or null")
        means = run.get("means")
        _expect(path, f"runs.{name}.means", means, (dict,), "an object")
        for key, value in means.items():
            _expect(path, f"runs.{name}.means.{key}", value, number, "a number or null")
    attribution = report.get("attribution", {})
    _expect(path, "attribution", attribution, (dict,), "an object")
    for name, section in attribution.items():
        _expect(path, f"attribution.{name}", section, (dict,), "an object")
        cells = section.get("cells")
        _expect(path, f"attribution.{name}.cells", cells, (dict,), "an object")
        for key, value in cells.items():
            _expect(path, f"attribution.{name}.cells.{key}", value, (int,), "an integer")


HISTORY_FIX = "restore history.jsonl from version control; it is append-only"


def history_entries(path: Path, required: Sequence[str]) -> list[tuple[int, dict[str, Any]]]:
    """history.jsonl's entries with their line numbers; each must hold ``required``.

    A label that could not name a folder (``../x``, ``CON``) is refused here, so that
    nothing read from a history ever builds a path outside the site.
    """
    entries = []
    for number, line in enumerate(decode(path, read_bytes(path)).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = strict_loads(line)
        except json.JSONDecodeError as error:
            raise InputError(path, f"not JSON ({error.msg})", HISTORY_FIX, number) from None
        except UnreadableJSON as error:
            raise InputError(path, error.problem, HISTORY_FIX, number) from None
        except RecursionError:
            raise InputError(path, "JSON nested too deeply", HISTORY_FIX, number) from None
        missing = [key for key in required if not isinstance(entry, dict) or key not in entry]
        if missing:
            raise InputError(
                path,
                f"the entry lacks {', '.join(repr(key) for key in missing)}",
                HISTORY_FIX,
                number,
            )
        if "version" in required:
            version = entry["version"]
            problem = (
                label_problem(version) if isinstance(version, str) else "the version is not text"
            )
            if problem is not None:
                raise InputError(path, problem, f"{HISTORY_FIX}; {LABEL_FIX}", number)
        entries.append((number, entry))
    return entries


def load_history(path: Path) -> list[dict[str, Any]]:
    """Every entry of a site's history.jsonl (empty when the site is new), each with
    its gold fingerprint as this reportgen builds it (see ``current_fingerprint``).
    A link is refused: publish would copy the file it names into the site."""
    if path.is_symlink():
        raise InputError(
            path,
            "a symbolic link; publish reads and writes a site's history only inside it",
            "replace the link with the file itself (publish writes no links)",
        )
    if not path.is_file():
        return []
    return [
        with_current_fingerprint(entry, path.parent, path.parent / str(entry["version"]))
        for _, entry in history_entries(path, ("version", "created"))
    ]


FINGERPRINT_FROM = "question_digests"
"""What history entries mark their gold fingerprint as built from (``gold.fingerprint_from``)."""
DIGEST_FINGERPRINTS_SINCE = 2
"""The report format_version from which gold.fingerprint is built from the question digests."""


def report_fingerprint(report: Mapping[str, Any]) -> str | None:
    """A report's gold fingerprint as this reportgen builds it.

    Reports of format_version 1 hashed the whole gold file; their question digests give
    today's fingerprint, so upgrading reportgen is not read as a change of gold set.
    """
    gold = report.get("gold")
    if not isinstance(gold, dict):
        return None
    written = report.get("format_version")
    if isinstance(written, int) and written >= DIGEST_FINGERPRINTS_SINCE:
        fingerprint = gold.get("fingerprint")
        return fingerprint if isinstance(fingerprint, str) else None
    digests = gold.get("question_digests")
    if not isinstance(digests, dict) or not digests:
        return None
    if not all(isinstance(value, str) for value in digests.values()):
        return None
    return fingerprint_of(digests)


def first_link(site: Path, path: Path) -> Path | None:
    """The first step from ``site`` down to ``path`` (inside it) that is a symbolic link.

    ``publish`` writes no links: one in a site leads elsewhere on the machine, and
    nothing is read through it.
    """
    step = site
    for part in path.relative_to(site).parts:
        step = step / part
        if step.is_symlink():
            return step
    return None


def current_fingerprint(entry: Mapping[str, Any], site: Path, folder: Path) -> str | None:
    """A history entry's gold fingerprint as this reportgen builds it, or None (unknown).

    Entries published before the fingerprint was built from the question digests do not
    say ``gold.fingerprint_from``: their version folder (in ``site``) has a report.json
    that tells (a pruned, unreadable or linked one leaves the fingerprint unknown, which
    changes no trend segment and matches no gold set).
    """
    gold = entry.get("gold")
    if not isinstance(gold, dict) or not isinstance(gold.get("fingerprint"), str):
        return None
    if gold.get("fingerprint_from") == FINGERPRINT_FROM:
        return str(gold["fingerprint"])
    report_path = folder / "report.json"
    if not report_path.is_file() or first_link(site, report_path) is not None:
        return None
    try:
        report = json_document(report_path, HISTORY_FIX)
    except InputError:
        return None
    return report_fingerprint(report) if isinstance(report, dict) else None


def with_current_fingerprint(entry: dict[str, Any], site: Path, folder: Path) -> dict[str, Any]:
    """The entry with its fingerprint in today's scheme (marked so), or as it was."""
    gold = entry.get("gold")
    if not isinstance(gold, dict) or gold.get("fingerprint_from") == FINGERPRINT_FROM:
        return entry
    fingerprint = current_fingerprint(entry, site, folder)
    return {
        **entry,
        "gold": {**gold, "fingerprint": fingerprint, "fingerprint_from": FINGERPRINT_FROM},
    }
