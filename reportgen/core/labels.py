"""Version labels: what may name a folder of the site on every system, and a URL segment.

One rule, used where a label comes in (``report --version``, ``merge --version``),
where it goes out (``publish``) and where it is read back (history.jsonl), so a label
refused by one is refused by all, before any work is done. A report given no label is
labelled with the time it was made (:func:`created_at`, reproducible with
SOURCE_DATE_EPOCH).
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime

from reportgen.errors import UsageError

VERSION_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")
"""Letters, digits and ``. _ + -``, starting with a letter or digit, at most 100."""

WINDOWS_RESERVED = re.compile(r"(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(\..*)?", re.IGNORECASE)
"""Device names Windows gives no file, whatever the extension (``nul.txt`` too)."""

SITE_NAMES = frozenset({"index.html", "history.jsonl", "docs"})
"""Names the site itself uses at its top level."""

LABEL_FIX = (
    "use letters, digits and . _ + - (at most 100, starting with a letter or digit, "
    "not ending with a dot, not a Windows device name such as CON or nul.txt, not docs)"
)


def label_problem(label: str) -> str | None:
    """Why ``label`` cannot name a version folder, or None when it can."""
    if not VERSION_LABEL.fullmatch(label):
        return f"version label {label!r} cannot name a folder of the site"
    if label.endswith("."):
        return f"version label {label!r} ends with a dot, which Windows drops from file names"
    if WINDOWS_RESERVED.fullmatch(label):
        return f"version label {label!r} is a device name on Windows, which cannot hold it"
    if label.lower() in SITE_NAMES:
        return f"version label {label!r} is a name the site itself uses"
    return None


def check_version_label(label: str) -> str:
    """``label``, when it can name a version folder; else a usage error saying why."""
    problem = label_problem(label)
    if problem is not None:
        raise UsageError(problem, f"label the report with --version (version): {LABEL_FIX}")
    return label


def created_at() -> datetime:
    """Now, or SOURCE_DATE_EPOCH when set, so that builds can be reproduced."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return datetime.fromtimestamp(int(epoch), tz=UTC)
    return datetime.now(tz=UTC).replace(microsecond=0)


def default_version_label(created: datetime) -> str:
    """The label of a report given none: when it was made."""
    return created.strftime("%Y%m%d-%H%M%S")
