"""What a report folder holds: the list of files reportgen wrote there, with their hashes.

A report folder holds one report. Each write records its files in
``.reportgen-manifest.json``; the next write into the folder removes the files of the
earlier report that it does not rewrite (a 2-run report's summary.md beside a 1-run
report's report.json would describe other runs), and only those: a file is removed
only while it still has the bytes reportgen wrote, so a file the user wrote, edited or
put there by another tool, and every file of a folder written before manifests
existed, stays. Nothing is followed through a symbolic link, and a file with another
name elsewhere (a hard link) is never removed.

A manifest is a file anyone can write: a pull request may add a report folder whose
manifest lists a user's file with its current hash. So the listing is signed: an
HMAC-SHA256 over the folder's real path and the entries, keyed by a secret kept in
the user's state folder (``$REPORTGEN_STATE_DIR``, else ``$XDG_STATE_HOME/reportgen``,
else ``~/.local/state/reportgen``), which nothing in a repository can reach. Only a
manifest this user's reportgen wrote (here, or in the folder this one was copied from)
removes anything; any other (hand-edited, from another machine or CI job, older) only
lists. Removing is a
tidy-up: without the key, a report still writes every file, and removes nothing. (Tying
the manifest to the previous report.json's list of outputs would not do: a pull request
can add that file as easily.)
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

MANIFEST = ".reportgen-manifest.json"
MANIFEST_FORMAT = 2
"""2: signed (``signature``); 1 had none, and is read as a listing only."""
STATE_ENV = "REPORTGEN_STATE_DIR"
KEY_FILE = "manifest.key"
_KEY = re.compile(r"[0-9a-f]{64}")
_REMOVABLE = re.compile(r"(?:(?:charts|merge)/)?[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,79}")
"""Names reportgen writes with a manifest (``render.output._check_name``): nothing else
is ever removed, whatever a manifest lists."""

Listing = dict[str, list[str]]
"""File name (relative, ``/``-separated) -> the sha256 digests it may hold as ours."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_folder() -> Path:
    """Where the manifest key lives: outside any report folder and any repository."""
    given = os.environ.get(STATE_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "reportgen"


def _read_key(path: Path) -> bytes | None:
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        text = os.read(descriptor, 128).decode("ascii", "replace").strip()
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return text.encode() if _KEY.fullmatch(text) else None


def manifest_key(create: bool) -> bytes | None:
    """This user's secret that signs manifests (made on first use when ``create``);
    None when there is none and none can be made (a read-only home): then no manifest
    is trusted, and nothing is removed."""
    path = state_folder() / KEY_FILE
    key = _read_key(path)
    if key is not None or not create:
        return key
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = path.with_name(f".{KEY_FILE}.{secrets.token_hex(8)}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(descriptor, (secrets.token_hex(32) + "\n").encode())
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        with contextlib.suppress(FileExistsError):  # another process made one first
            os.link(temporary, path)
        os.unlink(temporary)
    except OSError:
        return None
    return _read_key(path)


def _signature(key: bytes, listed: Mapping[str, object]) -> str:
    message = json.dumps({"files": listed}, sort_keys=True, ensure_ascii=True)
    return hmac.new(key, message.encode(), hashlib.sha256).hexdigest()


def manifest_bytes(files: Mapping[str, Iterable[str]]) -> bytes:
    """The manifest's text: sorted, no time, no path: the same files give the same bytes
    for one user; signed when this user has (or can make) a key.

    A name maps to one digest, or to several while a write is under way (the old and
    the new bytes are both ours until every rename is done)."""
    listed: dict[str, str | list[str]] = {}
    for name in sorted(files):
        digests = sorted(set(files[name]))
        listed[name] = digests[0] if len(digests) == 1 else digests
    body: dict[str, object] = {"reportgen_manifest": MANIFEST_FORMAT, "files": listed}
    key = manifest_key(create=True)
    if key is not None:
        body["signature"] = _signature(key, listed)
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode()


def _regular(path: Path) -> bool:
    """A regular file itself, not a symbolic link to one."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _read_body(folder: Path) -> dict[str, object] | None:
    path = folder / MANIFEST
    if not _regular(path):  # the folder itself may be a link: the user named it
        return None
    try:
        body = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return body if isinstance(body, dict) else None


def _listing(files: object) -> Listing | None:
    if not isinstance(files, dict):
        return None
    listing: Listing = {}
    for name, value in files.items():
        digests = [value] if isinstance(value, str) else value
        if not isinstance(digests, list) or not all(isinstance(d, str) for d in digests):
            return None
        if _REMOVABLE.fullmatch(name):
            listing[name] = digests
    return listing


def read_manifest(folder: Path) -> Listing | None:
    """The files a manifest in ``folder`` lists, signed or not (what publish looks at
    first); None when there is none or it is damaged. Never a reason to remove a file:
    see :func:`trusted_manifest`."""
    body = _read_body(folder)
    return None if body is None else _listing(body.get("files"))


def trusted_manifest(folder: Path) -> Listing | None:
    """The files an earlier write of this user's reportgen recorded in this folder:
    the listing when its signature checks out with this user's key, else None (then
    nothing is known to be ours)."""
    body = _read_body(folder)
    key = manifest_key(create=False)
    if body is None or key is None:
        return None
    signature, files = body.get("signature"), body.get("files")
    if not isinstance(signature, str) or not isinstance(files, dict):
        return None
    try:
        expected = _signature(key, files)
    except (TypeError, ValueError, RecursionError):
        return None
    return _listing(files) if hmac.compare_digest(signature, expected) else None


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
    earlier = trusted_manifest(folder) or {}
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
        if _REMOVABLE.fullmatch(name) and _inside(folder, name):
            (folder / name).unlink(missing_ok=True)
            if "/" in name:
                emptied.add(name.rpartition("/")[0])
    for sub in sorted(emptied, key=len, reverse=True):
        with contextlib.suppress(OSError):
            (folder / sub).rmdir()  # only when empty; a link is no folder to rmdir
