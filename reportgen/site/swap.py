"""Swap two folders in one step, so that a path always names a complete folder.

Linux (``renameat2`` with ``RENAME_EXCHANGE``) and macOS (``renamex_np`` with
``RENAME_SWAP``) exchange two paths atomically: a reader of the target finds the old
folder or the new one, never nothing and never a mix. Python has no call for it, so
the C library is reached through ctypes. Where the system or the file system cannot
(Windows, some network file systems), :func:`exchange` says so and moves nothing;
the caller then falls back to two renames.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from pathlib import Path

AT_FDCWD = -100
RENAME_EXCHANGE = 2  # linux/fs.h
RENAME_SWAP = 2  # macOS sys/stdio.h


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - a system without a C library to open
        return None


_LIBC = _libc() if sys.platform in ("linux", "darwin") else None


def exchange(first: Path, second: Path) -> bool:
    """Swap what ``first`` and ``second`` name; False when the system cannot (nothing
    moved). Any other failure raises OSError."""
    old, new = os.fsencode(first), os.fsencode(second)
    if _LIBC is not None and sys.platform == "linux" and hasattr(_LIBC, "renameat2"):
        result = _LIBC.renameat2(AT_FDCWD, old, AT_FDCWD, new, RENAME_EXCHANGE)
    elif _LIBC is not None and sys.platform == "darwin" and hasattr(_LIBC, "renamex_np"):
        result = _LIBC.renamex_np(old, new, RENAME_SWAP)
    else:
        return False
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(first), None, str(second))
