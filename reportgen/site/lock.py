"""One publisher at a time per site: an exclusive lock on a file inside it.

``flock`` on ``SITE/.publish.lock``. The holder writes who it is (pid, host, since)
into the file, so that a publisher that gave up waiting can say whom it waited for.
The kernel releases the lock when its holder dies, so a killed publish never leaves
the site locked. The holder removes the file before it lets go, so a finished
publish leaves nothing behind; a waiter that then gets the lock of the removed file
tries again, so the lock that counts is always the one on the file at that path.

The site may be a checkout anyone with push access writes to, so the lock file is
opened without following a link (O_NOFOLLOW) and must be a regular file: publish
never empties or writes a file outside the site through it.
"""

from __future__ import annotations

import errno
import json
import math
import os
import socket
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from reportgen.errors import InputError, UsageError

LOCK_NAME = ".publish.lock"
POLL_SECONDS = (0.02, 0.5)
"""First and longest pause between two tries while another publisher holds the lock."""


LOCK_FIX = "remove it (publish makes its own lock file, and removes it when done)"
HOLDER_BYTES = 4096
"""More than any holder writes: a hostile lock file is not read to its end."""


def holder_text(descriptor: int) -> str:
    """Who holds the lock, as the holder wrote it (it may not have written it yet)."""
    try:
        holder = json.loads(os.pread(descriptor, HOLDER_BYTES, 0).decode("utf-8"))
        return f"pid {holder['pid']} on host {holder['host']}, since {holder['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a publisher that has not said who it is yet"


def check_timeout(timeout: float) -> None:
    """A wait of a finite number of seconds, 0 or more (NaN would wait forever)."""
    if not math.isfinite(timeout) or timeout < 0:
        raise UsageError(
            f"--lock-timeout {timeout:g} is not a finite number of seconds, 0 or more",
            "give seconds, e.g. 60",
        )


def _open_lock(path: Path) -> int:
    """The lock file at ``path``, created if missing, never through a link."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        descriptor = os.open(path, flags, 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise InputError(
                path, "a symbolic link; publish never follows one out of the site", LOCK_FIX
            ) from None
        if error.errno == errno.EISDIR:
            raise InputError(path, "not a regular file but a folder", LOCK_FIX) from None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise InputError(path, "not a regular file (a pipe, a socket or a device)", LOCK_FIX)
    return descriptor


def _same_file(descriptor: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(descriptor), os.lstat(path))
    except FileNotFoundError:
        return False


@contextmanager
def site_lock(site: Path, timeout: float) -> Iterator[Path]:
    """Hold the site's lock for the block; wait up to ``timeout`` seconds for it."""
    if sys.platform == "win32":  # pragma: no cover - CI and users' runners are POSIX
        raise UsageError(
            "publish locks the site with flock, which Windows lacks",
            "publish from Linux or macOS (a CI runner, WSL)",
        )
    import fcntl

    check_timeout(timeout)
    path = site / LOCK_NAME
    deadline = time.monotonic() + timeout
    pause = POLL_SECONDS[0]
    while True:
        descriptor = _open_lock(path)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            who = holder_text(descriptor)
            os.close(descriptor)
            if time.monotonic() >= deadline:
                raise InputError(
                    path,
                    f"another publish holds this site's lock ({who}); waited {timeout:g} s",
                    "let it finish and publish again, or wait longer with --lock-timeout",
                ) from None
            time.sleep(pause)
            pause = min(pause * 2, POLL_SECONDS[1])
            continue
        if _same_file(descriptor, path):
            break
        os.close(descriptor)  # its holder removed it meanwhile: lock the file there now
    try:
        since = datetime.now(tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        holder = {"pid": os.getpid(), "host": socket.gethostname(), "since": since}
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, json.dumps(holder).encode() + b"\n", 0)
        yield path
    finally:
        path.unlink(missing_ok=True)
        os.close(descriptor)
