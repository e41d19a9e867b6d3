"""How ``publish`` (site.py) changes a site so that no kill and no second publisher
can lose a version.

Under the site's lock (sitelock.py), in this order:

1. recover: finish or undo what a killed publish left (below), remove its debris;
2. stage the version in ``SITE/.publish-XXXX/VERSION`` and render history and index in
   memory; a journal (``journal.json``) written last says the stage is complete;
3. swap the staged folder in, in one step where the system can (swap.py): at every
   instant ``SITE/VERSION`` is a complete folder, old or new;
4. replace history.jsonl, then index.html (each by rename), then move pruned
   folders (``--keep``) aside; remove the journal, then the staging folder.

Recovery reads each journal left behind: if the swap had happened (the version's
report.json is the one staged), the history gets its line if it lacks it (rolled
forward); if not, the staged copy is dropped (rolled back). On systems without an
atomic swap the old copy waits in ``previous`` between two renames and is put back.
Folders of versions the history marks as pruned are removed, and so are the staging
folders and temporary files of killed publishes. The index is rebuilt from the
history every time, so a stale one is never kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from reportgen.core.labels import label_problem
from reportgen.errors import InputError
from reportgen.load.previous.published import load_history
from reportgen.render.manifest import read_manifest
from reportgen.render.output import atomic_write
from reportgen.site.lock import site_lock
from reportgen.site.swap import exchange

HISTORY = "history.jsonl"
ARCHIVE = "history-archive.jsonl"
"""Lines ``publish --keep`` moved out of history.jsonl: appended, never read back."""
INDEX = "index.html"
STAGING_PREFIX = ".publish-"
JOURNAL = "journal.json"
PREVIOUS = "previous"

PUBLISHED_FILES = re.compile(
    r"^(index\.html|report\.md|summary\.md|report\.json|per_question\.(csv|parquet)"
    r"|charts/[\w.-]+\.(svg|png))$"
)
"""What a report folder holds that belongs on the site; anything else there is left."""


def report_files(report_dir: Path) -> list[Path]:
    """The files of a report folder that go on the site, relative to it.

    A symbolic link is refused rather than followed or skipped: followed, it would
    publish whatever it points at (``report.md -> /etc/passwd``); skipped, the site
    would silently lack a file the report links to.
    """
    if not report_dir.is_dir():
        raise InputError(
            report_dir,
            "no such folder",
            "give the folder that `reportgen report --out` or `reportgen demo --out` wrote",
        )
    listing = read_manifest(report_dir)
    if listing is not None:  # the report's own files, not what else the folder holds
        candidates = [Path(name) for name in listing]
        candidates += sorted({Path(name).parent for name in listing} - {Path()})  # links?
    else:  # written before manifests: what looks like a report's file
        candidates = [Path(entry.name) for entry in os.scandir(report_dir)]
        charts = report_dir / "charts"
        if charts.is_dir() and not charts.is_symlink():
            candidates += [Path("charts", entry.name) for entry in os.scandir(charts)]
    found = []
    for relative in sorted(candidates):
        if not (PUBLISHED_FILES.match(relative.as_posix()) or relative == Path("charts")):
            continue
        path = report_dir / relative
        if path.is_symlink():
            raise InputError(
                path,
                "is a symbolic link; publish copies only regular files, so that a link "
                "cannot put what it points at on the site",
                "replace the link with the file itself (cp --remove-destination TARGET LINK) "
                "or remove it",
            )
        if relative != Path("charts") and path.is_file():
            found.append(relative)
    return found


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _raw(path: Path) -> list[bytes]:
    """A file's bytes (none when missing); a link is refused, never followed."""
    if path.is_symlink():
        raise InputError(
            path,
            "a symbolic link; publish writes a site's files only inside it",
            "replace the link with the file itself (publish writes no links)",
        )
    return [path.read_bytes()] if path.is_file() else []


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True) if path.is_file() else []


@contextmanager
def locked(site: Path, lock_timeout: float) -> Iterator[list[str]]:
    """Hold the site's lock, recover what killed publishes left, yield what was done."""
    with site_lock(site, lock_timeout):
        yield recover(site)


def new_staging(site: Path) -> Path:
    """A fresh staging folder inside the site (same file system: renames are atomic)."""
    return Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=site))


def install(
    site: Path,
    staging: Path,
    version: str,
    line: bytes,
    history: bytes,
    index: bytes,
    pruned: Sequence[str],
    archived: Sequence[bytes] = (),
) -> None:
    """Swap ``staging/version`` in, then write ``history`` and ``index``, then remove the
    ``pruned`` folders; ``line`` is the history line the journal lets recovery add.
    ``archived`` lines are appended to the archive first: a kill may repeat one there,
    never lose one."""
    staged, target, aside = staging / version, site / version, staging / PREVIOUS
    journal = {
        "version": version,
        "line": line.decode(),
        "report_sha256": _sha256(staged / "report.json"),
    }
    atomic_write(staging / JOURNAL, json.dumps(journal).encode(), "--site")
    if archived:
        atomic_write(site / ARCHIVE, b"".join([*_raw(site / ARCHIVE), *archived]), "--site")
    how = _swap_in(staged, target, aside)
    try:
        atomic_write(site / HISTORY, history, "--site")
        atomic_write(site / INDEX, index, "--site")
    except BaseException:
        _swap_back(staged, target, aside, how)
        raise
    for name in pruned:
        _remove_folder(site / name, staging)
    (staging / JOURNAL).unlink()


def _swap_in(staged: Path, target: Path, aside: Path) -> str:
    """Put ``staged`` at ``target``; how: "exchange" (the old copy is now at
    ``staged``), "renames" (it is at ``aside``) or "new" (there was none)."""
    if not target.exists():
        staged.rename(target)
        return "new"
    if exchange(staged, target):
        return "exchange"
    target.rename(aside)  # no atomic swap here: the journal lets recovery put it back
    try:
        staged.rename(target)
    except BaseException:
        aside.rename(target)
        raise
    return "renames"


def _swap_back(staged: Path, target: Path, aside: Path, how: str) -> None:
    """Undo :func:`_swap_in` after a failure (not a kill) that came after it."""
    if how == "exchange":
        exchange(staged, target)
    elif how == "renames":
        target.rename(staged)
        aside.rename(target)
    else:
        target.rename(staged)


def _remove_folder(folder: Path, staging: Path) -> None:
    """Move a folder aside in one rename, then delete it: the site never shows half."""
    if folder.is_dir() and not folder.is_symlink():
        aside = staging / f"pruned-{folder.name}"
        folder.rename(aside)
        shutil.rmtree(aside)


def recover(site: Path) -> list[str]:
    """Finish or undo every publish of ``site`` that was killed; remove its debris."""
    notes = []
    history_path = site / HISTORY
    for staging in sorted(site.glob(f"{STAGING_PREFIX}*")):
        if not staging.is_dir() or staging.is_symlink():
            staging.unlink(missing_ok=True)
            continue
        note = _recover_one(site, staging, history_path)
        if note:
            notes.append(note)
        shutil.rmtree(staging, ignore_errors=True)
    for name in (HISTORY, INDEX, ARCHIVE):
        for leftover in site.glob(f".{name}.*.tmp"):
            leftover.unlink(missing_ok=True)
    last = {entry["version"]: entry for entry in load_history(history_path)}
    for entry in last.values():
        if entry.get("pruned") and (site / entry["version"]).is_dir():
            staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=site))
            _remove_folder(site / entry["version"], staging)
            shutil.rmtree(staging, ignore_errors=True)
            notes.append(f"removed the folder of {entry['version']}, pruned by a killed publish")
    return notes


def _read_journal(staging: Path) -> dict[str, Any] | None:
    try:
        journal: Any = json.loads((staging / JOURNAL).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # never written: the stage was incomplete and the site untouched
    if not isinstance(journal, dict):
        return None
    version = journal.get("version")
    if not isinstance(version, str) or label_problem(version) is not None:
        return None
    return journal


def _recover_one(site: Path, staging: Path, history_path: Path) -> str | None:
    journal = _read_journal(staging)
    if journal is None:
        return None
    version = journal["version"]
    target, staged, aside = site / version, staging / version, staging / PREVIOUS
    if not target.exists() and aside.is_dir():
        aside.rename(target)  # killed between the two renames: the old copy goes back
        return f"put back {version}, which a killed publish had moved aside"
    new = journal.get("report_sha256")
    swapped = _sha256(target / "report.json") == new and _sha256(staged / "report.json") != new
    if not swapped:
        return f"rolled back a killed publish of {version} (the site kept its copy)"
    line = str(journal["line"]).encode()
    lines = _lines(history_path)
    if line not in lines:
        atomic_write(history_path, b"".join([*lines, line]), "--site")
    return f"completed a killed publish of {version} (its folder was already in place)"
