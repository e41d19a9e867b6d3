"""Write a finished report to its folder without ever leaving half a report behind.

Everything is rendered in memory first; files are then written beside their final
names and renamed into place, so a failure or a kill leaves the previous report
readable. Files in the folder that reportgen did not write are never touched.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

import polars as pl

from reportgen.errors import UsageError
from reportgen.report import Report

FORMATS = ("html", "md", "json")
PER_QUESTION_FORMATS = ("csv", "parquet")


def report_json(report: Report) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def per_question_bytes(frame: pl.DataFrame, fmt: str) -> bytes:
    buffer = io.BytesIO()
    if fmt == "parquet":
        frame.write_parquet(buffer, statistics=False)
    else:
        frame.write_csv(buffer, float_precision=10)
    return buffer.getvalue()


def _umask() -> int:
    """The process umask (only readable by setting it), so files get the usual mode."""
    current = os.umask(0)
    os.umask(current)
    return current


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file in the same folder, then rename over the target."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(temporary, 0o666 & ~_umask())
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_files(out_dir: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write every file (name -> bytes) into ``out_dir``; report.json goes last.

    report.json last means a reader that finds a new report.json finds the new
    HTML and Markdown beside it.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(
            f"--out {out_dir} is a file, not a folder",
            "give a folder path (it is created when missing)",
        )
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(
            f"cannot create the output folder {out_dir}: {error.strerror}",
            "choose a folder you can write to",
        ) from error
    names = sorted(files, key=lambda name: (name == "report.json", name))
    written = []
    for name in names:
        target = out_dir / name
        atomic_write(target, files[name])
        written.append(target)
    return written
