"""One publisher at a time per site: an exclusive lock on a file inside it.

``flock`` on ``SITE/.publish.lock``. The holder writes who it is (pid, host, since)
into the file, so that a publisher that gave up waiting can say whom it waited for.
The kernel releases the lock when its holder dies, so a killed publish never leaves
the site locked. The holder removes the file before it lets go, so a finished
publish leaves nothing behind; a waiter that then gets the lock of the removed file
tries again, so the lock that counts is always the one on the file at that path.
"""

from __future__ import annotations

import json
import os
import socket
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


def holder_text(path: Path) -> str:
    """Who holds the lock, as the holder wrote it (it may not have written it yet)."""
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
        return f"pid {holder['pid']} on host {holder['host']}, since {holder['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a publisher that has not said who it is yet"


def _same_file(descriptor: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(descriptor), os.stat(path))
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

    path = site / LOCK_NAME
    deadline = time.monotonic() + timeout
    pause = POLL_SECONDS[0]
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            if time.monotonic() >= deadline:
                raise InputError(
                    path,
                    f"another publish holds this site's lock ({holder_text(path)}); "
                    f"waited {timeout:g} s",
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
