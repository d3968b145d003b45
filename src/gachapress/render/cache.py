"""The machine's cache of what is slow to make (static fonts and their subsets, art drawings):
one folder per user, shared by every project and build, each file checked against its own
digest so that a damaged one is made again."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path


def machine_cache(kind: str) -> Path | None:
    """The folder of ``kind`` (``fonts``, ``art``) in the machine's cache:
    ``$GACHAPRESS_CACHE_DIR``, else the user's cache folder (``$XDG_CACHE_HOME`` or
    ``~/.cache``) ``/gachapress``; None without a home folder."""
    if os.environ.get("GACHAPRESS_CACHE_DIR"):
        return Path(os.environ["GACHAPRESS_CACHE_DIR"]) / kind
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "gachapress" / kind
    if os.environ.get("HOME"):
        return Path(os.environ["HOME"]) / ".cache" / "gachapress" / kind
    return None


def cached_bytes(folder: Path, key: str, make: Callable[[], bytes]) -> bytes:
    """The bytes ``make`` returns, kept in ``folder`` under a hash of ``key`` (what they are
    made from, versions included), each file led by its own digest so that a damaged one is
    made again; a cache that cannot be written is only not kept."""
    name = hashlib.sha256(key.encode()).hexdigest()
    target = folder / f"{name[:32]}.bin"
    try:
        stored = target.read_bytes()
        if stored[:64].decode("ascii") == hashlib.sha256(stored[64:]).hexdigest():
            return stored[64:]
    except (OSError, UnicodeDecodeError):
        pass
    data = make()
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(hashlib.sha256(data).hexdigest().encode("ascii") + data)
        temporary.replace(target)
    except OSError:
        temporary.unlink(missing_ok=True)
    return data
