"""Write a finished report to its folder without ever leaving half a report behind.

Everything is rendered in memory first; files are then written beside their final
names and renamed into place, so a failure or a kill leaves the previous report
readable. Files in the folder that reportgen did not write are never touched.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal

import polars as pl

from reportgen.core.filesystem import writing
from reportgen.core.spreadsheet import as_text
from reportgen.errors import InputError, UsageError, printable
from reportgen.render.manifest import (
    MANIFEST,
    digest,
    manifest_bytes,
    ours,
    read_manifest,
    remove_files,
    stale_files,
    still_ours,
)
from reportgen.schema import MergedReport, Report

FORMATS = ("html", "md", "json")
PER_QUESTION_FORMATS = ("csv", "parquet")


def report_json(report: Report | MergedReport) -> str:
    """report.json's text: strict JSON (no NaN, no infinity) that encodes as UTF-8.

    Loaders refuse non-finite numbers and undecodable text with the file and line
    that hold them, so a failure here is a bug: it names the key path to find it by.
    """
    try:
        text = _laid_out(report, 0) + "\n"
        text.encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        where, value = _first_unwritable(report, "")
        raise RuntimeError(f"report.json would hold {value!r} at {where or 'its top'}") from None
    return text


_ONE_LINE = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": ")).encode
"""The C encoder: ~4x faster than the pure-Python one ``indent`` switches to."""
WIDE = 1000
"""Containers with more entries than this (per-question maps of large gold sets) take
one line: nobody reads 10,000 entries by eye, and they are most of the bytes."""


def _laid_out(value: object, depth: int) -> str:
    """JSON indented by two spaces as far as a reader reads it by eye, each list of plain
    values and each container of more than :data:`WIDE` entries on one line.

    Indenting everything makes Python encode every value (the 1M-row report.json took
    ~60 ms that way); here the bulk goes through the C encoder in one call per line.
    """
    inner = "  " * (depth + 1)
    if isinstance(value, dict) and 0 < len(value) <= WIDE:
        items = (
            f"{inner}{_scalar(key if isinstance(key, str) else json.dumps(key))}: "
            f"{_laid_out(item, depth + 1)}"
            for key, item in value.items()
        )
        return "{\n" + ",\n".join(items) + "\n" + inner[2:] + "}"
    if (
        isinstance(value, list | tuple)
        and 0 < len(value) <= WIDE
        and any(isinstance(item, dict | list | tuple) for item in value)
    ):
        items = (f"{inner}{_laid_out(item, depth + 1)}" for item in value)
        return "[\n" + ",\n".join(items) + "\n" + inner[2:] + "]"
    return _scalar(value) if isinstance(value, _SCALARS) else _ONE_LINE(value)


_SCALARS = (str, int, float, type(None))


def _scalar(value: str | int | float | None) -> str:
    """One plain value as the json module writes it, without its per-call set-up."""
    if isinstance(value, str):
        return json.encoder.encode_basestring(value)
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value!r} is not JSON")
    return (float.__repr__ if isinstance(value, float) else int.__repr__)(value)


def _first_unwritable(value: object, where: str) -> tuple[str, object]:
    """The key path and value of the first non-finite number or undecodable text."""
    if isinstance(value, float) and not math.isfinite(value):
        return where, value
    if isinstance(value, str) and printable(value) != value:
        return where, value
    items: list[tuple[object, object]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list | tuple):
        items = list(enumerate(value))
    for key, item in items:
        if isinstance(key, str) and printable(key) != key:
            return f"{where}.{printable(key)}" if where else printable(key), key
        found = _first_unwritable(item, f"{where}.{key}" if where else str(key))
        if found[0] or found[1] is not None:
            return found
    return "", None


def per_question_bytes(frame: pl.DataFrame, fmt: str) -> bytes:
    """The per-question file: Parquet raw, CSV with no text cell a spreadsheet would run."""
    buffer = io.BytesIO()
    if fmt == "parquet":
        frame.write_parquet(buffer, statistics=False)
    else:
        text = [name for name, dtype in frame.schema.items() if dtype == pl.String]
        frame.with_columns(as_text(name) for name in text).write_csv(buffer)
    return buffer.getvalue()


def _umask() -> int:
    """The process umask (only readable by setting it), so files get the usual mode."""
    current = os.umask(0)
    os.umask(current)
    return current


def _stage(path: Path, data: bytes) -> Path:
    """A synced temporary file beside ``path`` holding ``data``, ready to be renamed."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(temporary, 0o666 & ~_umask())
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return Path(temporary)


def atomic_write(path: Path, data: bytes, option: str = "output") -> None:
    """Write to a temporary file in the same folder, then rename over the target."""
    with writing(path.parent, option):
        path.parent.mkdir(parents=True, exist_ok=True)
        staged = _stage(path, data)
        try:
            os.replace(staged, path)
        except BaseException:  # a folder in the way, a kill: no temporary file stays
            staged.unlink(missing_ok=True)
            raise


def _sync_folder(folder: Path) -> None:
    """Make the renames themselves durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _remove_leftovers(out_dir: Path, names: list[str]) -> None:
    """Temporary files of ours that a killed run left behind; nothing else is touched."""
    for name in names:
        target = out_dir / name
        if not target.parent.is_dir():
            continue
        for leftover in target.parent.glob(f".{glob_escape(target.name)}.*.tmp"):
            leftover.unlink(missing_ok=True)


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def refuse_overwriting_inputs(
    out_dir: Path, names: Iterable[str], inputs: Iterable[tuple[str, Path]], command: str
) -> None:
    """Refuse, before anything is written, an output that would land on one of the inputs.

    ``inputs`` are (what it is, path) pairs: ``("the gold set", Path("gold.jsonl"))``.
    An output and an input are one file when their real paths match (through symbolic
    links in any folder or in the name itself) or when they share a device and inode
    (a hard link): replacing either would lose or change what was read. ``command`` is
    what writes (``report``, ``merge``), for the message.
    """
    outputs = []
    for name in sorted(names):
        target = out_dir / name
        # the name a rename replaces, and the file it reaches when it is a symbolic link
        places = {
            os.path.join(os.path.realpath(target.parent), target.name),
            os.path.realpath(target),
        }
        outputs.append((target, places, _file_id(target)))
    for role, path in inputs:
        real, file_id = os.path.realpath(path), _file_id(path)
        for target, places, target_id in outputs:
            if real in places:
                same = os.path.abspath(path) == os.path.abspath(target)
                how = "" if same else " (the same file, through a symbolic link)"
            elif target_id is not None and target_id == file_id:
                how = " (the same file under another name: a hard link)"
            else:
                continue
            raise InputError(
                path,
                f"{role} would be overwritten: the {command} writes {printable(target)}{how}",
                f"write to a folder that holds none of the inputs nor links to them "
                f"(another --out), or move {role} elsewhere",
            )


def _file_id(path: Path) -> tuple[int, int] | None:
    """Device and inode of an existing file (symbolic links followed), else None."""
    try:
        status = path.stat()
    except (OSError, ValueError):
        return None
    return status.st_dev, status.st_ino


SUBFOLDERS = ("charts", "merge")
"""The only folders reportgen writes inside an output folder."""


def _check_name(name: str, subfolders: Sequence[str]) -> None:
    """Output names are ours: a plain file name, or one in ``subfolders`` (``charts/x.svg``).

    Nothing lands outside the folder."""
    folder, _, base = name.rpartition("/")
    if folder and folder not in subfolders:
        raise ValueError(f"output file name {name!r} is not a plain file name in a known subfolder")
    if base in {"", ".", ".."} or safe_folder_name(base) != base:
        raise ValueError(f"output file name {name!r} is not a plain file name")


def write_files(
    out_dir: Path,
    files: Mapping[str, bytes],
    option: str = "--out",
    subfolders: Sequence[str] = SUBFOLDERS,
    *,
    record: Literal["replace", "add"] | None = None,
) -> list[Path]:
    """Write every file (name -> bytes) into ``out_dir``; report.json goes last.

    Every file is first written and synced beside its target, and only then are they
    renamed into place, report.json last: a kill at any moment leaves each file whole
    (old or new), and a reader that finds a new report.json finds the new HTML and
    Markdown beside it. An operating system's refusal (permission, read-only or full
    disk) is an error naming the path and ``option`` (the option that chose the
    folder), and leaves the old files whole.

    ``record`` keeps the folder's manifest (see :mod:`reportgen.render.manifest`):
    ``"replace"`` (a new report) then removes the earlier report's files that this one
    does not rewrite; ``"add"`` (pages rebuilt beside report.json) keeps them. Files
    reportgen did not write are never touched.
    """
    names = sorted(files, key=lambda name: (name == "report.json", name))
    for name in names:
        _check_name(name, subfolders)
        if record and not ours(name):  # a new output: add it to render.manifest's names
            raise ValueError(f"output file name {name!r} is not one a manifest may list")
    with writing(out_dir, option):
        if out_dir.is_symlink() and not out_dir.exists():
            raise UsageError(
                f"{option} {printable(out_dir)} is a symbolic link to nothing (or a loop)",
                "create the folder it points to, or give another path",
            )
        if out_dir.exists() and not out_dir.is_dir():
            raise UsageError(
                f"{option} {printable(out_dir)} is a file, not a folder",
                "give a folder path (it is created when missing)",
            )
        out_dir.mkdir(parents=True, exist_ok=True)
        for folder in sorted({(out_dir / name).parent for name in names}):
            _folder_for_files(folder, option, inside=folder != out_dir)
        for name in [*names, *([MANIFEST] if record else [])]:
            if (out_dir / name).is_dir():  # found now, not by a rename halfway through
                raise UsageError(
                    f"{printable(out_dir / name)} is a folder where {option} gets a file",
                    "move the folder away, or choose another output folder",
                )
        _remove_leftovers(out_dir, [*names, MANIFEST])
        earlier = still_ours(out_dir, read_manifest(out_dir) or {}) if record else {}
        written = {name: [digest(files[name])] for name in names}
        stale = stale_files(out_dir, names) if record == "replace" else []
        staged: list[tuple[Path, Path]] = []
        try:
            for name in names:
                staged.append((_stage(out_dir / name, files[name]), out_dir / name))
            if record:
                # while renaming, old and new bytes are both ours: a kill leaves a
                # manifest that still lets the next run remove what this one would have
                during = {name: [*earlier.get(name, []), *written[name]] for name in names}
                kept = {name: earlier[name] for name in earlier if name not in written}
                listing = manifest_bytes({**kept, **during})
                atomic_write(out_dir / MANIFEST, listing, option)
            for temporary, target in staged:
                os.replace(temporary, target)
        finally:
            for temporary, _ in staged:
                temporary.unlink(missing_ok=True)
        if record:
            remove_files(out_dir, stale)
            final = written if record == "replace" else {**kept, **written}
            atomic_write(out_dir / MANIFEST, manifest_bytes(final), option)
    for folder in sorted({target.parent for _, target in staged}):
        _sync_folder(folder)
    return [target for _, target in staged]


def _folder_for_files(folder: Path, option: str, inside: bool) -> None:
    """An existing folder, or a new one; a file in the way is named, not a traceback.

    A subfolder (``inside``: ``charts/``, ``merge/``) that is a symbolic link is
    refused: written through, the report would overwrite same-named files in whatever
    folder it points at. (The output folder itself may be a link: the user named it.)"""
    if inside and folder.is_symlink():
        raise InputError(
            folder,
            f"a symbolic link (to {printable(os.readlink(folder))}): {option} writes its "
            "files only inside the report folder, never through a link out of it",
            f"remove the link ({folder.name}/ is created as a real folder)",
        )
    if folder.exists() and not folder.is_dir():
        raise UsageError(
            f"{printable(folder)} is a file where {option} needs a folder of that name",
            "move the file away, or choose another output folder",
        )
    folder.mkdir(exist_ok=True)


_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$", re.IGNORECASE)
MAX_FOLDER_NAME = 80


def safe_folder_name(label: str) -> str:
    """A folder name made from a version label or run name that stays inside its parent.

    Labels that are already safe (``v1.2``, ``2026-11-30``, ``bm25+rerank``) are kept
    as they are. Anything else (``../../x``, ``a/b``, control characters, spaces,
    accents) becomes a safe name plus a short hash of the original, so two labels
    never share a folder; show the original label to the reader, not this name.
    """
    text = unicodedata.normalize("NFKD", label)
    text = _UNSAFE.sub("-", text.encode("ascii", "ignore").decode()).strip(".-")
    text = text[:MAX_FOLDER_NAME].strip(".-")
    if text and text == label and not _RESERVED.match(text):
        return text
    digest = hashlib.sha256(label.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{text}-{digest}" if text else f"label-{digest}"
