"""Where each question sits in its gold file, for annotations that point at the line.

The readers do not keep line numbers for questions; a CI annotation on a stale gold id
is worth more at its line. This reads the file once more, only when asked, and finds
the first line that names each question: a JSON object whose id key holds it, else a
line with it as a whole field (CSV, TSV, TREC qrels).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

ID_KEYS = ("id", "qid", "question_id", "query_id", "_id")
_FIELDS = re.compile(r"[\s,;\t|\"']+")


def question_lines(path: Path, qids: Iterable[str]) -> dict[str, int]:
    """Question id -> the first line (1-based) of ``path`` naming it; ids not found are
    left out, and a file that cannot be read gives none (the annotation then has no line)."""
    wanted = set(qids)
    found: dict[str, int] = {}
    if not wanted:
        return found
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return found
    for number, line in enumerate(text.splitlines(), start=1):
        names = _names(line)
        for qid in names & wanted:
            found.setdefault(qid, number)
        if len(found) == len(wanted):
            break
    return found


def _names(line: str) -> set[str]:
    stripped = line.strip()
    if stripped.startswith("{"):
        try:
            record = json.loads(stripped)
        except (ValueError, RecursionError):
            record = None
        if isinstance(record, dict):
            return {str(record[key]) for key in ID_KEYS if key in record}
    return set(_FIELDS.split(stripped))
