"""What a report folder holds: the list of files reportgen wrote there, with their hashes.

A report folder holds one report. Each write records its files in
``.reportgen-manifest.json``; the next write into the folder removes the files of the
earlier report that it does not rewrite (a 2-run report's summary.md beside a 1-run
report's report.json would describe other runs), and only those: a file is removed
only while it still has the bytes reportgen wrote, so a file the user wrote, edited or
put there by another tool, and every file of a folder written before manifests
existed, stays. Nothing is followed through a symbolic link.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

MANIFEST = ".reportgen-manifest.json"
MANIFEST_FORMAT = 1

Listing = dict[str, list[str]]
"""File name (relative, ``/``-separated) -> the sha256 digests it may hold as ours."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_bytes(files: Mapping[str, Iterable[str]]) -> bytes:
    """The manifest's text: sorted, no time, no path: the same files give the same bytes.

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
    """The files an earlier write recorded in ``folder``; None when there is no usable
    manifest (an older reportgen's folder, a link, a damaged file): then nothing is
    known to be ours."""
    path = folder / MANIFEST
    if not _regular(path):  # the folder itself may be a link: the user named it
        return None
    try:
        body = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    files = body.get("files") if isinstance(body, dict) else None
    if not isinstance(files, dict):
        return None
    listing: Listing = {}
    for name, value in files.items():
        digests = [value] if isinstance(value, str) else value
        if not isinstance(digests, list) or not all(isinstance(d, str) for d in digests):
            return None
        if _safe_name(name):
            listing[name] = digests
    return listing


def _safe_name(name: str) -> bool:
    """A name inside the folder: relative, no ``..``, no empty part."""
    parts = name.split("/")
    return bool(name) and not name.startswith("/") and all(p not in ("", ".", "..") for p in parts)


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
    """Whether ``path`` is a regular file (no link followed) holding bytes we wrote."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
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
        if _inside(folder, name):
            (folder / name).unlink(missing_ok=True)
            if "/" in name:
                emptied.add(name.rpartition("/")[0])
    for sub in sorted(emptied, key=len, reverse=True):
        with contextlib.suppress(OSError):
            (folder / sub).rmdir()  # only when empty; a link is no folder to rmdir
