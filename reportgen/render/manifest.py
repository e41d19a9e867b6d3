"""What a report folder holds: the list of files reportgen wrote there, with their hashes.

A report folder holds one report. Each write records its files in
``.reportgen-manifest.json``; the next write into the folder removes the files of the
earlier report that it does not rewrite (a 2-run report's summary.md beside a 1-run
report's report.json would describe other runs), and only those: a file is removed
only while it still has the bytes reportgen wrote, so a file the user wrote, edited or
put there by another tool, and every file of a folder written before manifests
existed, stays.

A manifest is a file anyone can write: a pull request may add a report folder whose
manifest lists a user's file with its current hash. So what any manifest can remove is
bounded by three rules that no manifest can change:

- the name is one reportgen itself writes into a report folder (:func:`ours`: report.json,
  the per-question file, the pages, ``charts/`` of reportgen's chart stems, ``merge/``'s
  files): a forged entry for notes.md, data.csv, .bashrc or an ssh key is ignored;
- the file is a regular file of one name, reached through no symbolic link (a hard
  link, or a file in a folder that is a link, lives elsewhere too);
- its bytes still hash to the manifest's digest.

At worst a forged manifest removes a stale ``summary.md`` or chart that reportgen wrote,
in the folder the user named for a report: what the next report would replace anyway.
Nothing outside the folder is read or written (no key in the home folder, so a CI job
tidies as a laptop does), and the same files give the same manifest's bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from reportgen.render.charts import CUTOFF_STEM, REPORT_CHART_STEMS
from reportgen.schema.merge_files import FRAMES, MERGE_FOLDER, OPTIONAL_FRAMES, PPI_FRAMES

MANIFEST = ".reportgen-manifest.json"
MANIFEST_FORMAT = 3
"""3: unsigned; what it removes is bounded by :func:`ours`. 2 was signed with a key in
the user's home and 1 had neither: both are read as listings, under the same bounds."""

PAGE_FILES = frozenset({"report.json", "index.html", "report.md", "summary.md"})
PER_QUESTION_FILES = frozenset({"per_question.csv", "per_question.parquet"})
CHART_KINDS = ("svg", "png")
MERGE_FILES = frozenset(
    {"shard.json", *(f"{name}.parquet" for name in (*FRAMES, *OPTIONAL_FRAMES, *PPI_FRAMES))}
)
"""merge/'s files (``report.merge_data`` writes them, ``load.previous.merge_data`` reads)."""

Listing = dict[str, list[str]]
"""File name (relative, ``/``-separated) -> the sha256 digests it may hold as ours."""


def ours(name: str) -> bool:
    """Whether ``name`` is one reportgen writes into a report folder: the only names a
    manifest lists, and so the only files it can ever remove."""
    folder, _, base = name.rpartition("/")
    if not folder:
        return base in PAGE_FILES or base in PER_QUESTION_FILES
    if folder == MERGE_FOLDER:
        return base in MERGE_FILES
    stem, _, kind = base.rpartition(".")
    return (
        folder == "charts"
        and kind in CHART_KINDS
        and (stem in REPORT_CHART_STEMS or CUTOFF_STEM.fullmatch(stem) is not None)
    )


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_bytes(files: Mapping[str, Iterable[str]]) -> bytes:
    """The manifest's text: sorted, no time, no path, no key: the same files give the
    same bytes, for every user and in CI.

    A name maps to one digest, or to several while a write is under way (the old and
    the new bytes are both ours until every rename is done)."""
    listed: dict[str, str | list[str]] = {}
    for name in sorted(files):
        digests = sorted(set(files[name]))
        listed[name] = digests[0] if len(digests) == 1 else digests
    body = {"reportgen_manifest": MANIFEST_FORMAT, "files": listed}
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode()


def _regular(path: Path) -> bool:
    """A regular file itself, not a symbolic link to one."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def read_manifest(folder: Path) -> Listing | None:
    """The files of reportgen's names (:func:`ours`) that a manifest in ``folder``
    lists, with their digests; None when there is none or it is damaged. Whoever wrote
    it, each file is removed only under the rules above (:func:`stale_files`)."""
    path = folder / MANIFEST
    if not _regular(path):  # the folder itself may be a link: the user named it
        return None
    try:
        body = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    files = body.get("files") if isinstance(body, dict) else None
    if not isinstance(files, dict):
        return None
    listing: Listing = {}
    for name, value in files.items():
        digests = [value] if isinstance(value, str) else value
        if not isinstance(digests, list) or not all(isinstance(d, str) for d in digests):
            return None
        if ours(name):
            listing[name] = digests
    return listing


def _inside(folder: Path, name: str) -> bool:
    """Every folder between ``folder`` and the file is a real folder, not a link out."""
    current = folder
    for part in name.split("/")[:-1]:
        current = current / part
        try:
            if not stat.S_ISDIR(os.lstat(current).st_mode):
                return False
        except OSError:
            return False
    return True


def _holds(path: Path, digests: Iterable[str]) -> bool:
    """Whether ``path`` is a regular file of one name (no link followed, no hard link:
    removing it would touch a file that also lives elsewhere) holding bytes we wrote."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_nlink != 1:
            return False
        sha = hashlib.sha256()
        while chunk := os.read(descriptor, 1 << 20):
            sha.update(chunk)
    except OSError:
        return False
    finally:
        os.close(descriptor)
    return sha.hexdigest() in set(digests)


def stale_files(folder: Path, keeping: Iterable[str]) -> list[str]:
    """The files of the folder's earlier report that a write of ``keeping`` leaves
    behind, still as reportgen wrote them: what that write removes."""
    earlier = read_manifest(folder) or {}
    kept = set(keeping)
    return sorted(
        name
        for name, digests in earlier.items()
        if name not in kept and _inside(folder, name) and _holds(folder / name, digests)
    )


def still_ours(folder: Path, listing: Listing) -> Listing:
    """The entries of ``listing`` whose files still hold the bytes reportgen wrote."""
    return {
        name: digests
        for name, digests in listing.items()
        if _inside(folder, name) and _holds(folder / name, digests)
    }


def remove_files(folder: Path, names: Iterable[str]) -> None:
    """Remove ``names`` (found by :func:`stale_files`), then a subfolder this left
    empty; nothing else."""
    emptied = set()
    for name in names:
        if ours(name) and _inside(folder, name):
            (folder / name).unlink(missing_ok=True)
            if "/" in name:
                emptied.add(name.rpartition("/")[0])
    for sub in sorted(emptied, key=len, reverse=True):
        with contextlib.suppress(OSError):
            (folder / sub).rmdir()  # only when empty; a link is no folder to rmdir
