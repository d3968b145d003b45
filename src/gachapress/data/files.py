"""What a path is, in words, when it is not the regular file a reader wants: one description
that every reader of the project's files (rules, spreadsheets, art, templates) gives, so that a
folder, a named pipe or a symbolic link that loops is never called "missing" or "not found"."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def file_kind(path: Path) -> str | None:
    """Why ``path`` is not a regular file that can be read, as the end of a sentence about it
    ("is missing", "is a folder, not a file", "is a symbolic link that loops"); None when it
    is one. Never opens it (a named pipe would block)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            return f"is a symbolic link to {os.readlink(path)}, which does not exist"
        return "is missing"
    except NotADirectoryError:
        return "is missing (a part of its path is a file, not a folder)"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a symbolic link that loops (it leads back to itself)"
        return f"cannot be reached: {(exc.strerror or str(exc)).lower()}"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a file"
    return "is not a regular file"


def resolved(path: Path) -> Path | None:
    """``path`` with every symbolic link followed (None: a link loops)."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # Python < 3.13 raises RuntimeError for a loop
        return None
