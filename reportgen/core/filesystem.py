"""The one place where the operating system's refusals become errors a user can act on.

Every read of an input and every write of an output goes through :func:`reading` or
:func:`writing`, so permission denied, a name too long, a read-only or full disk reads
the same wherever it happens: ``path: what is wrong. Fix: what to do.``, exit 2.

File names are bytes on POSIX; Python hands the ones that are not UTF-8 over as text
with lone surrogates, which no terminal, JSON or HTML can hold. :func:`~reportgen.errors.printable`
is how such a name (or any text from the command line) is printed: with U+FFFD in
place of each bad byte.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from reportgen.errors import InputError, UsageError, printable

NAME_MAX = 255
"""Bytes in one path component on every common file system (ext4, XFS, APFS, NTFS)."""

_READ_FIX = "give the user running reportgen read access to the file and every folder above it"

_READING: dict[int, tuple[str, str]] = {
    errno.ENOENT: ("no such file", "check the path and the current directory"),
    errno.EACCES: ("permission denied", _READ_FIX),
    errno.EPERM: ("operation not permitted", _READ_FIX),
    errno.ENOTDIR: ("a part of the path is a file, not a folder", "check the path"),
    errno.ELOOP: ("too many symbolic links (a loop?)", "point the symbolic link at a real file"),
    errno.EISDIR: ("this is a directory, not a file", "give the path of a file in it"),
    errno.EIO: ("input/output error", "check the disk, or copy the file elsewhere first"),
    errno.ENXIO: ("no such device", "give a regular file"),
    errno.EMFILE: ("too many open files", "raise the limit (ulimit -n)"),
    errno.ENFILE: ("too many open files in the system", "close other programs and try again"),
}

_WRITE_FIX = "make it writable (chmod u+w) for the user running reportgen, or choose another {}"

_WRITING: dict[int, tuple[str, str]] = {
    errno.EACCES: ("permission denied", _WRITE_FIX),
    errno.EPERM: ("operation not permitted", _WRITE_FIX),
    errno.EROFS: ("the file system is read-only", "choose a {} on a writable file system"),
    errno.ENOSPC: (
        "no space left on the device",
        "free some space, or choose a {} on another disk",
    ),
    errno.EDQUOT: ("disk quota exceeded", "free some space, or choose a {} on another disk"),
    errno.EFBIG: (
        "file too large (the file system's or the process's file-size limit, ulimit -f)",
        "raise the limit (ulimit -f unlimited), or choose a {} on another file system",
    ),
    errno.ENOTDIR: ("a part of the path is a file, not a folder", "check the {}"),
    errno.EEXIST: ("a file is in the way of a folder", "check the {}"),
    errno.EISDIR: ("a folder is in the way of a file", "remove it, or choose another {}"),
    errno.ENOTEMPTY: ("a folder is in the way of a file", "remove it, or choose another {}"),
    errno.ELOOP: ("too many symbolic links (a loop?)", "check the {}"),
    errno.ENOENT: ("a folder on the path does not exist", "check the {}"),
    errno.EIO: ("input/output error", "check the disk, or choose another {}"),
}


def is_text(value: str) -> bool:
    """Whether ``value`` is valid Unicode text (no lone surrogate, no undecodable byte)."""
    return printable(value) == value


def _long_component(path: Path) -> str | None:
    """The first component of ``path`` longer than a file system allows, if any."""
    for part in path.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            return part
    return None


def _name_too_long(path: Path) -> tuple[str, str]:
    part = _long_component(path)
    if part is None:
        return (
            f"the path is longer than the system allows ({len(os.fsencode(path))} bytes)",
            "use a shorter path (move the file up, or cd closer to it)",
        )
    head = printable(part[:24])
    return (
        f"the name {head}... is {len(os.fsencode(part))} bytes long; file systems allow {NAME_MAX}",
        "shorten that name",
    )


def read_error(path: Path, error: OSError) -> InputError:
    """The InputError for an OSError met while reading ``path`` (or the file it names)."""
    if isinstance(error.filename, str):
        path = Path(error.filename)
    if error.errno == errno.ENAMETOOLONG:
        problem, fix = _name_too_long(path)
    else:
        problem, fix = _READING.get(error.errno or 0, (_strerror(error), "check the path"))
    return InputError(printable(path), problem, fix)


def write_error(path: Path, error: OSError, option: str, what: str = "folder") -> InputError:
    """The InputError for an OSError met while writing into ``path``: the ``what`` (a
    folder, a file) that ``option`` names."""
    # a copy names its source first and its destination second: the destination failed
    named = error.filename2 if isinstance(error.filename2, str) else error.filename
    target = Path(named) if isinstance(named, str) else path
    if target.name.startswith(".") and target.name.endswith(".tmp"):
        target = target.parent  # our temporary file: name the folder the user gave
    elif _hidden_below(Path(os.path.abspath(target)), Path(os.path.abspath(path))):
        target = path  # inside our hidden staging folder (publish): the folder the user gave
    if error.errno == errno.ENAMETOOLONG:
        problem, fix = _name_too_long(target)
    else:
        problem, fix = _WRITING.get(
            error.errno or 0, (_strerror(error), "check the {}, or choose another one")
        )
    return InputError(printable(target), problem, fix.format(f"{option} {what}"))


def _hidden_below(target: Path, folder: Path) -> bool:
    """Whether ``target`` lies in a hidden folder (ours: staging) under ``folder``."""
    if not target.is_relative_to(folder):
        return False
    return any(part.startswith(".") for part in target.relative_to(folder).parts[:-1])


def _strerror(error: OSError) -> str:
    return (error.strerror or type(error).__name__).lower()


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """Turn an OSError raised inside into the InputError that names ``path``."""
    try:
        yield
    except OSError as error:
        raise read_error(path, error) from None


@contextmanager
def writing(path: Path, option: str) -> Iterator[None]:
    """Turn an OSError raised inside into an InputError naming what could not be written."""
    try:
        yield
    except OSError as error:
        raise write_error(path, error, option) from None


def file_kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_readable_file(path: Path) -> None:
    """Fail early and plainly on a path that is not a regular file reportgen may read.

    Pipes and devices are refused, never opened: reportgen reads a file more than once
    (to tell its format, then to read it), and opening a FIFO blocks until a writer comes.
    """
    try:
        mode = path.stat().st_mode
    except OSError as error:
        raise read_error(path, error) from None
    kind = file_kind(mode)
    if kind == "a directory":
        raise InputError(printable(path), "this is a directory, not a file", "give a file in it")
    if kind is not None:
        raise InputError(
            printable(path),
            f"{kind}, not a regular file",
            "save what it gives to a file first (reportgen reads its inputs more than once)",
        )
    if not os.access(path, os.R_OK):
        raise InputError(printable(path), "permission denied", _READ_FIX)


def is_file(path: Path) -> bool:
    """``path.is_file()`` that answers False, not raises, for a name too long or denied."""
    try:
        return path.is_file()
    except OSError:
        return False


def is_dir(path: Path) -> bool:
    """``path.is_dir()`` that answers False, not raises, for a name too long or denied."""
    try:
        return path.is_dir()
    except OSError:
        return False


def refuse_undecodable(options: Mapping[str, str | None]) -> None:
    """Refuse option values holding bytes that are not UTF-8 (from argv's surrogateescape).

    Such a label could not be written to report.json or shown in a page; a run name is
    shown with U+FFFD instead (it names a file the user has), but a label the user
    chose is refused so that the report says what they meant. ``options`` maps how
    the value was given (``version (--version)``) to the value.
    """
    for given, value in options.items():
        if value is not None and not is_text(value):
            raise UsageError(
                f"{given} {printable(value)!r} holds bytes that are not UTF-8 text",
                "pass it in UTF-8 (set a UTF-8 locale, e.g. LANG=C.UTF-8, or use ASCII)",
            )
